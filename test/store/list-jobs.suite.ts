// The store's job list on every store (SQLite and PostgreSQL), and a completed job by its request id: order (time, then id), the
// position a page resumes from, account/environment/status/expiry filters, the charge read from
// the result's meta; and SQLite's migration 4 applied to a store made before it.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import type { JobListQuery, Store } from '../../src/core/ports/store.js';
import { tempDir } from '../helpers/stays.js';
import { addAccount, backings, DAY, T0, type StoreKind } from './stores.js';
import { migrationsFor } from '../../src/store/sql/migrations.js';

const MIGRATIONS = migrationsFor('sqlite');

/** A job created at `at`; finished (charging `charge`) or failed when asked. */
async function job(store: Store, o: { id: string; at: number; account?: string; env?: 'live' | 'sandbox'; end?: 'completed' | 'failed'; charge?: number }) {
  const lease = { owner: 'p1', expiresAt: o.at + 60_000 };
  const accountId = o.account ?? 'acct_1';
  expect((await store.hold({ id: `hold_${o.id}`, accountId, amount: 50, requestId: `req_${o.id}`, jobId: o.id, at: o.at, freeTierBudget: null, lease })).ok).toBe(true);
  await store.createJob({ id: o.id, accountId, env: o.env ?? 'live', requestId: `req_${o.id}`, operation: 'search', platforms: ['airbnb', 'vrbo'], estimatedSeconds: 3, createdAt: o.at, lease });
  if (!o.end) return;
  const charge = o.end === 'completed' ? (o.charge ?? 0) : 0;
  const ended = await store.finishJob({
    jobId: o.id,
    owner: 'p1',
    holdId: `hold_${o.id}`,
    charge,
    requestId: `req_${o.id}`,
    status: o.end,
    ...(o.end === 'completed'
      ? { result: [{ big: 'x'.repeat(10_000) }], meta: { creditsCharged: charge } }
      : { error: { type: 'upstream_unavailable', code: 'all_actors_failed', message: 'no', retryable: true } }),
    at: o.at + 1000,
    expiresAt: o.at + 1000 + DAY,
  });
  expect(ended).toBe(true);
}

const q = (over: Partial<JobListQuery> = {}): JobListQuery => ({ accountId: 'acct_1', env: 'live', status: null, after: null, limit: 50, now: T0 + 10_000, ...over });
const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

// Valid job ids in increasing order (ULID alphabet).
const J = (n: number) => `job_01M84H5WC2HSH4AFBTQXK94G${String.fromCharCode(65 + n)}${n}`.slice(0, 30);

