// Ownership of work in flight across processes sharing one store. Each process (a server, an
// in-process CLI command) has an instance id; every job and credit hold it creates carries that
// owner and a lease. While the process lives, a heartbeat renews its leases every third of the
// lease time. Any process may fail a job whose lease expired (its owner died or hung), releasing
// its hold; no process touches a job whose lease is current. The store makes a job's settlement
// conditional on still owning it, so a job is never both settled and failed.
import { DAY_MS } from '../core/clock.js';
import type { Services } from '../core/context.js';
import { emitJobsFailed } from '../core/events.js';
import { JOB_RETENTION_MS } from '../core/lease.js';
import type { Purged } from '../core/ports/store.js';

/** Rows deleted per statement by the expiry sweep, so one sweep never holds the write lock long. */
const PURGE_BATCH = 500;

/** How often leases are renewed and expired ones looked for: a third of the lease, so two missed beats are survivable. */
const beatMs = (s: Services) => Math.max(100, Math.floor(s.config.jobLeaseMs / 3));

const failure = (message: string) => ({ type: 'upstream_unavailable', code: 'upstream_degraded', message, retryable: true });

export const STOPPED_OWNER = failure('The process running this job stopped before it finished; nothing was charged. Retry the request.');
export const SERVER_SHUTDOWN = failure('The server shut down before this job finished; nothing was charged. Retry the request.');
export const CLI_EXITED = failure('The stays command that ran this job in-process exited before it finished; nothing was charged. Retry the request.');

/** Fails jobs (and releases holds) whose owner stopped renewing them; each is a job.failed event. */
export async function failExpired(s: Services) {
  const now = s.clock.now();
  const r = await s.store.failExpired(STOPPED_OWNER, now, now + JOB_RETENTION_MS);
  if (r.jobs.length > 0) await emitJobsFailed(s, r.jobs);
  return r;
}

/** This process gives up its unfinished jobs: failed retryable, holds released, nothing charged; each is a job.failed event. */
export async function abandonOwn(s: Services, error: ReturnType<typeof failure>) {
  const now = s.clock.now();
  const r = await s.store.abandon(s.jobs.owner, error, now, now + JOB_RETENTION_MS);
  if (r.jobs.length > 0) await emitJobsFailed(s, r.jobs);
  return r;
}

/** Deletes jobs past their 24 hours, expired cache rows, old webhook deliveries, observations past STAYS_HISTORY_DAYS and watch events past their retention, batch by batch, at most `maxBatches` of each. */
export async function purgeExpired(s: Services, maxBatches = 20): Promise<Purged> {
  const total: Purged = { jobs: 0, cache: 0, webhooks: 0, observations: 0, watches: 0 };
  for (let i = 0; i < maxBatches; i++) {
    const now = s.clock.now();
    const p = await s.store.purgeExpired(now, PURGE_BATCH, { observationsBefore: now - s.config.historyDays * DAY_MS });
    total.jobs += p.jobs;
    total.cache += p.cache;
    total.webhooks += p.webhooks;
    total.observations += p.observations;
    total.watches += p.watches;
    if (p.jobs < PURGE_BATCH && p.cache < PURGE_BATCH && p.webhooks < PURGE_BATCH && p.observations < PURGE_BATCH && p.watches < PURGE_BATCH) break;
    // Let requests in between batches.
    await new Promise((r) => setImmediate(r));
  }
  return total;
}

export interface Timer {
  stop(): void;
}

/** Every `beatMs`, unref'd (it never keeps a process alive), never two runs at once. */
function every(s: Services, f: () => Promise<void>): Timer {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void f().finally(() => (busy = false));
  }, beatMs(s));
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

const renewOwn = (s: Services) => s.store.renewLeases(s.jobs.owner, s.clock.now() + s.config.jobLeaseMs, s.jobs.live());

/** The heartbeat of every process that runs jobs: renews the leases of the jobs, holds and flights in flight in it. */
export function startHeartbeat(s: Services, onError: (e: unknown) => void): Timer {
  return every(s, () => renewOwn(s).catch(onError));
}

/** A server's sweep: fails jobs whose lease expired, then deletes expired jobs and cache rows. */
export function startSweeper(s: Services, opts: { onError(e: unknown): void; onSwept(r: { jobs: string[]; holds: number }, p: Purged): void }): Timer {
  return every(s, async () => {
    try {
      // Own work first: after the database was away longer than a lease, this process's running
      // jobs must not be taken for a dead process's by its own sweep.
      await renewOwn(s);
      const r = await failExpired(s);
      opts.onSwept(r, await purgeExpired(s));
    } catch (e) {
      opts.onError(e);
    }
  });
}
