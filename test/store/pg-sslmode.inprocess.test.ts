// sslmode in a PostgreSQL URL means what libpq users expect (issue 22, item 18), through the very
// parser the pg driver runs on the URL we hand it (pg-connection-string), and the driver's
// nine-line SECURITY WARNING about its own reading of prefer/require/verify-ca never appears.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'pg-connection-string';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { libpqCompatUrl } from '../../src/store/postgres/ssl.js';
import { tempDir } from '../helpers/stays.js';

const BASE = 'postgres://stays@db.example.com:5432/stays';
let warnings: string[] = [];
const onWarning = (w: Error) => warnings.push(w.message);
beforeEach(() => {
  warnings = [];
  process.on('warning', onWarning);
});
afterEach(() => {
  process.off('warning', onWarning);
});

type Ssl = false | { rejectUnauthorized?: boolean; ca?: string; checkServerIdentity?: unknown } | undefined;
const sslOf = (query: string): Ssl => parse(libpqCompatUrl(`${BASE}?${query}`)).ssl as Ssl;

describe('libpq sslmode on the pg driver', () => {
  const ca = join(tempDir('stays-ssl-'), 'root.crt');
  writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');

  it('disable and allow: no TLS', () => {
    expect(sslOf('sslmode=disable')).toBe(false);
    expect(sslOf('sslmode=allow')).toBe(false);
  });

  it('prefer and require: TLS without verifying the certificate', () => {
    expect(sslOf('sslmode=prefer')).toEqual({ rejectUnauthorized: false });
    expect(sslOf('sslmode=require')).toEqual({ rejectUnauthorized: false });
  });

  it('require with sslrootcert and verify-ca: the chain is verified against the CA, the host name is not', () => {
    for (const mode of ['require', 'verify-ca']) {
      const ssl = sslOf(`sslmode=${mode}&sslrootcert=${encodeURIComponent(ca)}`) as Exclude<Ssl, false | undefined>;
      expect(ssl.rejectUnauthorized).toBeUndefined(); // Node's default: verify the chain
      expect(ssl.ca).toContain('BEGIN CERTIFICATE');
      expect(typeof ssl.checkServerIdentity).toBe('function');
    }
  });

  it('verify-ca without sslrootcert is refused, as libpq does', () => {
    expect(() => sslOf('sslmode=verify-ca')).toThrow(/sslrootcert/);
  });

  it('verify-full: certificate and host name verified (nothing turned off)', () => {
    expect(sslOf('sslmode=verify-full')).toEqual({});
  });

  it("no sslmode, the driver's no-verify and an explicit uselibpqcompat are left alone", () => {
    expect(libpqCompatUrl(BASE)).toBe(BASE);
    expect(libpqCompatUrl(`${BASE}?sslmode=no-verify`)).toBe(`${BASE}?sslmode=no-verify`);
    expect(libpqCompatUrl(`${BASE}?sslmode=require&uselibpqcompat=false`)).toBe(`${BASE}?sslmode=require&uselibpqcompat=false`);
  });

  it('no SECURITY WARNING for any mode', async () => {
    for (const mode of ['disable', 'allow', 'prefer', 'require', 'verify-full']) sslOf(`sslmode=${mode}`);
    await new Promise((r) => setImmediate(r));
    expect(warnings).toEqual([]);
  });
});
