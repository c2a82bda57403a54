// The lease a job or hold is created with (its owner renews it while the work runs; jobs/leases.ts
// runs the heartbeat and the sweeps), and how long a finished job is kept.
import type { Services } from './context.js';
import type { Lease } from './ports/store.js';

/** How long a finished job is kept (D18: 24 hours after it ends). */
export const JOB_RETENTION_MS = 24 * 3_600_000;

export function leaseFor(s: Services): Lease {
  return { owner: s.jobs.owner, expiresAt: s.clock.now() + s.config.jobLeaseMs };
}
