// Jobs, the leases of work in flight, and the sweeps that end what a dead process left. Part of the
// store port (../store.ts).
import type { KeyEnv } from '../../ids.js';

export interface JobRow {
  id: string;
  accountId: string;
  /** The environment of the key that created it; only keys of that environment see it. */
  env: KeyEnv;
  requestId: string;
  operation: string;
  status: 'pending' | 'running' | 'completed' | 'failed';
  platforms: string[];
  result: unknown;
  meta: unknown;
  error: unknown;
  estimatedSeconds: number;
  createdAt: number;
  updatedAt: number;
  expiresAt: number | null;
  /** The process running it (while pending or running). */
  owner: string | null;
  leaseExpiresAt: number;
}

/** Who owns work in flight, and until when without a renewal. */
export interface Lease {
  owner: string;
  expiresAt: number;
}

/** The ids of a process's work in flight: jobs it runs, credit holds it will settle, flights it leads. */
export interface LiveWork {
  jobs: readonly string[];
  holds: readonly string[];
  flights: readonly string[];
}

export interface NewJob {
  id: string;
  accountId: string;
  env: KeyEnv;
  requestId: string;
  operation: string;
  platforms: string[];
  estimatedSeconds: number;
  createdAt: number;
  lease: Lease;
}

/** How a job ends: its hold settled for `charge` and the job recorded, in one transaction. */
export interface JobEnd {
  jobId: string;
  owner: string;
  holdId: string;
  charge: number;
  requestId: string;
  status: 'completed' | 'failed';
  result?: unknown;
  meta?: unknown;
  error?: unknown;
  at: number;
  /** When the finished job is deleted (D18: 24 hours after it ends). */
  expiresAt: number;
}

/** A job as a list shows it: without its result and meta, with what it charged. */
export interface JobSummaryRow extends Omit<JobRow, 'result' | 'meta'> {
  /** Its result meta's creditsCharged when completed, else 0. */
  creditsCharged: number;
}

export interface JobListQuery {
  accountId: string;
  env: KeyEnv;
  status: JobRow['status'] | null;
  /** Only jobs after this one in the list's order (created before it; the same instant, a lower id). */
  after: { createdAt: number; id: string } | null;
  limit: number;
  /** Jobs past their expiry are left out (D18: gone after 24 hours). */
  now: number;
}

export interface Purged {
  jobs: number;
  cache: number;
  /** Finished outbox rows and attempt-log rows past WEBHOOK_LOG_RETENTION_MS. */
  webhooks: number;
  /** Observations last seen before the history's retention (issue 26). */
  observations: number;
  /** Watch events past WATCH_EVENT_RETENTION_MS, and watches a deletion left marked deleted with their events (issue 35). */
  watches: number;
}

export interface JobStore {
  createJob(j: NewJob): Promise<void>;
  /** pending → running, if `owner` still owns the job; false otherwise. */
  startJob(id: string, owner: string, at: number): Promise<boolean>;
  /** Settles the job's hold and records its end, if `owner` still owns it (else changes nothing and returns false). */
  finishJob(end: JobEnd): Promise<boolean>;
  getJob(id: string): Promise<JobRow | null>;
  /** The account's completed job made under this request id (its answer, written with its charge), or null. */
  completedJobOf(accountId: string, requestId: string): Promise<JobRow | null>;
  /** An account's unexpired jobs in one environment, newest first (created_at, then id, descending). */
  listJobs(q: JobListQuery): Promise<JobSummaryRow[]>;
  /**
   * The heartbeat: extends the leases of `owner`'s work that is actually running in its process
   * (`live`), and nothing else: a job or hold whose process lost track of it (a write that failed
   * while the database was away) expires and is failed or released by whichever process sweeps.
   */
  renewLeases(owner: string, until: number, live: LiveWork): Promise<void>;
  /**
   * Fails (with `error`) every unfinished job whose lease expired before `now`, and releases its
   * hold and every other hold whose lease expired, charging nothing. Returns the failed job ids.
   */
  failExpired(error: unknown, now: number, retainUntil: number): Promise<{ jobs: string[]; holds: number }>;
  /**
   * Cancels job `id` (issue 22) if it is still pending or running: it ends failed with `error` and
   * its hold is released, charging nothing, in one transaction. Its owner no longer owns it, so the
   * owner's later finishJob changes nothing: an upstream answer that arrives after is never charged.
   * False when the job had already ended (or does not exist).
   */
  cancelJob(id: string, error: unknown, now: number, retainUntil: number): Promise<boolean>;
  /** Shutdown: fails `owner`'s unfinished jobs with `error` and releases all of its holds, charging nothing. */
  abandon(owner: string, error: unknown, now: number, retainUntil: number): Promise<{ jobs: string[]; holds: number }>;
  /**
   * Deletes at most `batch` finished jobs past their expiry, `batch` expired cache rows, and
   * `batch` ended webhook deliveries and log rows older than WEBHOOK_LOG_RETENTION_MS; also expired
   * OAuth codes and tokens, OAuth clients older than UNUSED_OAUTH_CLIENT_RETENTION_MS that never
   * got a grant and have no code, (not counted) `batch` expired idempotency keys, and with
   * `observationsBefore`, `batch` observations last seen before it.
   */
  purgeExpired(now: number, batch: number, o?: { observationsBefore?: number }): Promise<Purged>;
}
