// Accounts, keys, credits (grants, top-ups, holds, settlements and their ledger), OAuth and the
// cache on every store (SQLite and PostgreSQL), each method checked against its contract in
// src/core/ports/store.ts.
import { afterEach, describe, expect, it } from 'vitest';
import type { NewHold, OAuthRedeem, Store } from '../../src/core/ports/store.js';
import { addAccount, backings, T0, type StoreKind } from './stores.js';

const HOUR = 3_600_000;
const lease = { owner: 'inst_A', expiresAt: T0 + 60_000 };
const hold = (id: string, amount: number, over: Partial<NewHold> = {}): NewHold => ({
  id,
  accountId: 'acct_1',
  amount,
  requestId: `req_${id}`,
  jobId: null,
  at: T0,
  freeTierBudget: null,
  lease,
  ...over,
});

/** The suite on one store: accounts.inprocess.test.ts runs it on SQLite, accounts.pg.test.ts (e2e) on PostgreSQL. */
export function suite(kind: StoreKind): void {
  describe.skipIf(!kind.available)(`${kind.name} store: accounts, keys, credits, OAuth, cache`, () => {
    const dbs = backings(kind);
    afterEach(() => dbs.cleanup());
    const open = async (): Promise<Store> => (await dbs.fresh()).open();

    it('accounts: created with their plan, listed oldest first, unknown ones null', async () => {
      const store = await open();
      const a = await addAccount(store, 'acct_b', 0, { planCode: 'free', planName: 'Free', planStatus: 'active', emailVerified: false, requestsPerMinute: 10, freeTierBudget: 25, createdAt: T0 + 5 });
      expect(a).toEqual({
        id: 'acct_b',
        planCode: 'free',
        planName: 'Free',
        planStatus: 'active',
        emailVerified: false,
        requestsPerMinute: 10,
        freeTierBudget: 25,
        disabled: false,
        createdAt: T0 + 5,
      });
      await addAccount(store, 'acct_c', 0, { createdAt: T0 + 1 });
      await addAccount(store, 'acct_a', 0, { createdAt: T0 + 5 });
      expect(await store.getAccount('acct_b')).toEqual(a);
      expect(await store.getAccount('acct_none')).toBeNull();
      expect((await store.listAccounts()).map((x) => x.id)).toEqual(['acct_c', 'acct_a', 'acct_b']);
      // Initial credits arrive as a grant with its ledger row; none, no row.
      expect(await store.getCredits('acct_b')).toEqual({ balance: 0, held: 0, spent: 0, expiringSoon: 0 });
      expect(await store.ledger('acct_b')).toEqual([]);
      await store.createAccount(
        { id: 'acct_d', planCode: 'pro', planName: 'Pro', planStatus: 'active', emailVerified: true, requestsPerMinute: 300, freeTierBudget: 300, createdAt: T0 + 9 },
        500,
        'req_signup',
      );
      expect(await store.ledger('acct_d')).toEqual([
        { id: expect.any(Number), accountId: 'acct_d', kind: 'grant', amount: 500, balanceAfter: 500, requestId: 'req_signup', jobId: null, keyId: null, note: 'initial credits', createdAt: T0 + 9 },
      ]);
      await expect(addAccount(store, 'acct_a', 0)).rejects.toThrow();
    });

    it('keys: found by hash with their account, listed, revoked (once) and still found', async () => {
      const store = await open();
      await addAccount(store, 'acct_1', 0);
      await addAccount(store, 'acct_2', 0);
      const k1 = await store.createKey({ id: 'key_1', accountId: 'acct_1', env: 'live', scopes: ['stays.read', 'account.read'], hash: 'h1'.repeat(32), prefix: 'stay_live_abcd', createdAt: T0 + 2 });
      expect(k1).toEqual({ id: 'key_1', accountId: 'acct_1', env: 'live', scopes: ['stays.read', 'account.read'], prefix: 'stay_live_abcd', hash: 'h1'.repeat(32), revoked: false, createdAt: T0 + 2 });
      await store.createKey({ id: 'key_0', accountId: 'acct_1', env: 'sandbox', scopes: [], hash: 'h0'.repeat(32), prefix: 'stay_test_abcd', createdAt: T0 + 1 });
      await store.createKey({ id: 'key_2', accountId: 'acct_2', env: 'live', scopes: ['stays.read'], hash: 'h2'.repeat(32), prefix: 'stay_live_efgh', createdAt: T0 });
      const found = await store.findKeyByHash('h1'.repeat(32));
      expect(found?.key).toEqual(k1);
      expect(found?.account).toMatchObject({ id: 'acct_1', planCode: 'pro', createdAt: T0 });
      expect(await store.findKeyByHash('nope')).toBeNull();
      expect((await store.listKeys('acct_1')).map((k) => [k.id, k.scopes])).toEqual([
        ['key_0', []],
        ['key_1', ['stays.read', 'account.read']],
      ]);
      expect(await store.revokeKey('key_1', T0 + 10)).toMatchObject({ id: 'key_1', revoked: true });
      expect(await store.revokeKey('key_1', T0 + 20)).toMatchObject({ id: 'key_1', revoked: true });
      expect(await store.revokeKey('key_none', T0 + 20)).toBeNull();
      // Found whatever its revocation state, and the revocation is seen at once by the store that made it.
      expect((await store.findKeyByHash('h1'.repeat(32)))?.key.revoked).toBe(true);
      expect((await store.findKeyByHash('h2'.repeat(32)))?.key.revoked).toBe(false);
      await expect(store.createKey({ id: 'key_3', accountId: 'acct_1', env: 'live', scopes: [], hash: 'h1'.repeat(32), prefix: 'x', createdAt: T0 })).rejects.toThrow();
    });

    it('grants add credits with a ledger row; only positive integers', async () => {
      const store = await open();
      await addAccount(store, 'acct_1', 100);
      expect(await store.grantCredits('acct_1', 50, { requestId: 'req_g', note: 'goodwill' }, T0 + 1)).toEqual({ balance: 150, held: 0, spent: 0, expiringSoon: 0 });
      expect(await store.grantCredits('acct_1', 5, { requestId: null }, T0 + 2)).toMatchObject({ balance: 155 });
      for (const bad of [0, -5, 1.5]) await expect(store.grantCredits('acct_1', bad, { requestId: null }, T0)).rejects.toThrow(RangeError);
      expect((await store.ledger('acct_1')).map((l) => [l.kind, l.amount, l.balanceAfter, l.requestId, l.note, l.createdAt])).toEqual([
        ['grant', 100, 100, null, 'initial credits', T0],
        ['grant', 50, 150, 'req_g', 'goodwill', T0 + 1],
        ['grant', 5, 155, null, null, T0 + 2],
      ]);
      expect(await store.getCredits('acct_1')).toMatchObject({ balance: 155 });
    });

    it('top-ups stay within their cap over the window; the ledger row names the key', async () => {
      const store = await open();
      await addAccount(store, 'acct_1', 0);
      const t = (credits: number, at: number, since = T0) => ({ accountId: 'acct_1', credits, keyId: 'key_1', requestId: `req_${at}`, at, since, max: 1000 });
      expect(await store.topup(t(600, T0 + 1))).toEqual({ ok: true, credits: { balance: 600, held: 0, spent: 0, expiringSoon: 0 } });
      expect(await store.topup(t(401, T0 + 2))).toEqual({ ok: false, used: 600 });
      expect(await store.topup(t(400, T0 + 3))).toMatchObject({ ok: true, credits: { balance: 1000 } });
      expect(await store.topup(t(1, T0 + 4))).toEqual({ ok: false, used: 1000 });
      // Top-ups before the window no longer count (the one at T0 + 3 does from T0 + 2); grants never do.
      await store.grantCredits('acct_1', 5000, { requestId: null }, T0 + 5);
      expect(await store.topup(t(601, T0 + 6, T0 + 2))).toEqual({ ok: false, used: 400 });
      expect(await store.topup(t(700, T0 + 6, T0 + 4))).toMatchObject({ ok: true, credits: { balance: 6700 } });
      await expect(store.topup(t(0, T0 + 7))).rejects.toThrow(RangeError);
      expect((await store.ledger('acct_1')).filter((l) => l.kind === 'topup').map((l) => [l.amount, l.balanceAfter, l.keyId, l.requestId])).toEqual([
        [600, 600, 'key_1', `req_${T0 + 1}`],
        [400, 1000, 'key_1', `req_${T0 + 3}`],
        [700, 6700, 'key_1', `req_${T0 + 6}`],
      ]);
    });

    it('a transaction that fails changes nothing, and what runs beside it meanwhile is not part of it (nor lost with it)', async () => {
      const store = await open();
      await addAccount(store, 'acct_1', 100);
      expect((await store.hold(hold('h1', 10))).ok).toBe(true);
      // A settlement above its hold fails inside its transaction, after it deleted the hold: the
      // delete is rolled back. The writes and reads sent at the same moment are their own.
      const [settled, , , credits] = await Promise.allSettled([
        store.settleHold('h1', 11, { requestId: 'req_h1', jobId: null, at: T0 }),
        store.cacheSet('k:beside', { v: 1 }, T0, T0 + HOUR),
        store.hold(hold('h2', 5)),
        store.getCredits('acct_1'),
      ]);
      expect(settled.status).toBe('rejected');
      expect((settled as PromiseRejectedResult).reason).toBeInstanceOf(RangeError);
      expect(credits.status === 'fulfilled' && credits.value.balance).toBe(100);
      expect(await store.cacheGet('k:beside', T0)).toEqual({ value: { v: 1 }, storedAt: T0 });
      expect(await store.getCredits('acct_1')).toMatchObject({ balance: 100, held: 15, spent: 0 });
      // The hold is still there, whole: settling it within its amount works.
      expect(await store.settleHold('h1', 10, { requestId: 'req_h1', jobId: null, at: T0 })).toMatchObject({ balance: 90, held: 5, spent: 10 });
      expect((await store.ledger('acct_1')).map((l) => [l.kind, l.amount])).toEqual([
        ['grant', 100],
        ['charge', -10],
      ]);
    });

    it('holds reserve what balance - held covers, within the free-tier budget; settling charges at most the hold', async () => {
      const store = await open();
      await addAccount(store, 'acct_1', 100);
      expect(await store.hold(hold('h1', 60))).toEqual({ ok: true, credits: { balance: 100, held: 60, spent: 0, expiringSoon: 0 } });
      expect(await store.hold(hold('h2', 41))).toEqual({ ok: false, reason: 'balance', credits: { balance: 100, held: 60, spent: 0, expiringSoon: 0 } });
      expect(await store.hold(hold('h3', 40))).toMatchObject({ ok: true, credits: { held: 100 } });
      await expect(store.settleHold('h1', 61, { requestId: 'req_h1', jobId: null, at: T0 + 1 })).rejects.toThrow(RangeError);
      // The refused settlement changed nothing.
      expect(await store.getCredits('acct_1')).toMatchObject({ balance: 100, held: 100 });
      expect(await store.settleHold('h1', 25, { requestId: 'req_h1', jobId: 'job_x', at: T0 + 1 })).toEqual({ balance: 75, held: 40, spent: 25, expiringSoon: 0 });
      expect(await store.settleHold('h1', 25, { requestId: 'req_h1', jobId: 'job_x', at: T0 + 1 })).toBeNull();
      // A zero charge releases the hold without a ledger row.
      expect(await store.settleHold('h3', 0, { requestId: 'req_h3', jobId: null, at: T0 + 2 })).toEqual({ balance: 75, held: 0, spent: 25, expiringSoon: 0 });
      expect((await store.ledger('acct_1')).slice(1).map((l) => [l.kind, l.amount, l.balanceAfter, l.requestId, l.jobId, l.createdAt])).toEqual([['charge', -25, 75, 'req_h1', 'job_x', T0 + 1]]);

      // Free plan: lifetime spend plus holds plus this one may not pass the budget (25 spent here).
      expect(await store.hold(hold('f1', 30, { freeTierBudget: 60 }))).toMatchObject({ ok: true });
      expect(await store.hold(hold('f2', 6, { freeTierBudget: 60 }))).toMatchObject({ ok: false, reason: 'free_tier', credits: { spent: 25, held: 30 } });
      expect(await store.hold(hold('f3', 5, { freeTierBudget: 60 }))).toMatchObject({ ok: true });
      // Over both limits: the free tier is the reason.
      expect(await store.hold(hold('f4', 500, { freeTierBudget: 60 }))).toMatchObject({ ok: false, reason: 'free_tier' });
      expect(await store.getCredits('acct_nobody')).toEqual({ balance: 0, held: 0, spent: 0, expiringSoon: 0 });
    });

    it('a known cost is charged at once where a hold of its worst case would be granted (same reasons when not), with its ledger row and nothing held', async () => {
      const store = await open();
      await addAccount(store, 'acct_1', 100);
      const charge = (admit: number, amount: number, over: { freeTierBudget?: number | null; at?: number; requestId?: string } = {}) =>
        store.charge({ accountId: 'acct_1', admit, charge: amount, requestId: over.requestId ?? `req_${admit}_${amount}`, at: over.at ?? T0 + 1, freeTierBudget: over.freeTierBudget ?? null });
      expect(await store.hold(hold('h1', 60))).toMatchObject({ ok: true });
      // 40 available: a worst case of 41 is refused even though the call would cost 10.
      expect(await charge(41, 10)).toEqual({ ok: false, reason: 'balance', credits: { balance: 100, held: 60, spent: 0, expiringSoon: 0 } });
      expect(await charge(40, 10, { requestId: 'req_c1' })).toEqual({ ok: true, credits: { balance: 90, held: 60, spent: 10, expiringSoon: 0 } });
      // D5: never more than the worst case; a refused charge changes nothing.
      await expect(charge(5, 6)).rejects.toThrow(RangeError);
      await expect(charge(5, -1)).rejects.toThrow(RangeError);
      // A zero cost: admitted, no ledger row.
      expect(await charge(30, 0)).toEqual({ ok: true, credits: { balance: 90, held: 60, spent: 10, expiringSoon: 0 } });
      expect((await store.ledger('acct_1')).slice(1).map((l) => [l.kind, l.amount, l.balanceAfter, l.requestId, l.jobId, l.keyId, l.createdAt])).toEqual([
        ['charge', -10, 90, 'req_c1', null, null, T0 + 1],
      ]);
      // Free plan: spent + held + the worst case may not pass the budget (10 spent, 60 held here).
      expect(await charge(11, 1, { freeTierBudget: 80 })).toMatchObject({ ok: false, reason: 'free_tier', credits: { spent: 10, held: 60 } });
      expect(await charge(10, 1, { freeTierBudget: 80 })).toMatchObject({ ok: true, credits: { spent: 11 } });
      // Over both limits: the free tier is the reason, as for a hold.
      expect(await charge(500, 1, { freeTierBudget: 80 })).toMatchObject({ ok: false, reason: 'free_tier' });
      expect(await store.getCredits('acct_1')).toEqual({ balance: 89, held: 60, spent: 11, expiringSoon: 0 });
    });

    it('known costs charged at once concurrently on one account: each decided as if one by one, each with its ledger row, the chain unbroken', async () => {
      const store = await open();
      await addAccount(store, 'acct_1', 200);
      const many = (n: number, from: number) =>
        Promise.all(Array.from({ length: n }, (_, i) => store.charge({ accountId: 'acct_1', admit: 10, charge: 5, requestId: `req_${from + i}`, at: T0 + from + i, freeTierBudget: null })));
      // Each needs 10 available and costs 5. First 20 that all pass (200 → 100), then 30 of which
      // 100 → 10 takes 18, the 19th leaves 5, and the rest are refused.
      const first = await many(20, 0);
      expect(first.every((r) => r.ok)).toBe(true);
      const then = await many(30, 20);
      expect(then.filter((r) => r.ok)).toHaveLength(19);
      expect(then.filter((r) => !r.ok).every((r) => !r.ok && r.reason === 'balance')).toBe(true);
      expect(await store.getCredits('acct_1')).toEqual({ balance: 5, held: 0, spent: 195, expiringSoon: 0 });
      const charges = (await store.ledger('acct_1')).filter((l) => l.kind === 'charge');
      expect(new Set(charges.map((l) => l.requestId)).size).toBe(39);
      // In ledger order, each row's balance is the one before it less its charge.
      expect(charges.map((l) => l.balanceAfter)).toEqual(Array.from({ length: 39 }, (_, i) => 195 - 5 * i));
      // Each caller that was charged was told so, with the balance its own row records.
      const byRequest = new Map(charges.map((l) => [l.requestId, l.balanceAfter]));
      [...first, ...then].forEach((r, i) => {
        if (r.ok) expect(r.credits.balance).toBe(byRequest.get(`req_${i}`));
        else expect(byRequest.has(`req_${i}`)).toBe(false);
      });
    });

    it('the cache: a value until its expiry, replaced by a later set', async () => {
      const store = await open();
      expect(await store.cacheGet('k', T0)).toBeNull();
      await store.cacheSet('k', { a: [1, 'two', null], b: true }, T0, T0 + 1000);
      expect(await store.cacheGet('k', T0 + 999)).toEqual({ value: { a: [1, 'two', null], b: true }, storedAt: T0 });
      expect(await store.cacheGet('k', T0 + 1000)).toBeNull();
      await store.cacheSet('k', 'again', T0 + 2000, T0 + 3000);
      expect(await store.cacheGet('k', T0 + 2500)).toEqual({ value: 'again', storedAt: T0 + 2000 });
    });

    describe('OAuth', () => {
      async function setup() {
        const db = await dbs.fresh();
        const a = db.open();
        const b = db.open();
        await addAccount(a, 'acct_1', 0);
        await a.createKey({ id: 'key_1', accountId: 'acct_1', env: 'sandbox', scopes: ['stays.read', 'account.read'], hash: 'k'.repeat(64), prefix: 'stay_test_abcd', createdAt: T0 });
        expect(await a.createOAuthClient({ id: 'client_1', name: 'Agent', redirectUris: ['http://127.0.0.1:1/cb'], createdAt: T0 })).toEqual({
          id: 'client_1',
          name: 'Agent',
          redirectUris: ['http://127.0.0.1:1/cb'],
          createdAt: T0,
        });
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
      const rotate = (hash: string, n: number, now = T0 + 2000) => ({
        hash,
        clientId: 'client_1',
        access: { hash: `at-${n}`, expiresAt: now + HOUR },
        refresh: { hash: `rt-${n}`, expiresAt: now + 720 * HOUR },
        now,
      });

      it('clients; a code redeemed once, refusals leaving it usable; its reuse (from another process) revokes the grant', async () => {
        const { a, b } = await setup();
        expect(await b.getOAuthClient('client_1')).toMatchObject({ name: 'Agent' });
        expect(await b.getOAuthClient('client_2')).toBeNull();
        expect(await a.redeemOAuthCode(redeem({ codeHash: 'other' }))).toEqual({ ok: false, reason: 'unknown' });
        expect(await a.redeemOAuthCode(redeem({ redirectUri: 'http://127.0.0.1:1/other' }))).toEqual({ ok: false, reason: 'mismatch' });
        expect(await a.redeemOAuthCode(redeem({ verify: () => false }))).toEqual({ ok: false, reason: 'verifier' });
        expect(await a.redeemOAuthCode(redeem({ now: T0 + 60_000 }))).toEqual({ ok: false, reason: 'expired' });
        expect(await a.redeemOAuthCode(redeem())).toEqual({ ok: true, scope: 'stays.read', grantId: 'grant_1' });
        const access = await b.findOAuthAccess('at-1');
        expect(access).toMatchObject({
          hash: 'at-1',
          expiresAt: T0 + HOUR,
          scope: 'stays.read',
          clientId: 'client_1',
          grantId: 'grant_1',
          key: { id: 'key_1', env: 'sandbox' },
          account: { id: 'acct_1' },
        });
        expect(await b.findOAuthAccess('rt-1')).toBeNull();
        expect(await b.redeemOAuthCode(redeem({ grantId: 'grant_2', access: { hash: 'at-x', expiresAt: T0 + HOUR }, refresh: { hash: 'rt-x', expiresAt: T0 + HOUR } }))).toEqual({
          ok: false,
          reason: 'reused',
        });
        expect(await a.findOAuthAccess('at-1')).toBeNull();
        expect(await a.rotateOAuthRefresh(rotate('rt-1', 2))).toEqual({ ok: false, reason: 'revoked' });
      });

      it('refresh tokens rotate; an old one revokes the family; expiry, client and key revocation refuse', async () => {
        const { a, b } = await setup();
        expect(await a.redeemOAuthCode(redeem())).toMatchObject({ ok: true });
        expect(await a.rotateOAuthRefresh({ ...rotate('rt-1', 2), clientId: 'client_2' })).toEqual({ ok: false, reason: 'mismatch' });
        expect(await a.rotateOAuthRefresh(rotate('nope', 2))).toEqual({ ok: false, reason: 'unknown' });
        expect(await a.rotateOAuthRefresh(rotate('rt-1', 2))).toEqual({ ok: true, scope: 'stays.read', grantId: 'grant_1' });
        expect(await b.findOAuthAccess('at-2')).toMatchObject({ grantId: 'grant_1', expiresAt: T0 + 2000 + HOUR });
        expect(await b.rotateOAuthRefresh(rotate('rt-2', 3))).toMatchObject({ ok: true });
        // rt-1 again: it leaked; the whole family is revoked.
        expect(await b.rotateOAuthRefresh(rotate('rt-1', 4))).toEqual({ ok: false, reason: 'reused' });
        expect(await a.findOAuthAccess('at-3')).toBeNull();
        expect(await a.rotateOAuthRefresh(rotate('rt-3', 5))).toEqual({ ok: false, reason: 'revoked' });

        await a.createOAuthCode({
          hash: 'code-2',
          clientId: 'client_1',
          redirectUri: 'http://127.0.0.1:1/cb',
          challenge: 'chal',
          scope: 'account.read',
          keyId: 'key_1',
          expiresAt: T0 + 60_000,
          createdAt: T0,
        });
        expect(
          await a.redeemOAuthCode(redeem({ codeHash: 'code-2', grantId: 'grant_2', access: { hash: 'at-b', expiresAt: T0 + HOUR }, refresh: { hash: 'rt-b', expiresAt: T0 + 2 * HOUR } })),
        ).toMatchObject({ ok: true, scope: 'account.read' });
        expect(await a.rotateOAuthRefresh(rotate('rt-b', 6, T0 + 2 * HOUR))).toEqual({ ok: false, reason: 'expired' });
        await b.revokeKey('key_1', T0 + 3000);
        expect(await a.rotateOAuthRefresh(rotate('rt-b', 7))).toEqual({ ok: false, reason: 'revoked' });
        // An access token is found whatever its expiry (the caller checks it), with its key's state.
        expect(await a.findOAuthAccess('at-b')).toMatchObject({ key: { revoked: true } });
        await a.createOAuthCode({
          hash: 'code-3',
          clientId: 'client_1',
          redirectUri: 'http://127.0.0.1:1/cb',
          challenge: 'chal',
          scope: 'stays.read',
          keyId: 'key_1',
          expiresAt: T0 + 60_000,
          createdAt: T0,
        });
        expect(await a.redeemOAuthCode(redeem({ codeHash: 'code-3', grantId: 'grant_3' }))).toEqual({ ok: false, reason: 'revoked' });
      });
    });
  });
}
