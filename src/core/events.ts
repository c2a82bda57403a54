// Webhook events (spec "Events", issue 10): what each one's data carries, in Family S style
// (snake_case), and the one way operations fire them: after the store write that made them true,
// without waiting for them to be queued, and never failing or slowing the call (the hub reports
// its own errors).
import type { Services } from './context.js';
import type { KeyEnv } from './ids.js';
import { staysId } from './listing-ref.js';
import type { Platform } from './platforms.js';
import { pollUrl } from './poll-url.js';

export interface JobFacts {
  id: string;
  accountId: string;
  /** The environment of the key that created the job: its events reach that environment's webhooks only. */
  env: KeyEnv;
  operation: string;
  platforms: string[];
  createdAt: number;
}

interface JobError {
  type: string;
  code: string;
  message: string;
  retryable: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString();

function jobData(job: JobFacts, status: string): Record<string, unknown> {
  return { job_id: job.id, status, operation: job.operation, platforms: job.platforms, poll_url: pollUrl(job.id), created_at: iso(job.createdAt) };
}

/** job.queued (accepted), job.running (started) or job.succeeded (its result is ready). */
export function emitJob(s: Services, event: 'job.queued' | 'job.running' | 'job.succeeded', job: JobFacts): void {
  const status = event === 'job.queued' ? 'pending' : event === 'job.running' ? 'running' : 'completed';
  void s.webhooks.emit(job, event, jobData(job, status));
}

/** job.failed, with the error a poll of the job shows. */
export function emitJobFailed(s: Services, job: JobFacts, error: unknown): void {
  const e = (error ?? {}) as Partial<JobError>;
  const shown: JobError = { type: e.type ?? 'internal_error', code: e.code ?? 'internal_error', message: e.message ?? 'The job failed.', retryable: e.retryable ?? false };
  void s.webhooks.emit(job, 'job.failed', { ...jobData(job, 'failed'), error: shown });
}

/** Jobs failed in bulk (their owner stopped, or this process is shutting down): job.failed for each. */
export async function emitJobsFailed(s: Services, jobIds: string[]): Promise<void> {
  for (const id of jobIds) {
    try {
      const job = await s.store.getJob(id);
      if (job && job.status === 'failed') emitJobFailed(s, job, job.error);
    } catch {
      // An event is never worth failing the sweep or the shutdown for.
    }
  }
}

/** stay.cached: a live lookup refreshed a listing in the cache until `expiresAt` (to the caller's environment's webhooks). */
export function emitStayCached(s: Services, owner: { accountId: string; env: KeyEnv }, stay: { platform: Platform; id: string }, expiresAt: number): void {
  void s.webhooks.emit(owner, 'stay.cached', { platform: stay.platform, id: stay.id, stays_id: staysId(stay.platform, stay.id), cache_expires_at: iso(expiresAt) });
}
