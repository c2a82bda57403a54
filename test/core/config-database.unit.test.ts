// STAYS_DATABASE_URL and what it requires (issue 14): a malformed URL is a ConfigError naming the
// variable; a database URL without STAYS_SECRET_KEY cannot seal or open webhook secrets.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { serverKey } from '../../src/secrets.js';
import { redactUrl } from '../../src/store/db-url.js';

const env = (vars: Record<string, string>) => ({ STAYS_DATA_DIR: '/tmp/stays-config-test', ...vars });

describe('STAYS_DATABASE_URL', () => {
  it('accepts postgres:// and postgresql:// URLs, and leaves SQLite the default', () => {
    expect(loadConfig({}, env({})).databaseUrl).toBeUndefined();
    expect(loadConfig({}, env({ STAYS_DATABASE_URL: 'postgres://u:p@db:5432/stays' })).databaseUrl).toBe('postgres://u:p@db:5432/stays');
    expect(loadConfig({}, env({ STAYS_DATABASE_URL: 'postgresql://db/stays?sslmode=require' })).databaseUrl).toBe('postgresql://db/stays?sslmode=require');
    expect(loadConfig({}, env({ STAYS_DATABASE_POOL_MAX: '25' })).databasePoolMax).toBe(25);
  });

  it.each(['mysql://db/x', 'db.internal:5432', 'postgres://', 'http://db/x'])('refuses %s, naming the variable', (url) => {
    expect(() => loadConfig({}, env({ STAYS_DATABASE_URL: url }))).toThrow(ConfigError);
    expect(() => loadConfig({}, env({ STAYS_DATABASE_URL: url }))).toThrow(/STAYS_DATABASE_URL/);
  });

  it('refuses a pool size outside 1..1000', () => {
    expect(() => loadConfig({}, env({ STAYS_DATABASE_POOL_MAX: '0' }))).toThrow(/STAYS_DATABASE_POOL_MAX/);
  });

  it("needs STAYS_SECRET_KEY: instances must open each other's webhook secrets", () => {
    const key = '11'.repeat(32);
    expect(() => serverKey({ dataDir: '/tmp/x', databaseUrl: 'postgres://db/x' })).toThrow(/STAYS_SECRET_KEY/);
    expect(serverKey({ dataDir: '/tmp/x', databaseUrl: 'postgres://db/x', secretKey: key }).toString('hex')).toBe(key);
  });

  it('is shown without its password', () => {
    expect(redactUrl('postgres://stays:s3cret@db:5432/stays')).toBe('postgres://stays:***@db:5432/stays');
    expect(redactUrl('postgres://db/stays')).toBe('postgres://db/stays');
    expect(redactUrl('not a url s3cret')).not.toContain('s3cret');
    expect(redactUrl('postgres://db/stays?password=s3cret&sslmode=require')).toBe('postgres://db/stays?password=***&sslmode=require');
  });
});
