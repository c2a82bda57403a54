// The OAuth half of the store port on the real SQLite file, two connections as two processes: a
// code redeemed once (checks and writes in one transaction), its reuse revoking the grant,
// refresh rotation and reuse detection, key revocation, and the expiry sweep.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import type { OAuthRedeem, Store } from '../../src/core/ports/store.js';
import { tempDir } from '../helpers/stays.js';

const T0 = 1_800_000_000_000;
const HOUR = 3_600_000;
const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

async function setup() {
  const file = join(tempDir(), 'data', 'stays.db');
  const a = openSqliteStore(file);
  const b = openSqliteStore(file);
  stores.push(a, b);
  await a.createAccount({ id: 'acct_1', planCode: 'pro', planName: 'Pro', planStatus: 'active', emailVerified: true, requestsPerMinute: 300, freeTierBudget: 300, createdAt: T0 }, 0, null);
  await a.createKey({ id: 'key_1', accountId: 'acct_1', env: 'sandbox', scopes: ['stays.read', 'account.read'], hash: 'k'.repeat(64), prefix: 'stay_test_abcd', createdAt: T0 });
  await a.createOAuthClient({ id: 'client_1', name: 'Agent', redirectUris: ['http://127.0.0.1:1/cb'], createdAt: T0 });
  await a.createOAuthCode({
    hash: 'code-hash',
    clientId: 'client_1',
    redirectUri: 'http://127.0.0.1:1/cb',
    challenge: 'chal',
    scope: 'stays.read',
    keyId: 'key_1',
    expiresAt: T0 + 60_000,
    createdAt: T0,
  });
  return { a, b };
}

const redeem = (o: Partial<OAuthRedeem> = {}): OAuthRedeem => ({
  codeHash: 'code-hash',
  clientId: 'client_1',
  redirectUri: 'http://127.0.0.1:1/cb',
  verify: (c) => c === 'chal',
  grantId: 'grant_1',
  access: { hash: 'at-1', expiresAt: T0 + HOUR },
  refresh: { hash: 'rt-1', expiresAt: T0 + 720 * HOUR },
  now: T0 + 1000,
  ...o,
});

describe('OAuth in the SQLite store', () => {
  it('a code is redeemed once; refusals leave it usable; its reuse revokes the grant', async () => {
    const { a, b } = await setup();
    expect(await a.getOAuthClient('client_1')).toMatchObject({ name: 'Agent', redirectUris: ['http://127.0.0.1:1/cb'] });
    expect(await a.redeemOAuthCode(redeem({ verify: () => false }))).toEqual({ ok: false, reason: 'verifier' });
    expect(await a.redeemOAuthCode(redeem({ clientId: 'client_2' }))).toEqual({ ok: false, reason: 'mismatch' });
    expect(await a.redeemOAuthCode(redeem({ redirectUri: 'http://127.0.0.1:2/cb' }))).toEqual({ ok: false, reason: 'mismatch' });
    expect(await a.redeemOAuthCode(redeem({ codeHash: 'nope' }))).toEqual({ ok: false, reason: 'unknown' });
    expect(await a.redeemOAuthCode(redeem())).toEqual({ ok: true, scope: 'stays.read', grantId: 'grant_1' });
    const access = await b.findOAuthAccess('at-1');
    expect(access).toMatchObject({ expiresAt: T0 + HOUR, scope: 'stays.read', clientId: 'client_1', grantId: 'grant_1', key: { id: 'key_1' }, account: { id: 'acct_1' } });
    // The second use, from the other process: refused, and the first use's tokens revoked.
    expect(await b.redeemOAuthCode(redeem({ grantId: 'grant_2', access: { hash: 'at-2', expiresAt: T0 + HOUR }, refresh: { hash: 'rt-2', expiresAt: T0 + HOUR } }))).toEqual({
      ok: false,
      reason: 'reused',
    });
    expect(await a.findOAuthAccess('at-1')).toBeNull();
    expect(await a.findOAuthAccess('at-2')).toBeNull();
    expect(await a.rotateOAuthRefresh({ hash: 'rt-1', clientId: 'client_1', access: { hash: 'at-3', expiresAt: T0 + HOUR }, refresh: { hash: 'rt-3', expiresAt: T0 + HOUR }, now: T0 + 2000 })).toEqual(
      { ok: false, reason: 'revoked' },
    );
  });

  it('an expired code is refused', async () => {
    const { a } = await setup();
    expect(await a.redeemOAuthCode(redeem({ now: T0 + 60_000 }))).toEqual({ ok: false, reason: 'expired' });
  });

  it('refresh tokens rotate; an old one revokes the family; a revoked key ends it', async () => {
    const { a, b } = await setup();
    await a.redeemOAuthCode(redeem());
    const rotate = (s: Store, from: string, to: string, now = T0 + 5000) =>
      s.rotateOAuthRefresh({ hash: from, clientId: 'client_1', access: { hash: `at-${to}`, expiresAt: now + HOUR }, refresh: { hash: to, expiresAt: now + 720 * HOUR }, now });
    expect(await rotate(a, 'rt-1', 'rt-2')).toEqual({ ok: true, scope: 'stays.read', grantId: 'grant_1' });
    expect(await a.rotateOAuthRefresh({ hash: 'rt-2', clientId: 'client_9', access: { hash: 'x', expiresAt: T0 }, refresh: { hash: 'y', expiresAt: T0 }, now: T0 })).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(await rotate(b, 'rt-2', 'rt-3')).toMatchObject({ ok: true });
    expect(await b.findOAuthAccess('at-rt-3')).not.toBeNull();
    expect(await rotate(a, 'rt-1', 'rt-4')).toEqual({ ok: false, reason: 'reused' });
    expect(await a.findOAuthAccess('at-rt-3')).toBeNull();
    expect(await rotate(a, 'rt-3', 'rt-5')).toEqual({ ok: false, reason: 'revoked' });
    expect(await rotate(a, 'rt-none', 'rt-6')).toEqual({ ok: false, reason: 'unknown' });
  });

  it('an expired refresh token is refused; a revoked key refuses rotation', async () => {
    const { a } = await setup();
    await a.redeemOAuthCode(redeem());
    expect(await a.rotateOAuthRefresh({ hash: 'rt-1', clientId: 'client_1', access: { hash: 'a2', expiresAt: T0 }, refresh: { hash: 'r2', expiresAt: T0 }, now: T0 + 720 * HOUR })).toEqual({
      ok: false,
      reason: 'expired',
    });
    await a.revokeKey('key_1', T0 + 1);
    expect(await a.rotateOAuthRefresh({ hash: 'rt-1', clientId: 'client_1', access: { hash: 'a3', expiresAt: T0 }, refresh: { hash: 'r3', expiresAt: T0 }, now: T0 + 2 })).toEqual({
      ok: false,
      reason: 'revoked',
    });
    expect((await a.findOAuthAccess('at-1'))?.key.revoked).toBe(true);
  });

  it('the expiry sweep deletes expired tokens, and codes a day past their expiry', async () => {
    const { a } = await setup();
    await a.redeemOAuthCode(redeem());
    await a.purgeExpired(T0 + 2 * HOUR, 100);
    expect(await a.findOAuthAccess('at-1')).toBeNull();
    await a.purgeExpired(T0 + 25 * HOUR, 100);
    // The code row is gone: a reuse now is simply unknown.
    expect(await a.redeemOAuthCode(redeem({ now: T0 + 25 * HOUR }))).toEqual({ ok: false, reason: 'unknown' });
  });
});
