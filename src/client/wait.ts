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

export function pollDelayMs(res: RawResponse, polls: number): number {
  const hinted = retryAfterMs(res.headers);
  const fallback = 1000 * 2 ** Math.min(polls, 4);
  return Math.min(MAX_POLL_INTERVAL_MS, Math.max(MIN_POLL_INTERVAL_MS, hinted ?? fallback));
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

/** Waits for the job a 202 (or a previous poll) described; `first` is that response. */
export async function waitForJob<T>(first: RawResponse, o: WaitOptions): Promise<Envelope<T>> {
  const started = Date.now();
  let res = first;
  let job = parseJson(res, 'The service') as JobEnvelope;
  const jobId = job.data.jobId;
  for (let polls = 0; ; polls++) {
    const done = settleJob<T>(job);
    if (done) return done;
    o.onWait?.({ jobId, status: job.data.status, elapsedMs: Date.now() - started });
    const remaining = o.deadline - Date.now();
    if (remaining <= 0) throw new StaysWaitTimeoutError(jobId, job.data.status, Math.round(o.timeoutMs / 1000));
    await o.sleep(Math.min(pollDelayMs(res, polls), remaining), o.signal);
    res = await o.send({ method: 'GET', path: `/v1/jobs/${encodeURIComponent(jobId)}` }, { deadline: o.deadline, signal: o.signal });
    if (res.status !== 200) throw withJob(toApiError(res, 'The service'), jobId);
    const next = parseJson(res, 'The service');
    if (!isJobEnvelope(next)) throw new StaysApiError({ type: 'internal_error', code: 'internal_error', message: `Unexpected job poll answer for ${jobId}.` }, res.status, jobId);
    job = next;
  }
}

function withJob(e: StaysApiError, jobId: string): StaysApiError {
  return new StaysApiError(e.toJSON().error, e.status, jobId);
}
