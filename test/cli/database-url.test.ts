// --database-url through the built CLI (issue 22, item 18): a libpq sslmode prints none of the pg
// driver's SECURITY WARNING lines, and an invalid URL is reported under the name the user typed:
// the flag when it came from the flag, STAYS_DATABASE_URL when it came from the environment.
import { beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, freshSandbox, stays } from './helpers.js';

let box: Sandbox;
beforeAll(() => {
  box = freshSandbox();
});

describe('stays admin / serve --database-url', () => {
  it('sslmode=require (and prefer, verify-full): no driver warning on stderr', async () => {
    for (const mode of ['require', 'prefer', 'verify-full']) {
      // Nothing listens on port 1: the command fails to connect, after the driver read the URL.
      const r = await stays(['admin', 'account', 'list', '--database-url', `postgres://nobody@127.0.0.1:1/stays?sslmode=${mode}`], box.env);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('Cannot use PostgreSQL');
      expect(r.stderr).not.toMatch(/SECURITY WARNING|Warning:|uselibpqcompat/);
    }
  });

  it('an invalid URL from the flag names the flag; from the environment, the variable', async () => {
    for (const cmd of [
      ['admin', 'account', 'list'],
      ['serve', '--port', '0'],
    ]) {
      const flag = await stays([...cmd, '--database-url', 'mysql://db/stays'], box.env);
      expect(flag.code).toBe(2);
      expect(flag.stderr).toContain('invalid option --database-url: must be a postgres:// or postgresql:// URL');
      expect(flag.stderr).not.toContain('STAYS_DATABASE_URL');
    }
    const env = await stays(['admin', 'account', 'list'], { ...box.env, STAYS_DATABASE_URL: 'mysql://db/stays' });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('invalid setting STAYS_DATABASE_URL: must be a postgres:// or postgresql:// URL');
  });

  it('an sslmode libpq does not know is refused, naming the values', async () => {
    const r = await stays(['admin', 'account', 'list', '--database-url', 'postgres://db/stays?sslmode=requir'], box.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('invalid option --database-url: sslmode must be one of disable, allow, prefer, require, verify-ca, verify-full');
  });
});
