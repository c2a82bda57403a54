// The lease a job or hold is created with (its owner renews it while the work runs; jobs/leases.ts
// runs the heartbeat and the sweeps), the row a new job is created with, and how long a finished
// job is kept.
import type { RequestContext, Services } from './context.js';
import type { JobFacts } from './events.js';
import type { Lease, NewJob } from './ports/store.js';

/** How long a finished job is kept (D18: 24 hours after it ends). */
export const JOB_RETENTION_MS = 24 * 3_600_000;

export function leaseFor(s: Services): Lease {
  return { owner: s.jobs.owner, expiresAt: s.clock.now() + s.config.jobLeaseMs };
}

/** A new job of this call, owned by this process, and what its events say of it. */
export function newJob(s: Services, ctx: RequestContext, o: { id: string; operation: string; platforms: string[]; estimatedSeconds: number; now: number }): { row: NewJob; facts: JobFacts } {
  const facts: JobFacts = { id: o.id, accountId: ctx.account.id, env: ctx.key.env, operation: o.operation, platforms: o.platforms, createdAt: o.now };
  return { facts, row: { ...facts, requestId: ctx.requestId, estimatedSeconds: o.estimatedSeconds, lease: leaseFor(s) } };
}
