// What OAuth tokens do once the flow of issue 12 has run: REST accepts them for the key's account
// with stays.read only, their calls use a per-account rate-limit bucket, codes and tokens are
// stored only as hashes, and a client may run the flow several times. The app in-process
// (test/helpers/app.ts); the flow itself over a real `stays serve` (discovery to tools/call, then
// the SDK client with the token) is test/oauth/flow.test.ts.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';
import { authorize, exchange, newClient, pkce, signIn } from './helpers.js';

describe('OAuth 2.1 + PKCE for /mcp, end to end', () => {
  let s: TestApp;
  let acct: TestAccount;

  beforeAll(async () => {
    s = await startApp();
    acct = await s.account({ credits: 1000 });
  });
  afterAll(async () => {
    await s?.stop();
  });

  it("REST accepts the access token too, for the key's account, with scope stays.read only", async () => {
    const other = await s.account({ scopes: 'stays.read,account.read,billing.write' });
    const tokens = await signIn(s, other.sandboxKey);
    const account = await s.req('/v1/account', { key: tokens.access_token });
    expect(account.status).toBe(200);
    expect(((await account.json()) as { data: { id: string } }).data.id).toBe(other.id);
    // billing.write was the key's, not the token's.
    const topup = await s.req('/v1/billing/topups', { key: tokens.access_token, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ credits: 10 }) });
    expect(topup.status).toBe(403);
    expect(((await topup.json()) as { error: { code: string } }).error.code).toBe('scope_insufficient');
  });

  it("calls made with OAuth tokens use a per-account bucket, not the key's", async () => {
    const small = await s.account({ rpm: 5 });
    const tokens = await signIn(s, small.sandboxKey);
    const limit = async (key: string) => {
      const res = await s.req('/v1/account', { key });
      return Number(res.headers.get('x-ratelimit-remaining'));
    };
    expect(await limit(small.sandboxKey)).toBe(4);
    expect(await limit(small.sandboxKey)).toBe(3);
    // The token's bucket is the account's own, untouched by the key's calls.
    expect(await limit(tokens.access_token)).toBe(4);
    // Another token of the same account shares it (per user, not per token).
    const again = await signIn(s, small.sandboxKey);
    expect(await limit(again.access_token)).toBe(3);
    expect(await limit(small.sandboxKey)).toBe(2);
  });

  it('codes and tokens are stored only as hashes', async () => {
    const clientId = await newClient(s);
    const { verifier, challenge } = pkce();
    const code = await authorize(s, clientId, acct.sandboxKey, challenge);
    const tokens = await exchange(s, clientId, code, verifier);
    const files = readdirSync(s.dataDir).filter((f) => f.startsWith('stays.db'));
    expect(files).toContain('stays.db');
    const stored = Buffer.concat(files.map((f) => readFileSync(join(s.dataDir, f))));
    for (const secret of [code, tokens.access_token, tokens.refresh_token]) {
      expect(stored.includes(Buffer.from(secret))).toBe(false);
      expect(stored.includes(Buffer.from(secret.slice(9)))).toBe(false);
      expect(stored.includes(Buffer.from(createHash('sha256').update(secret).digest('hex')))).toBe(true);
    }
  });

  it('a client is registered once and may run the flow several times', async () => {
    const clientId = await newClient(s);
    for (let i = 0; i < 2; i++) {
      const { verifier, challenge } = pkce();
      const code = await authorize(s, clientId, acct.sandboxKey, challenge);
      expect((await exchange(s, clientId, code, verifier)).scope).toBe('stays.read');
    }
  });
});
