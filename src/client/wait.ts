// Waiting on a 202 job (D17/D18): poll GET /v1/jobs/{id} after the server's Retry-After, capped so
// a long hint never makes the client look hung, with exponential back-off when no hint is given,
// until completed (the synchronous call's envelope), failed (a typed error) or the deadline.
import { StaysApiError, StaysWaitTimeoutError } from './errors.js';
import { type Send, parseJson, retryAfterMs, toApiError } from './http.js';
import type { Envelope, JobEnvelope, RawResponse, WaitEvent } from './types.js';

/** Longest pause between two polls, whatever Retry-After says. */
export const MAX_POLL_INTERVAL_MS = 15_000;
/** Shortest pause, so `Retry-After: 0` does not become a busy loop. */
export const MIN_POLL_INTERVAL_MS = 200;

export interface WaitOptions {
  send: Send;
  deadline: number;
  timeoutMs: number;
  signal?: AbortSignal;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  onWait?: (e: WaitEvent) => void;
}

/** A pause that ends early, rejecting with the signal's reason, when the signal aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)), { once: true });
  });
}

/** The pause before the next poll: the server's hint, else 1, 2, 4, 8, 16 s; clamped to [MIN_POLL_INTERVAL_MS, max]. */
function pollDelay(hintMs: number | null, polls: number, max = MAX_POLL_INTERVAL_MS): number {
  return Math.min(max, Math.max(MIN_POLL_INTERVAL_MS, hintMs ?? 1000 * 2 ** Math.min(polls, 4)));
}

export function isJobEnvelope(body: unknown): body is JobEnvelope {
  const d = (body as { data?: { jobId?: unknown; status?: unknown } } | null)?.data;
  return typeof d?.jobId === 'string' && typeof d.status === 'string';
}

/** Turns a finished job poll into the synchronous call's envelope, or throws its error. */
export function settleJob<T>(job: JobEnvelope): Envelope<T> | null {
  const { data, meta } = job;
  if (data.status === 'completed') return { data: data.result as T, meta: meta as Envelope<T>['meta'] };
  if (data.status === 'failed') {
    const e = data.error ?? { type: 'internal_error', code: 'internal_error', message: `Job ${data.jobId} failed without an error.` };
    throw new StaysApiError({ ...e, requestId: e.requestId ?? meta.requestId }, 200, data.jobId);
  }
  return null;
}

/** Whether a job has yet to end. */
export const jobRunning = (job: JobEnvelope): boolean => job.data.status === 'pending' || job.data.status === 'running';

export interface PollLoop {
  deadline: number;
  signal?: AbortSignal;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Reads the job again: its body and the answer's Retry-After. */
  poll(jobId: string): Promise<{ job: JobEnvelope; retryAfterMs: number | null }>;
  /** Told before each pause (spinners, MCP progress). */
  onWait?(job: JobEnvelope, elapsedMs: number): void | Promise<void>;
  /** Longest pause between two polls (default MAX_POLL_INTERVAL_MS). */
  maxIntervalMs?: number;
  /** The clock (tests inject one). */
  now?: () => number;
}

/**
 * The one job-wait loop (the CLI's and the MCP tools'): polls after the server's Retry-After,
 * clamped, with exponential back-off when no hint is given, until the job ends or the deadline
 * passes; the last body seen.
 */
export async function pollJobUntil(first: JobEnvelope, firstRetryAfterMs: number | null, o: PollLoop): Promise<JobEnvelope> {
  const now = o.now ?? Date.now;
  const started = now();
  const max = o.maxIntervalMs ?? MAX_POLL_INTERVAL_MS;
  let job = first;
  let hint = firstRetryAfterMs;
  for (let polls = 0; jobRunning(job); polls++) {
    await o.onWait?.(job, now() - started);
    const remaining = o.deadline - now();
    if (remaining <= 0) break;
    await o.sleep(Math.min(pollDelay(hint, polls, max), remaining), o.signal);
    ({ job, retryAfterMs: hint } = await o.poll(job.data.jobId));
  }
  return job;
}

/** Waits for the job a 202 (or a previous poll) described; `first` is that response. */
export async function waitForJob<T>(first: RawResponse, o: WaitOptions): Promise<Envelope<T>> {
  const job = await pollJobUntil(parseJson(first, 'The service') as JobEnvelope, retryAfterMs(first.headers), {
    deadline: o.deadline,
    signal: o.signal,
    sleep: o.sleep,
    onWait: (j, elapsedMs) => o.onWait?.({ jobId: j.data.jobId, status: j.data.status, elapsedMs }),
    async poll(jobId) {
      const res = await o.send({ method: 'GET', path: `/v1/jobs/${encodeURIComponent(jobId)}` }, { deadline: o.deadline, signal: o.signal });
      if (res.status !== 200) throw withJob(toApiError(res, 'The service'), jobId);
      const next = parseJson(res, 'The service');
      if (!isJobEnvelope(next)) throw new StaysApiError({ type: 'internal_error', code: 'internal_error', message: `Unexpected job poll answer for ${jobId}.` }, res.status, jobId);
      return { job: next, retryAfterMs: retryAfterMs(res.headers) };
    },
  });
  const done = settleJob<T>(job);
  if (done) return done;
  throw new StaysWaitTimeoutError(job.data.jobId, job.data.status, Math.round(o.timeoutMs / 1000));
}

function withJob(e: StaysApiError, jobId: string): StaysApiError {
  return new StaysApiError(e.toJSON().error, e.status, jobId);
}
