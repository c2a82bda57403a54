// Jobs and the leases of work in flight (src/core/ports/store.ts explains the ownership model):
// a job ends only while its owner still holds it, and an expired lease lets any process fail the
// job and release its hold, charging nothing.
import type { LiveWork, JobStore } from '../../core/ports/store.js';
import { toJob, toJobSummary } from '../rows.js';
import type { CreditOps } from './credits.js';
import { type Db, type Query, jsonText } from './db.js';

/** Lock ids of work one process does at a time over a shared database (Dialect.lock). */
export const LOCK = { sweep: 7_361_002, deliveries: 7_361_003, purge: 7_361_004, registration: 7_361_005, observations: 7_361_006 } as const;

/** What a shared store adds to the heartbeat and to shutdown (PostgreSQL: its flights). */
export interface LeaseHooks {
  renew?(q: Query, owner: string, until: number, live: LiveWork): Promise<void>;
  abandon?(q: Query, owner: string): Promise<void>;
}

export function jobStore(db: Db, credits: CreditOps, hooks: LeaseHooks = {}): Omit<JobStore, 'purgeExpired'> {
  /**
   * The job list (newest first, paged by created_at then id; see jobs_account_created): never the
   * result column, which can be large; a completed job's charge is its meta's creditsCharged.
   */
  const list = `SELECT id, account_id, env, request_id, operation, status, platforms, error, estimated_seconds, created_at, updated_at, expires_at, owner, lease_expires_at,
    CASE WHEN status = 'completed' THEN COALESCE(${db.sql.jsonInt('meta', 'creditsCharged')}, 0) ELSE 0 END AS credits_charged
    FROM jobs WHERE account_id = $1 AND env = $2 AND (CAST($3 AS TEXT) IS NULL OR status = $3) AND (expires_at IS NULL OR expires_at > $4)`;
  const firstPage = `${list} ORDER BY created_at DESC, id DESC LIMIT $5`;
  const nextPage = `${list} AND (created_at, id) < ($5, $6) ORDER BY created_at DESC, id DESC LIMIT $7`;

  /** Deletes the holds and gives their amounts back to `held`, account by account in id order (no deadlocks between sweeps). */
  const releaseHolds = async (q: Query, where: string, params: unknown[]): Promise<number> => {
    const rows = await q(`DELETE FROM credit_holds WHERE ${where} RETURNING account_id, amount`, params);
    const by = new Map<string, number>();
    for (const r of rows) by.set(r.account_id as string, (by.get(r.account_id as string) ?? 0) + (r.amount as number));
    for (const id of [...by.keys()].sort()) await q(`UPDATE credit_balances SET held = held - $1 WHERE account_id = $2`, [by.get(id), id]);
    return rows.length;
  };

  /** Fails the unfinished jobs `where` says with `error` and releases their holds, charging nothing. */
  const failJobs = async (q: Query, where: string, params: unknown[], error: string, at: number, expiresAt: number) => {
    const n = params.length;
    const jobs = (
      await q(
        `UPDATE jobs SET status = 'failed', result = NULL, meta = NULL, error = $${n + 1}, updated_at = $${n + 2}, expires_at = $${n + 3}, owner = NULL
         WHERE status IN ('pending', 'running') AND ${where} RETURNING id`,
        [...params, error, at, expiresAt],
      )
    ).map((r) => r.id as string);
    const holds = jobs.length === 0 ? 0 : await releaseHolds(q, db.sql.inJsonList('job_id', '$1'), [JSON.stringify(jobs)]);
    return { jobs, holds };
  };

  return {
    async createJob(j) {
      await db.query(
        `INSERT INTO jobs (id, account_id, env, request_id, operation, status, platforms, estimated_seconds, created_at, updated_at, owner, lease_expires_at)
         VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7, $8, $8, $9, $10)`,
        [j.id, j.accountId, j.env, j.requestId, j.operation, JSON.stringify(j.platforms), j.estimatedSeconds, j.createdAt, j.lease.owner, j.lease.expiresAt],
      );
    },
    async startJob(id, owner, at) {
      return (await db.query(`UPDATE jobs SET status = 'running', updated_at = $1 WHERE id = $2 AND owner = $3 AND status = 'pending' RETURNING id`, [at, id, owner])).length === 1;
    },
    async finishJob(e) {
      return db.tx(
        async (q) => {
          // The job's end first (its row locked, if this owner still has it), the settlement last:
          // the account's balance row is then locked only until the COMMIT that follows.
          const owned = await q(
            `UPDATE jobs SET status = $3, result = $4, meta = $5, error = $6, updated_at = $7, expires_at = $8, owner = NULL
             WHERE id = $1 AND owner = $2 AND status IN ('pending', 'running') RETURNING 1`,
            [e.jobId, e.owner, e.status, jsonText(e.result), jsonText(e.meta), jsonText(e.error), e.at, e.expiresAt],
          );
          if (owned.length === 0) return false;
          // The job's row is ours: its hold cannot have been released by a sweep, so a missing hold is a bug, not a race.
          if ((await credits.settle(q, e.holdId, e.charge, { requestId: e.requestId, jobId: e.jobId, at: e.at }, false)) === null) throw new Error(`job ${e.jobId} has no hold ${e.holdId}`);
          return true;
        },
        { must: true },
      );
    },
    async getJob(id) {
      const r = (await db.query(`SELECT * FROM jobs WHERE id = $1`, [id]))[0];
      return r ? toJob(r) : null;
    },
    async completedJobOf(accountId, requestId) {
      const r = (await db.query(`SELECT * FROM jobs WHERE account_id = $1 AND request_id = $2 AND status = 'completed' ORDER BY created_at DESC LIMIT 1`, [accountId, requestId]))[0];
      return r ? toJob(r) : null;
    },
    async listJobs(l) {
      const base = [l.accountId, l.env, l.status, l.now];
      const rows = l.after === null ? await db.query(firstPage, [...base, l.limit]) : await db.query(nextPage, [...base, l.after.createdAt, l.after.id, l.limit]);
      return rows.map(toJobSummary);
    },
    async renewLeases(owner, until, live) {
      if (live.jobs.length + live.holds.length + live.flights.length === 0) return;
      await db.tx(
        async (q) => {
          if (live.jobs.length > 0) {
            await q(`UPDATE jobs SET lease_expires_at = $1 WHERE owner = $2 AND status IN ('pending', 'running') AND ${db.sql.inJsonList('id', '$3')}`, [until, owner, JSON.stringify(live.jobs)]);
          }
          if (live.holds.length > 0) await q(`UPDATE credit_holds SET lease_expires_at = $1 WHERE owner = $2 AND ${db.sql.inJsonList('id', '$3')}`, [until, owner, JSON.stringify(live.holds)]);
          await hooks.renew?.(q, owner, until, live);
        },
        { background: true },
      );
    },
    async failExpired(error, now, retainUntil) {
      return db.tx(
        async (q) => {
          // One sweeper at a time; the others find nothing left to do.
          if (!(await db.sql.lock(q, LOCK.sweep, { tryOnly: true }))) return { jobs: [], holds: 0 };
          const r = await failJobs(q, 'lease_expires_at <= $1', [now], JSON.stringify(error), now, retainUntil);
          return { jobs: r.jobs, holds: r.holds + (await releaseHolds(q, 'lease_expires_at <= $1', [now])) };
        },
        { background: true },
      );
    },
    async cancelJob(id, error, now, retainUntil) {
      // failJobs takes the row lock: a finishJob of its owner either committed first (then the job
      // is no longer pending or running and nothing changes here) or finds it ended.
      return db.tx(async (q) => (await failJobs(q, 'id = $1', [id], JSON.stringify(error), now, retainUntil)).jobs.length === 1, { must: true });
    },
    async abandon(owner, error, now, retainUntil) {
      return db.tx(
        async (q) => {
          const r = await failJobs(q, 'owner = $1', [owner], JSON.stringify(error), now, retainUntil);
          await hooks.abandon?.(q, owner);
          return { jobs: r.jobs, holds: r.holds + (await releaseHolds(q, 'owner = $1', [owner])) };
        },
        { background: true },
      );
    },
  };
}