/** The suite on one store: list-jobs.inprocess.test.ts runs it on SQLite, list-jobs.pg.test.ts (e2e) on PostgreSQL. */
export function suite(kind: StoreKind): void {
  describe.skipIf(!kind.available)(`${kind.name} store: listJobs`, () => {
    const dbs = backings(kind);
    afterEach(() => dbs.cleanup());

    async function open() {
      const store = (await dbs.fresh()).open();
      for (const id of ['acct_1', 'acct_2']) await addAccount(store, id, 1000);
      return store;
    }

    it('newest first, the same instant by id descending; a page resumes after a position', async () => {
      const store = await open();
      await job(store, { id: J(1), at: T0 });
      await job(store, { id: J(2), at: T0 + 5 });
      await job(store, { id: J(3), at: T0 + 5 });
      await job(store, { id: J(4), at: T0 + 9 });
      expect(ids(await store.listJobs(q()))).toEqual([J(4), J(3), J(2), J(1)]);
      expect(ids(await store.listJobs(q({ limit: 2 })))).toEqual([J(4), J(3)]);
      expect(ids(await store.listJobs(q({ after: { createdAt: T0 + 5, id: J(3) } })))).toEqual([J(2), J(1)]);
      expect(ids(await store.listJobs(q({ after: { createdAt: T0 + 5, id: J(2) } })))).toEqual([J(1)]);
      expect(ids(await store.listJobs(q({ after: { createdAt: T0, id: J(1) } })))).toEqual([]);
    });

    it("a completed job by its account and request id, with its answer; not another account's, not one still running or failed", async () => {
      const store = await open();
      await job(store, { id: J(1), at: T0, end: 'completed', charge: 31 });
      await job(store, { id: J(2), at: T0 + 1, end: 'failed' });
      await job(store, { id: J(3), at: T0 + 2 });
      const done = await store.completedJobOf('acct_1', `req_${J(1)}`);
      expect(done).toMatchObject({ id: J(1), status: 'completed', meta: { creditsCharged: 31 } });
      expect(done!.result).toEqual([{ big: 'x'.repeat(10_000) }]);
      expect(await store.completedJobOf('acct_2', `req_${J(1)}`)).toBeNull();
      expect(await store.completedJobOf('acct_1', `req_${J(2)}`)).toBeNull();
      expect(await store.completedJobOf('acct_1', `req_${J(3)}`)).toBeNull();
    });

    it('only the account and environment asked; status filters; expired jobs are gone', async () => {
      const store = await open();
      await job(store, { id: J(1), at: T0, end: 'completed', charge: 31 });
      await job(store, { id: J(2), at: T0 + 1, end: 'failed' });
      await job(store, { id: J(3), at: T0 + 2 });
      await job(store, { id: J(4), at: T0 + 3, env: 'sandbox' });
      await job(store, { id: J(5), at: T0 + 4, account: 'acct_2' });
      expect(ids(await store.listJobs(q()))).toEqual([J(3), J(2), J(1)]);
      expect(ids(await store.listJobs(q({ env: 'sandbox' })))).toEqual([J(4)]);
      expect(ids(await store.listJobs(q({ accountId: 'acct_2' })))).toEqual([J(5)]);
      expect(ids(await store.listJobs(q({ status: 'failed' })))).toEqual([J(2)]);
      expect(ids(await store.listJobs(q({ status: 'pending' })))).toEqual([J(3)]);
      // Finished jobs expire a day after they end; an unfinished one has no expiry.
      expect(ids(await store.listJobs(q({ now: T0 + 1001 + DAY })))).toEqual([J(3)]);
    });

    it('carries the charge from the result meta and never the result', async () => {
      const store = await open();
      await job(store, { id: J(1), at: T0, end: 'completed', charge: 31 });
      await job(store, { id: J(2), at: T0 + 1, end: 'failed' });
      await job(store, { id: J(3), at: T0 + 2 });
      const [running, failed, done] = await store.listJobs(q());
      expect(done).toMatchObject({ id: J(1), status: 'completed', creditsCharged: 31, operation: 'search', platforms: ['airbnb', 'vrbo'], env: 'live', createdAt: T0, updatedAt: T0 + 1000 });
      expect(failed).toMatchObject({ status: 'failed', creditsCharged: 0, error: { code: 'all_actors_failed' } });
      expect(running).toMatchObject({ status: 'pending', creditsCharged: 0, error: null });
      for (const r of [running, failed, done]) {
        expect(r).not.toHaveProperty('result');
        expect(r).not.toHaveProperty('meta');
      }
    });
  });
}

/** The tests only SQLite has (its files and migrations), run by list-jobs.inprocess.test.ts. */
export function sqliteOnly(): void {
  describe('SQLite migrations', () => {
    const stores: Store[] = [];
    afterEach(async () => {
      for (const s of stores.splice(0)) await s.close();
    });

    it('migration 4 adds its index to a store made before it, which keeps its jobs', async () => {
      const file = join(tempDir(), 'stays.db');
      const db = new Database(file);
      for (const m of MIGRATIONS.slice(0, 3)) db.exec(m);
      db.pragma('user_version = 3');
      db.exec(`INSERT INTO accounts (id, plan_code, plan_name, plan_status, requests_per_minute, free_tier_budget, created_at) VALUES ('acct_1', 'pro', 'Pro', 'active', 300, 300, ${T0})`);
      db.exec(
        `INSERT INTO jobs (id, account_id, request_id, operation, status, platforms, created_at, updated_at) VALUES ('${J(1)}', 'acct_1', 'req_1', 'price', 'pending', '["airbnb"]', ${T0}, ${T0})`,
      );
      db.close();
      const store = openSqliteStore(file);
      stores.push(store);
      expect(ids(await store.listJobs(q()))).toEqual([J(1)]);
      await store.close();
      const after = new Database(file, { readonly: true });
      expect(after.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
      expect(after.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'jobs_account_created'`).pluck().get()).toBe('jobs_account_created');
      const plan = after.prepare(`EXPLAIN QUERY PLAN SELECT id FROM jobs WHERE account_id = 'a' AND env = 'live' ORDER BY created_at DESC, id DESC`).all() as { detail: string }[];
      expect(plan.map((p) => p.detail).join(' ')).toMatch(/jobs_account_created/);
      after.close();
    });
  });
}
