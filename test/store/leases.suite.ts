// The store port's ownership rules (issue 8) on every store, SQLite and PostgreSQL alike:
// leases, conditional settlement, expiry of abandoned work, bounded purges; and SQLite's
// private file modes.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import type { Store } from '../../src/core/ports/store.js';
import { tempDir } from '../helpers/stays.js';
import { addAccount, backings, T0, type StoreKind } from './stores.js';

async function startJob(store: Store, id: string, owner: string, leaseUntil: number, amount = 40) {
  const lease = { owner, expiresAt: leaseUntil };
  const held = await store.hold({ id: `hold_${id}`, accountId: 'acct_1', amount, requestId: `req_${id}`, jobId: id, at: T0, freeTierBudget: null, lease });
  expect(held.ok).toBe(true);
  await store.createJob({ id, accountId: 'acct_1', env: 'live', requestId: `req_${id}`, operation: 'price', platforms: ['airbnb'], estimatedSeconds: 2, createdAt: T0, lease });
  expect(await store.startJob(id, owner, T0)).toBe(true);
}

const end = (id: string, owner: string, charge: number, at = T0 + 10) => ({
  jobId: id,
  owner,
  holdId: `hold_${id}`,
  charge,
  requestId: `req_${id}`,
  status: 'completed' as const,
  result: { ok: 1 },
  meta: {},
  at,
  expiresAt: at + 86_400_000,
});

const FAILED = { type: 'upstream_unavailable', code: 'upstream_degraded', message: 'stopped', retryable: true };

