// One request with retries at the edge (house rule 6): 429 and retryable 5xx are retried,
// honouring Retry-After, with capped exponential back-off and jitter otherwise; a POST carries an
// Idempotency-Key, the same on every attempt, so retrying it is safe. Every exchange is
// reported to onRequest (for `--debug`) without the key.
import { randomUUID } from 'node:crypto';
import { StaysApiError, StaysConnectionError } from './errors.js';
import type { Transport } from './transport.js';
import type { ApiErrorBody, Query, RawResponse, RequestEvent, RetryEvent } from './types.js';

export interface ApiCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path from the API root, starting with /v1/. */
  path: string;
  query?: Query;
  /** JSON body (sent with content-type application/json). */
  body?: unknown;
  /** Extra headers (`stays api -H`). */
  headers?: Record<string, string>;
}

export interface SenderOptions {
  transport: Transport;
  apiKey?: string;
  userAgent: string;
  maxRetries: number;
  onRequest?: (e: RequestEvent) => void;
  /** Called before each pause between attempts (a 429, a retryable 5xx, a failed connection). */
  onRetry?: (e: RetryEvent) => void;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface SendControl {
  /** Epoch ms after which no retry is started. */
  deadline: number;
  signal?: AbortSignal;
}

/** The longest Retry-After the client will sit out; a longer one is reported, not waited. */
const MAX_RETRY_WAIT_MS = 60_000;
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 8_000;

export function buildPath(path: string, query: Query = {}): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) for (const item of v) qs.append(k, String(item));
    else qs.append(k, String(v));
  }
  const s = qs.toString();
  return s ? `${path}?${s}` : path;
}

export function retryAfterMs(headers: Record<string, string>): number | null {
  const v = headers['retry-after'];
  if (v === undefined) return null;
  if (/^\d+$/.test(v.trim())) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

function backoffMs(attempt: number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** Parses a JSON body; a body that is not JSON means we are not talking to this API. */
export function parseJson(res: RawResponse, where: string): unknown {
  try {
    return JSON.parse(res.body);
  } catch {
    throw new StaysConnectionError(`${where} answered HTTP ${res.status} with a body that is not JSON: ${res.body.slice(0, 120)}`);
  }
}

/** The error envelope of a non-2xx answer as a typed error. */
export function toApiError(res: RawResponse, where: string): StaysApiError {
  const parsed = parseJson(res, where) as { error?: ApiErrorBody } | null;
  const e = parsed?.error;
  if (!e || typeof e.type !== 'string' || typeof e.code !== 'string') {
    throw new StaysConnectionError(`${where} answered HTTP ${res.status} without an error envelope: ${res.body.slice(0, 120)}`);
  }
  return new StaysApiError({ ...e, requestId: e.requestId ?? res.headers['x-request-id'] }, res.status);
}

function errorRetryable(res: RawResponse): boolean {
  try {
    return (JSON.parse(res.body) as { error?: { retryable?: boolean } }).error?.retryable === true;
  } catch {
    // A gateway in front of the service answered (502/503/504 HTML): worth another try.
    return res.status === 502 || res.status === 503 || res.status === 504;
  }
}

/** The service's own trouble (its database away, its capacity reached), not a sandbox error trigger: worth another try whatever the key. */
function serviceFault(res: RawResponse): boolean {
  try {
    const code = (JSON.parse(res.body) as { error?: { code?: unknown } }).error?.code;
    return code === 'database_unavailable' || code === 'service_overloaded';
  } catch {
    return false;
  }
}

export function createSender(o: SenderOptions) {
  // D21: sandbox answers are deterministic, so retrying a sandbox 5xx (an error trigger) only
  // repeats it; rate limits are real for every key and are retried.
  const sandbox = o.apiKey?.startsWith('stay_test_') ?? false;

  /**
   * The delay before the next attempt, or null when this answer is final. A GET, and a POST with
   * an Idempotency-Key (the server answers its retry with the first answer, executed once), may be
   * retried after a failed connection, a retryable 5xx, or a 409 while its first attempt still runs.
   */
  function nextDelay(res: RawResponse | null, call: ApiCall, safe: boolean, attempt: number): number | null {
    if (attempt > o.maxRetries) return null;
    if (res === null) return safe ? backoffMs(attempt) : null;
    if (res.status === 429) return Math.max(retryAfterMs(res.headers) ?? backoffMs(attempt), 250);
    if (res.status === 409 && call.method === 'POST' && safe && errorRetryable(res)) return Math.max(retryAfterMs(res.headers) ?? backoffMs(attempt), 250);
    if (res.status >= 500 && (!sandbox || serviceFault(res)) && safe && errorRetryable(res)) return retryAfterMs(res.headers) ?? backoffMs(attempt);
    return null;
  }

  return async function send(call: ApiCall, ctl: SendControl): Promise<RawResponse> {
    const path = buildPath(call.path, call.query);
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': o.userAgent, ...call.headers };
    if (o.apiKey) headers.authorization = `Bearer ${o.apiKey}`;
    // Like stripe-node: every POST carries an Idempotency-Key (the caller's, or one made here and
    // reused on each attempt), so a retry after a lost answer cannot execute or charge twice.
    const given = Object.keys(headers).some((k) => k.toLowerCase() === 'idempotency-key');
    if (call.method === 'POST' && !given) headers['idempotency-key'] = `stays-retry-${randomUUID()}`;
    const safe = call.method === 'GET' || call.method === 'POST';
    let body: string | undefined;
    if (call.body !== undefined) {
      body = typeof call.body === 'string' ? call.body : JSON.stringify(call.body);
      headers['content-type'] ??= 'application/json';
    }
    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      let res: RawResponse | null = null;
      let failure: unknown;
      try {
        res = await o.transport.send({ method: call.method, path, headers, body, signal: ctl.signal });
      } catch (e) {
        if (ctl.signal?.aborted || !(e instanceof StaysConnectionError)) throw e;
        failure = e;
      }
      if (o.onRequest) o.onRequest(describe(call.method, o.transport.base + path, res, performance.now() - started, attempt, failure));
      const delay = nextDelay(res, call, safe, attempt);
      if (delay === null || delay > MAX_RETRY_WAIT_MS || Date.now() + delay > ctl.deadline) {
        if (res) return res;
        throw failure;
      }
      o.onRetry?.({
        reason: res === null ? 'connection_failed' : res.status === 429 ? 'rate_limited' : res.status === 409 ? 'in_progress' : 'server_error',
        status: res?.status ?? null,
        waitMs: Math.round(delay),
        attempt,
      });
      await o.sleep(delay, ctl.signal);
    }
  };
}

function describe(method: string, url: string, res: RawResponse | null, ms: number, attempt: number, failure: unknown): RequestEvent {
  const h = res?.headers ?? {};
  let credits: number | null = null;
  if (res && res.status < 300) {
    try {
      const c = (JSON.parse(res.body) as { meta?: { creditsCharged?: unknown } }).meta?.creditsCharged;
      if (typeof c === 'number') credits = c;
    } catch {
      // Not JSON: nothing to report.
    }
  }
  return {
    method,
    url,
    status: res?.status ?? null,
    ms: Math.round(ms * 10) / 10,
    requestId: h['x-request-id'] ?? null,
    rateLimit: h['x-ratelimit-limit'] ? { limit: h['x-ratelimit-limit'], remaining: h['x-ratelimit-remaining'] ?? '', reset: h['x-ratelimit-reset'] ?? '' } : null,
    creditsCharged: credits,
    attempt,
    ...(failure ? { error: (failure as Error).message } : {}),
  };
}

export type Send = ReturnType<typeof createSender>;
