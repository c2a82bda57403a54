// verifyWebhook against fixed vectors (computed independently with
// `printf '%s' "1700000000.$BODY" | openssl dgst -sha256 -hmac "$SECRET"`), and the ways a
// delivery must fail: replayed (stale), from the future, tampered, wrong secret, malformed.
// Signing secrets at rest: sealed with AES-256-GCM under the server key, never stored plain.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { signatureHeader, verifyWebhook } from '../../src/index.js';
import { dataDirKey, parseSecretKey, secretBox } from '../../src/secrets.js';
import { tempDir } from '../helpers/stays.js';

const SECRET = 'whsec_test_0123456789abcdef';
const BODY = '{"id":"evt_01","event":"job.succeeded","data":{"job_id":"job_X"}}';
const T = 1_700_000_000;
const V1 = 'e88f7b9fd476aea60b7c3de25a745c5bceadc8434fc56702315321d7e8cfedc4';

describe('verifyWebhook', () => {
  it('accepts the fixed vector, as a string or as bytes, within the tolerance', () => {
    const header = `t=${T},v1=${V1}`;
    expect(signatureHeader(BODY, SECRET, T)).toBe(header);
    expect(verifyWebhook(BODY, header, SECRET, { now: T })).toEqual({ ok: true, timestamp: T });
    expect(verifyWebhook(Buffer.from(BODY), header, SECRET, { now: T + 299 })).toEqual({ ok: true, timestamp: T });
    // A header may carry several v1 values (a secret being rotated): one match is enough.
    expect(verifyWebhook(BODY, `t=${T},v1=${'0'.repeat(64)},v1=${V1}`, SECRET, { now: T }).ok).toBe(true);
  });

  it('refuses a replay older than 5 minutes, and a timestamp from the future', () => {
    const header = `t=${T},v1=${V1}`;
    expect(verifyWebhook(BODY, header, SECRET, { now: T + 301 })).toEqual({ ok: false, reason: 'stale' });
    expect(verifyWebhook(BODY, header, SECRET, { now: T - 301 })).toEqual({ ok: false, reason: 'future' });
    expect(verifyWebhook(BODY, header, SECRET, { now: T + 3600, toleranceSeconds: 7200 }).ok).toBe(true);
  });

  it('refuses a tampered body, a wrong secret, a moved timestamp and malformed headers', () => {
    const header = `t=${T},v1=${V1}`;
    expect(verifyWebhook(BODY.replace('job_X', 'job_Y'), header, SECRET, { now: T })).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyWebhook(BODY, header, `${SECRET}x`, { now: T })).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyWebhook(BODY, `t=${T + 1},v1=${V1}`, SECRET, { now: T })).toEqual({ ok: false, reason: 'mismatch' });
    for (const bad of [undefined, null, '', 'v1=abc', `t=${T}`, `t=x,v1=${V1}`, `t=${T},v1=${V1.toUpperCase()}`, `t=${T},v0=${V1}`, 'x'.repeat(5000)]) {
      expect(verifyWebhook(BODY, bad, SECRET, { now: T }), String(bad).slice(0, 40)).toEqual({ ok: false, reason: 'malformed' });
    }
  });
});

describe('signing secrets at rest', () => {
  it('are sealed (never the plain secret), open with the same key, and fail with another', () => {
    const box = secretBox(parseSecretKey('a'.repeat(64)));
    const sealed = box.seal(SECRET);
    expect(sealed).not.toContain(SECRET);
    expect(sealed).not.toBe(box.seal(SECRET)); // a fresh IV each time
    expect(box.open(sealed)).toBe(SECRET);
    expect(() => secretBox(parseSecretKey('b'.repeat(64))).open(sealed)).toThrow(/server key .* is not the one it was sealed with/);
  });

  it('the data directory key is generated once, 0600, and reused', () => {
    const dir = join(tempDir(), 'data');
    const a = dataDirKey(dir);
    const file = join(dir, 'secret.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(dataDirKey(dir).equals(a)).toBe(true);
    expect(readFileSync(file, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
  });

  it('STAYS_SECRET_KEY must be 32 bytes', () => {
    expect(parseSecretKey(Buffer.alloc(32, 7).toString('base64')).length).toBe(32);
    expect(() => parseSecretKey('short')).toThrow(/STAYS_SECRET_KEY: expected 32 bytes/);
  });
});
