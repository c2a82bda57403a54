// GET /v1/jobs/{jobId} (D18): the job as its owner sees it; anyone else gets job_not_found.
import type { RequestContext, Services } from '../context.js';
import { ServiceError } from '../errors.js';
import type { JobRow } from '../../store/types.js';

export interface JobView {
  status: 200;
  body: { data: Record<string, unknown>; meta: unknown };
  /** Seconds, while the job is not terminal. */
  retryAfter?: number;
}

export const pollUrl = (jobId: string) => `/v1/jobs/${jobId}`;

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

export async function getJob(services: Services, ctx: RequestContext, jobId: string): Promise<JobView> {
  const notFound = () => new ServiceError('job_not_found', `No job ${jobId.slice(0, 64)} for this key (unknown, of another account or environment, or expired after 24 hours).`, { param: 'jobId' });
  if (!/^job_[0-9A-HJKMNP-TV-Z]{26}$/.test(jobId)) throw notFound();
  const job = await services.store.getJob(jobId);
  // A job belongs to its account and to the environment of the key that created it: a sandbox
  // key never reads live results, nor the other way round.
  const visible = job !== null && job.accountId === ctx.account.id && job.env === ctx.key.env;
  if (!job || !visible || (job.expiresAt !== null && job.expiresAt <= services.clock.now())) throw notFound();
  return renderJob(job, ctx.requestId);
}
