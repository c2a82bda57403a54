// The store's idempotency keys (issue 21 item 10) on SQLite and PostgreSQL alike: one claim per
// account, environment and key; a claim whose lease lapsed can be taken by the same request only;
// answers are stored once, by the claim's owner; released claims free the key; expired keys are
// replaced and purged. Two stores on one database stand for two processes.
import { afterEach, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_RETENTION_MS, type IdempotencyClaim } from '../../src/core/ports/store.js';
import { DAY, STORE_KINDS, T0, addAccount, backings } from './stores.js';

const claim = (over: Partial<IdempotencyClaim> = {}): IdempotencyClaim => ({
  accountId: 'acct_1',
  env: 'live',
  key: 'k1',
  owner: 'req_1',
  fingerprint: 'f1',
  now: T0,
  leaseUntil: T0 + 30_000,
  expiresAt: T0 + IDEMPOTENCY_RETENTION_MS,
  ...over,
});

const ANSWER = { status: 200, headers: { 'content-type': 'application/json', 'x-request-id': 'req_1' }, body: '{"data":{"x":"\\u0000é"}}' };

for (const kind of STORE_KINDS) {
  describe.skipIf(!kind.available)(`${kind.name} store: idempotency keys`, () => {
    const dbs = backings(kind);
    afterEach(() => dbs.cleanup());

    it('claim, in progress, mismatch, done; per account and environment', async () => {
      const db = await dbs.fresh();
      const [p1, p2] = [db.open(), db.open()];
      await addAccount(p1, 'acct_1', 0);
      await addAccount(p1, 'acct_2', 0);
      expect(await p1.claimIdempotencyKey(claim())).toEqual({ state: 'claimed' });
      expect(await p2.claimIdempotencyKey(claim({ owner: 'req_2', now: T0 + 1 }))).toEqual({ state: 'in_progress' });
      expect(await p2.claimIdempotencyKey(claim({ owner: 'req_2', fingerprint: 'f2' }))).toEqual({ state: 'mismatch' });
      expect(await p2.claimIdempotencyKey(claim({ owner: 'req_3', env: 'sandbox' }))).toEqual({ state: 'claimed' });
      expect(await p2.claimIdempotencyKey(claim({ owner: 'req_4', accountId: 'acct_2' }))).toEqual({ state: 'claimed' });
      // Only the owner stores the answer, once.
      expect(await p2.completeIdempotencyKey({ accountId: 'acct_1', env: 'live', key: 'k1', owner: 'req_2' }, ANSWER)).toBe(false);
      expect(await p1.completeIdempotencyKey({ accountId: 'acct_1', env: 'live', key: 'k1', owner: 'req_1' }, ANSWER)).toBe(true);
      expect(await p1.completeIdempotencyKey({ accountId: 'acct_1', env: 'live', key: 'k1', owner: 'req_1' }, ANSWER)).toBe(false);
      expect(await p2.claimIdempotencyKey(claim({ owner: 'req_5', now: T0 + 2 }))).toEqual({ state: 'done', answer: ANSWER });
      expect(await p2.claimIdempotencyKey(claim({ owner: 'req_5', fingerprint: 'f2' }))).toEqual({ state: 'mismatch' });
    });

    it('a lapsed claim is taken by the same request (not another one); renewals keep it; a release frees the key', async () => {
      const db = await dbs.fresh();
      const [p1, p2] = [db.open(), db.open()];
      await addAccount(p1, 'acct_1', 0);
      const r1 = { accountId: 'acct_1', env: 'live' as const, key: 'k1', owner: 'req_1' };
      expect(await p1.claimIdempotencyKey(claim())).toEqual({ state: 'claimed' });
      expect(await p1.renewIdempotencyKey(r1, T0 + 60_000)).toBe(true);
      expect(await p2.claimIdempotencyKey(claim({ owner: 'req_2', now: T0 + 45_000 }))).toEqual({ state: 'in_progress' });
      // Past the renewed lease: the process is taken for dead.
      expect(await p2.claimIdempotencyKey(claim({ owner: 'req_2', fingerprint: 'f2', now: T0 + 60_000 }))).toEqual({ state: 'mismatch' });
      expect(await p2.claimIdempotencyKey(claim({ owner: 'req_2', now: T0 + 60_000, leaseUntil: T0 + 90_000 }))).toEqual({ state: 'claimed' });
      // The dead owner can no longer renew, store or release it.
      expect(await p1.renewIdempotencyKey(r1, T0 + 120_000)).toBe(false);
      expect(await p1.completeIdempotencyKey(r1, ANSWER)).toBe(false);
      await p1.releaseIdempotencyKey(r1);
      expect(await p1.claimIdempotencyKey(claim({ owner: 'req_3', now: T0 + 61_000 }))).toEqual({ state: 'in_progress' });
      await p2.releaseIdempotencyKey({ ...r1, owner: 'req_2' });
      expect(await p1.claimIdempotencyKey(claim({ owner: 'req_3', fingerprint: 'f3', now: T0 + 62_000 }))).toEqual({ state: 'claimed' });
    });

    it('after 24 hours a key is new again, and the purge deletes it', async () => {
      const db = await dbs.fresh();
      const p = db.open();
      await addAccount(p, 'acct_1', 0);
      const r1 = { accountId: 'acct_1', env: 'live' as const, key: 'k1', owner: 'req_1' };
      await p.claimIdempotencyKey(claim());
      await p.completeIdempotencyKey(r1, ANSWER);
      await p.claimIdempotencyKey(claim({ key: 'k2' }));
      const later = T0 + DAY;
      expect(await p.claimIdempotencyKey(claim({ owner: 'req_2', fingerprint: 'f2', now: later, leaseUntil: later + 30_000, expiresAt: later + DAY }))).toEqual({ state: 'claimed' });
      await p.purgeExpired(later, 500);
      // k1 was claimed again (not expired); k2 expired and was purged: claimed anew even with another request.
      expect(await p.claimIdempotencyKey(claim({ owner: 'req_3', now: later + 1 }))).toEqual({ state: 'mismatch' });
      expect(await p.claimIdempotencyKey(claim({ key: 'k2', owner: 'req_3', fingerprint: 'f9', now: later + 1 }))).toEqual({ state: 'claimed' });
    });
  });
}
