// Typed client errors. An error envelope becomes a StaysApiError carrying every field of the wire
// error, so callers branch on `type`/`code` (the catalogue grows additively: unknown codes are
// kept as strings, never refused).
import type { ApiErrorBody } from './types.js';

export class StaysApiError extends Error {
  readonly type: string;
  readonly code: string;
  readonly param: string | null;
  readonly requestId: string | null;
  readonly docUrl: string | null;
  readonly retryable: boolean;
  /** HTTP status; 200 for a failed job (D18 answers failures of a job with HTTP 200). */
  readonly status: number;
  /** Set when the error is the outcome of an async job. */
  readonly jobId: string | null;
  /** The wire error object as received. */
  readonly body: ApiErrorBody;

  constructor(body: ApiErrorBody, status: number, jobId: string | null = null) {
    super(body.message);
    this.body = body;
    this.name = 'StaysApiError';
    this.type = body.type;
    this.code = body.code;
    this.param = body.param ?? null;
    this.requestId = body.requestId ?? null;
    this.docUrl = body.docUrl ?? null;
    this.retryable = body.retryable ?? false;
    this.status = status;
    this.jobId = jobId;
  }

  /** The wire envelope as received (plus the job id when a job failed), for `--json`. */
  toJSON(): { error: ApiErrorBody & { jobId?: string } } {
    return { error: this.jobId ? { ...this.body, jobId: this.jobId } : { ...this.body } };
  }
}

/** The wait bound (`timeout`) passed with the job still pending or running. */
export class StaysWaitTimeoutError extends Error {
  readonly jobId: string;
  readonly lastStatus: string;
  constructor(jobId: string, lastStatus: string, seconds: number) {
    super(`Timed out after ${seconds} s waiting for job ${jobId} (still ${lastStatus}); resume with: stays jobs wait ${jobId} (or stop it, nothing charged: stays jobs cancel ${jobId})`);
    this.name = 'StaysWaitTimeoutError';
    this.jobId = jobId;
    this.lastStatus = lastStatus;
  }
}

/**
 * A cursor walk (`pages()`, `--all`) got a page that does not say whether more follow
 * (`meta.pagination` null or missing): the walk stops with this error rather than end silently
 * short. Pages already yielded stay valid; `lastCursor` is the cursor that fetched the bad page.
 */
export class StaysPaginationError extends Error {
  readonly pages: number;
  readonly lastCursor: string | null;
  constructor(pages: number, lastCursor: string | null) {
    super(
      `Page ${pages} came back without pagination (meta.pagination is null, as some services answer for a page that ran as an async job), so it is unknown whether more pages follow; stopped after ${pages} page${pages === 1 ? '' : 's'}. Run the same command again: the pages are cached now and carry their pagination${lastCursor ? `, or resume with --cursor ${lastCursor}` : ''}.`,
    );
    this.name = 'StaysPaginationError';
    this.pages = pages;
    this.lastCursor = lastCursor;
  }
}

/** The service could not be reached, or answered something that is not the API. */
export class StaysConnectionError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'StaysConnectionError';
  }
}
