// Canceling a job (issue 22, item 19) on every store: a pending or running job ends failed with the
// given error and its hold is released, charging nothing; its runner's later finishJob changes
// nothing (an upstream answer that arrives after the cancel is never charged); an ended job is
// not canceled.
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/core/ports/store.js';
import { addAccount, backings, T0, type StoreKind } from './stores.js';

const CANCELED = { type: 'invalid_request', code: 'job_canceled', message: 'canceled', retryable: false };

async function startJob(store: Store, id: string, owner: string, run = true) {
  const lease = { owner, expiresAt: T0 + 60_000 };
  expect((await store.hold({ id: `hold_${id}`, accountId: 'acct_1', amount: 40, requestId: `req_${id}`, jobId: id, at: T0, freeTierBudget: null, lease })).ok).toBe(true);
  await store.createJob({ id, accountId: 'acct_1', env: 'live', requestId: `req_${id}`, operation: 'search', platforms: ['airbnb'], estimatedSeconds: 2, createdAt: T0, lease });
  if (run) expect(await store.startJob(id, owner, T0)).toBe(true);
}

const end = (id: string, owner: string, charge: number) => ({
  jobId: id,
  owner,
  holdId: `hold_${id}`,
  charge,
  requestId: `req_${id}`,
  status: 'completed' as const,
  result: [1],
  meta: {},
  at: T0 + 10,
  expiresAt: T0 + 86_400_000,
});

/** The suite on one store: cancel-job.inprocess.test.ts runs it on SQLite, cancel-job.pg.test.ts (e2e) on PostgreSQL. */
export function suite(kind: StoreKind): void {
  describe.skipIf(!kind.available)(`${kind.name} store: cancelJob`, () => {
    const dbs = backings(kind);
    afterEach(() => dbs.cleanup());

    async function setup() {
      const store = (await dbs.fresh()).open();
      await addAccount(store, 'acct_1', 1000);
      return store;
    }

    it('a running job: failed with the error, hold released, and its runner can no longer charge it', async () => {
      const store = await setup();
      await startJob(store, 'job_run', 'inst_A');
      expect((await store.getCredits('acct_1')).held).toBe(40);
      expect(await store.cancelJob('job_run', CANCELED, T0 + 5, T0 + 86_400_000)).toBe(true);
      expect(await store.getCredits('acct_1')).toMatchObject({ balance: 1000, held: 0 });
      expect(await store.getJob('job_run')).toMatchObject({ status: 'failed', error: CANCELED, owner: null });
      // The upstream answers afterwards: the runner's settlement is refused, nothing is charged.
      expect(await store.finishJob(end('job_run', 'inst_A', 40))).toBe(false);
      expect(await store.getCredits('acct_1')).toMatchObject({ balance: 1000, held: 0, spent: 0 });
      expect((await store.ledger('acct_1')).filter((l) => l.kind === 'charge')).toEqual([]);
      expect((await store.getJob('job_run'))!.status).toBe('failed');
    });

    it('a pending job is canceled the same way and never starts', async () => {
      const store = await setup();
      await startJob(store, 'job_pend', 'inst_A', false);
      expect(await store.cancelJob('job_pend', CANCELED, T0 + 5, T0 + 86_400_000)).toBe(true);
      expect(await store.startJob('job_pend', 'inst_A', T0 + 6)).toBe(false);
      expect(await store.getCredits('acct_1')).toMatchObject({ held: 0, balance: 1000 });
    });

    it('an ended job (or none) is not canceled: false, and nothing changes', async () => {
      const store = await setup();
      await startJob(store, 'job_done', 'inst_A');
      expect(await store.finishJob(end('job_done', 'inst_A', 30))).toBe(true);
      expect(await store.cancelJob('job_done', CANCELED, T0 + 20, T0 + 86_400_000)).toBe(false);
      expect(await store.getJob('job_done')).toMatchObject({ status: 'completed', error: null });
      expect(await store.getCredits('acct_1')).toMatchObject({ balance: 970, held: 0 });
      expect(await store.cancelJob('job_nope', CANCELED, T0 + 20, T0 + 86_400_000)).toBe(false);
    });
  });
}
