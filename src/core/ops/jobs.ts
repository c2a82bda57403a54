// GET /v1/jobs/{jobId} (D18): the job as its owner sees it; anyone else gets job_not_found.
// GET /v1/jobs (docs/decisions.md, "Listing jobs"): the caller's jobs, newest first.
import type { OpResult, RequestContext, Services } from '../context.js';
import { decodePositionCursor, encodePositionCursor, fingerprint } from '../cursor.js';
import { ServiceError } from '../errors.js';
import { jobsListParams } from '../schemas/job-schemas.js';
import type { JobSummary } from '../schemas/jobs.js';
import { type RawInput, parseParams } from '../validate.js';
import type { JobRow, JobSummaryRow } from '../ports/store.js';
import { buildMeta } from '../meta.js';
import { pollUrl } from '../poll-url.js';

export interface JobView {
  status: 200;
  body: { data: Record<string, unknown>; meta: unknown };
  /** Seconds, while the job is not terminal. */
  retryAfter?: number;
}

export function renderJob(job: JobRow, requestId: string): JobView {
  const shortMeta = { requestId, creditsCharged: 0, platforms: job.platforms };
  if (job.status === 'completed') {
    return { status: 200, body: { data: { jobId: job.id, status: 'completed', result: job.result }, meta: { ...(job.meta as object), requestId } } };
  }
  if (job.status === 'failed') {
    return { status: 200, body: { data: { jobId: job.id, status: 'failed', error: job.error }, meta: shortMeta } };
  }
  return {
    status: 200,
    body: { data: { jobId: job.id, status: job.status, pollUrl: pollUrl(job.id), estimatedSeconds: job.estimatedSeconds }, meta: shortMeta },
    // The same back-off hint as the 202 (D17): the upstream's estimate, 1 to 5 seconds.
    retryAfter: Math.min(5, Math.max(1, job.estimatedSeconds)),
  };
}

const JOB_ID = /^job_[0-9A-HJKMNP-TV-Z]{26}$/;

/** The caller's job, or job_not_found (unknown, malformed, another account's or environment's, expired). */
export async function ownJob(services: Services, ctx: RequestContext, jobId: string): Promise<JobRow> {
  const notFound = () => new ServiceError('job_not_found', `No job ${jobId.slice(0, 64)} for this key (unknown, of another account or environment, or expired after 24 hours).`, { param: 'jobId' });
  if (!JOB_ID.test(jobId)) throw notFound();
  const job = await services.store.getJob(jobId);
  // A job belongs to its account and to the environment of the key that created it: a sandbox
  // key never reads live results, nor the other way round.
  const visible = job !== null && job.accountId === ctx.account.id && job.env === ctx.key.env;
  if (!job || !visible || (job.expiresAt !== null && job.expiresAt <= services.clock.now())) throw notFound();
  return job;
}

export async function getJob(services: Services, ctx: RequestContext, jobId: string): Promise<JobView> {
  return renderJob(await ownJob(services, ctx, jobId), ctx.requestId);
}

type After = { createdAt: number; id: string };

/**
 * The list pages by position (the last job's creation time and id), not by offset, so jobs that
 * start while a client pages do not shift the pages it has yet to read. The cursor is opaque
 * base64url JSON like the other cursors (D16), bound to the status filter.
 */
const encodeJobCursor = (after: After, fp: string) => encodePositionCursor({ t: after.createdAt, id: after.id }, fp);

function decodeJobCursor(cursor: string | undefined, fp: string): After | null {
  const at = decodePositionCursor(cursor, fp, JOB_ID);
  return at && { createdAt: at.t, id: at.id };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A job as the list shows it: a poll's fields without the result body. */
function summarizeJob(job: JobSummaryRow): JobSummary {
  const finished = job.status === 'completed' || job.status === 'failed';
  return {
    jobId: job.id,
    status: job.status,
    operation: job.operation,
    platforms: job.platforms as JobSummary['platforms'],
    pollUrl: pollUrl(job.id),
    createdAt: iso(job.createdAt),
    finishedAt: finished ? iso(job.updatedAt) : null,
    creditsCharged: job.creditsCharged,
    error: job.status === 'failed' ? ((job.error as JobSummary['error']) ?? null) : null,
  };
}

/**
 * The calling key's jobs: its account's, in its environment (a sandbox key sees sandbox jobs,
 * which today never exist, since sandbox calls answer at once), unexpired, newest first. Free.
 */
export async function listJobs(services: Services, ctx: RequestContext, raw: RawInput): Promise<OpResult<JobSummary[]>> {
  const p = parseParams(jobsListParams(), raw);
  const fp = fingerprint(['jobs', p.status ?? null]);
  const after = decodeJobCursor(p.cursor, fp);
  const rows = await services.store.listJobs({ accountId: ctx.account.id, env: ctx.key.env, status: p.status ?? null, after, limit: p.limit + 1, now: services.clock.now() });
  const page = rows.slice(0, p.limit);
  const hasMore = rows.length > p.limit;
  const last = page.at(-1);
  const nextCursor = hasMore && last ? encodeJobCursor({ createdAt: last.createdAt, id: last.id }, fp) : null;
  return {
    data: page.map(summarizeJob),
    // The usual Family U meta; nothing here is priced or fetched from a platform.
    meta: buildMeta(services, ctx, { platforms: [], currency: 'USD', pagination: { limit: p.limit, cursor: p.cursor ?? null, nextCursor, hasMore } }),
  };
}