/** The suite on one store: leases.inprocess.test.ts runs it on SQLite, leases.pg.test.ts (e2e) on PostgreSQL. */
export function suite(kind: StoreKind): void {
  describe.skipIf(!kind.available)(`${kind.name} store: leases and expiry`, () => {
    const dbs = backings(kind);
    afterEach(() => dbs.cleanup());

    async function setup() {
      const store = (await dbs.fresh()).open();
      await addAccount(store, 'acct_1', 1000);
      return { store };
    }

    it('a job with a current lease is never failed by another process; once expired it is, and its owner can no longer settle it', async () => {
      const { store } = await setup();
      await startJob(store, 'job_a', 'inst_A', T0 + 3000);
      expect(await store.failExpired(FAILED, T0 + 2999, T0 + 86_400_000)).toEqual({ jobs: [], holds: 0 });
      // The heartbeat moves the lease on; the old expiry no longer counts.
      await store.renewLeases('inst_A', T0 + 6000, { jobs: ['job_a'], holds: ['hold_job_a'], flights: [] });
      expect(await store.failExpired(FAILED, T0 + 5000, T0 + 86_400_000)).toEqual({ jobs: [], holds: 0 });
      expect((await store.getCredits('acct_1')).held).toBe(40);

      expect(await store.failExpired(FAILED, T0 + 6000, T0 + 86_400_000)).toEqual({ jobs: ['job_a'], holds: 1 });
      expect(await store.getJob('job_a')).toMatchObject({ status: 'failed', error: FAILED, owner: null, updatedAt: T0 + 6000, expiresAt: T0 + 86_400_000 });
      expect(await store.getCredits('acct_1')).toMatchObject({ balance: 1000, held: 0 });
      // The owner comes back too late: nothing is settled, nothing charged, the job stays failed.
      expect(await store.finishJob(end('job_a', 'inst_A', 12))).toBe(false);
      expect(await store.getJob('job_a')).toMatchObject({ status: 'failed' });
      expect(await store.getCredits('acct_1')).toMatchObject({ balance: 1000, held: 0 });
      expect((await store.ledger('acct_1')).filter((l) => l.kind === 'charge')).toEqual([]);
    });

    it('the heartbeat renews only the work its process names as running: a job or hold it lost track of expires and is released', async () => {
      const { store } = await setup();
      await startJob(store, 'job_live', 'inst_A', T0 + 3000);
      await startJob(store, 'job_stranded', 'inst_A', T0 + 3000, 25);
      const loose = { owner: 'inst_A', expiresAt: T0 + 3000 };
      await store.hold({ id: 'hold_sync', accountId: 'acct_1', amount: 7, requestId: 'req_s', jobId: null, at: T0, freeTierBudget: null, lease: loose });
      await store.hold({ id: 'hold_stranded', accountId: 'acct_1', amount: 9, requestId: 'req_x', jobId: null, at: T0, freeTierBudget: null, lease: loose });
      await store.renewLeases('inst_A', T0 + 9000, { jobs: ['job_live'], holds: ['hold_job_live', 'hold_sync'], flights: [] });
      expect(await store.getCredits('acct_1')).toMatchObject({ held: 40 + 25 + 7 + 9 });
      const swept = await store.failExpired(FAILED, T0 + 3000, T0 + 86_400_000);
      expect(swept).toEqual({ jobs: ['job_stranded'], holds: 2 });
      expect(await store.getJob('job_stranded')).toMatchObject({ status: 'failed', error: FAILED });
      expect(await store.getJob('job_live')).toMatchObject({ status: 'running', leaseExpiresAt: T0 + 9000 });
      expect(await store.getCredits('acct_1')).toMatchObject({ balance: 1000, held: 40 + 7 });
      // Nothing to renew: nothing changes.
      await store.renewLeases('inst_A', T0 + 20_000, { jobs: [], holds: [], flights: [] });
      expect(await store.getJob('job_live')).toMatchObject({ leaseExpiresAt: T0 + 9000 });
    });

    it('only the owner settles a job, once', async () => {
      const { store } = await setup();
      await startJob(store, 'job_b', 'inst_A', T0 + 3000);
      expect(await store.finishJob(end('job_b', 'inst_B', 12))).toBe(false);
      expect(await store.finishJob(end('job_b', 'inst_A', 12))).toBe(true);
      expect(await store.finishJob(end('job_b', 'inst_A', 12))).toBe(false);
      expect(await store.getCredits('acct_1')).toMatchObject({ balance: 988, held: 0, spent: 12 });
      expect((await store.ledger('acct_1')).filter((l) => l.kind === 'charge').map((l) => [l.amount, l.jobId, l.balanceAfter])).toEqual([[-12, 'job_b', 988]]);
      expect(await store.getJob('job_b')).toMatchObject({ status: 'completed', result: { ok: 1 }, meta: {}, error: null, owner: null, updatedAt: T0 + 10, expiresAt: T0 + 10 + 86_400_000 });
    });

    it('startJob: only the owner, only from pending', async () => {
      const { store } = await setup();
      const lease = { owner: 'inst_A', expiresAt: T0 + 3000 };
      await store.createJob({ id: 'job_s', accountId: 'acct_1', env: 'sandbox', requestId: 'req_s', operation: 'search', platforms: ['airbnb', 'vrbo'], estimatedSeconds: 7, createdAt: T0, lease });
      expect(await store.getJob('job_s')).toMatchObject({
        status: 'pending',
        env: 'sandbox',
        owner: 'inst_A',
        leaseExpiresAt: T0 + 3000,
        platforms: ['airbnb', 'vrbo'],
        estimatedSeconds: 7,
        result: null,
        meta: null,
        error: null,
        expiresAt: null,
      });
      expect(await store.startJob('job_s', 'inst_B', T0 + 1)).toBe(false);
      expect(await store.startJob('job_s', 'inst_A', T0 + 1)).toBe(true);
      expect(await store.startJob('job_s', 'inst_A', T0 + 2)).toBe(false);
      expect(await store.getJob('job_s')).toMatchObject({ status: 'running', updatedAt: T0 + 1 });
      expect(await store.getJob('job_none')).toBeNull();
    });

    it('abandon fails only the caller’s own jobs and releases only its holds', async () => {
      const { store } = await setup();
      await startJob(store, 'job_c', 'inst_A', T0 + 3000);
      await startJob(store, 'job_d', 'inst_B', T0 + 3000, 25);
      // A hold with no job (a cache hit being settled) belongs to its owner too.
      await store.hold({ id: 'hold_x', accountId: 'acct_1', amount: 5, requestId: 'req_x', jobId: null, at: T0, freeTierBudget: null, lease: { owner: 'inst_A', expiresAt: T0 + 3000 } });
      expect(await store.abandon('inst_A', FAILED, T0 + 100, T0 + 86_400_000)).toEqual({ jobs: ['job_c'], holds: 2 });
      expect((await store.getJob('job_d'))!.status).toBe('running');
      expect(await store.getJob('job_c')).toMatchObject({ status: 'failed', error: FAILED, owner: null });
      expect(await store.getCredits('acct_1')).toMatchObject({ balance: 1000, held: 25 });
      expect(await store.settleHold('hold_x', 5, { requestId: 'req_x', jobId: null, at: T0 })).toBeNull();
      expect(await store.abandon('inst_A', FAILED, T0 + 200, T0 + 86_400_000)).toEqual({ jobs: [], holds: 0 });
    });

    it('an expired hold without a job is released by the sweep; its settlement then charges nothing', async () => {
      const { store } = await setup();
      await store.hold({ id: 'hold_y', accountId: 'acct_1', amount: 7, requestId: 'req_y', jobId: null, at: T0, freeTierBudget: null, lease: { owner: 'inst_A', expiresAt: T0 + 100 } });
      await store.hold({ id: 'hold_z', accountId: 'acct_1', amount: 3, requestId: 'req_z', jobId: null, at: T0, freeTierBudget: null, lease: { owner: 'inst_B', expiresAt: T0 + 500 } });
      expect(await store.failExpired(FAILED, T0 + 100, T0 + 86_400_000)).toEqual({ jobs: [], holds: 1 });
      expect(await store.getCredits('acct_1')).toMatchObject({ balance: 1000, held: 3 });
      expect(await store.settleHold('hold_y', 7, { requestId: 'req_y', jobId: null, at: T0 + 101 })).toBeNull();
      expect(await store.settleHold('hold_z', 2, { requestId: 'req_z', jobId: null, at: T0 + 101 })).toMatchObject({ balance: 998, held: 0, spent: 2 });
      expect((await store.ledger('acct_1')).filter((l) => l.kind === 'charge').map((l) => [l.amount, l.requestId])).toEqual([[-2, 'req_z']]);
    });

    it('a job created by a sandbox or live key records its environment', async () => {
      const { store } = await setup();
      await startJob(store, 'job_e', 'inst_A', T0 + 3000);
      expect((await store.getJob('job_e'))!.env).toBe('live');
    });

    // 250 jobs one by one: generous on a busy machine (a bound, not a measurement).
    it('purges finished jobs past expires_at and expired cache rows, at most one batch per call', { timeout: 120_000 }, async () => {
      const { store } = await setup();
      for (let i = 0; i < 250; i++) {
        const id = `job_${String(i).padStart(4, '0')}`;
        await startJob(store, id, 'inst_A', T0 + 3000, 1);
        // 230 ended long ago, 20 recently.
        expect(await store.finishJob(end(id, 'inst_A', 0, i < 230 ? T0 : T0 + 50_000))).toBe(true);
      }
      await startJob(store, 'job_live', 'inst_A', T0 + 3000, 1);
      for (let i = 0; i < 130; i++) await store.cacheSet(`k${i}`, { i }, T0, i < 120 ? T0 + 1000 : T0 + 100_000_000);
      const now = T0 + 86_400_000 + 1000;
      expect(await store.purgeExpired(now, 100)).toEqual({ jobs: 100, cache: 100, webhooks: 0, observations: 0, watches: 0 });
      expect(await store.purgeExpired(now, 100)).toEqual({ jobs: 100, cache: 20, webhooks: 0, observations: 0, watches: 0 });
      expect(await store.purgeExpired(now, 100)).toEqual({ jobs: 30, cache: 0, webhooks: 0, observations: 0, watches: 0 });
      expect(await store.purgeExpired(now, 100)).toEqual({ jobs: 0, cache: 0, webhooks: 0, observations: 0, watches: 0 });
      expect(await store.getJob('job_0000')).toBeNull();
      expect(await store.getJob('job_0240')).not.toBeNull();
      // A running job has no expiry yet, whatever its age.
      expect(await store.getJob('job_live')).toMatchObject({ status: 'running' });
      expect(await store.cacheGet('k125', now)).not.toBeNull();
    });
  });
}

/** The tests only SQLite has (its files and migrations), run by leases.inprocess.test.ts. */
export function sqliteOnly(): void {
  describe('SQLite files', () => {
    const stores: Store[] = [];
    afterEach(async () => {
      for (const s of stores.splice(0)) await s.close();
    });

    it('creates the data directory 0700 and the database files 0600', async () => {
      const dir = join(tempDir(), 'fresh', 'data');
      const file = join(dir, 'stays.db');
      const store = openSqliteStore(file);
      stores.push(store);
      await store.cacheSet('k', { v: 1 }, T0, T0 + 1000);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(statSync(f).mode & 0o777, f).toBe(0o600);
    });
  });
}
