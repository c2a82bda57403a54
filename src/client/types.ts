// Wire types the client reads and returns. Data and meta types come from the core schemas (the
// single source of the wire format); only the envelopes and job shapes are spelled out here.
import type { Meta } from '../core/schemas/resources.js';

/** A Family U success: `{ data, meta }` exactly as the service returned it. */
export interface Envelope<T> {
  data: T;
  meta: Meta;
}

/** GET /v1/account and top-ups answer a bare `{ data }`. */
export interface BareEnvelope<T> {
  data: T;
}

type JobStatus = 'pending' | 'running' | 'completed' | 'failed';

/** The wire error object (also what a failed job carries, without requestId/docUrl). */
export interface ApiErrorBody {
  type: string;
  code: string;
  message: string;
  param?: string | null;
  requestId?: string;
  creditsCharged?: number;
  retryable?: boolean;
  docUrl?: string;
}

/** D18: the 202 answer and every job poll. */
export interface JobEnvelope {
  data: {
    jobId: string;
    status: JobStatus;
    pollUrl?: string;
    estimatedSeconds?: number;
    result?: unknown;
    error?: ApiErrorBody;
  };
  meta: Partial<Meta> & { requestId: string };
}

/** Query values: arrays are sent as repeated keys; undefined and null are left out. */
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type Query = Record<string, QueryValue>;

/** One HTTP exchange as the client saw it (for `stays api`, debugging and tests). */
export interface RawResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  body: string;
}

/** Reported after every HTTP exchange (for `--debug`). */
export interface RequestEvent {
  method: string;
  url: string;
  status: number | null;
  ms: number;
  requestId: string | null;
  rateLimit: { limit: string; remaining: string; reset: string } | null;
  creditsCharged: number | null;
  attempt: number;
  error?: string;
}

/** Reported before the client pauses to retry (for spinners and status lines). */
export interface RetryEvent {
  reason: 'rate_limited' | 'server_error' | 'connection_failed' | 'in_progress';
  /** The answer's HTTP status; null when the connection failed. */
  status: number | null;
  /** How long the client waits before the next attempt. */
  waitMs: number;
  /** The attempt that failed (1 = the first). */
  attempt: number;
}

/** Reported while waiting on a job (for spinners and status lines). */
export interface WaitEvent {
  jobId: string;
  status: JobStatus;
  elapsedMs: number;
}

/** Family S meta (snake_case): lists, single objects and batches; a page that ran as a job carries Family U meta instead. */
interface StayMeta {
  count?: number;
  limit?: number;
  has_more?: boolean;
  next_page_token?: string | null;
  credits_charged?: number;
  environment?: 'live' | 'test';
  cached?: boolean;
  warnings?: { code: string; message: string }[];
  /** instant-book: "experimental". */
  warning?: string;
  /** Batches. */
  requested?: number;
  missing?: number;
}

/** A Family S success: `{ data, meta, request_id }`. */
export interface StayEnvelope<T> {
  data: T;
  meta: StayMeta;
  request_id?: string;
}
