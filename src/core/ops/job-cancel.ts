// DELETE /v1/jobs/{jobId} (issue 22, docs/decisions.md "Canceling a job"): a pending or running
// job ends `failed` with error code job_canceled; its credit hold is released and nothing is
// charged, also when the platform's answer arrives later (the store takes the job from its runner,
// whose finishJob then changes nothing). Subscribers hear job.failed with that error. A job that
// already ended is 409 job_not_cancelable. Free.
import type { RequestContext, Services } from '../context.js';
import { ServiceError, errorInfo } from '../errors.js';
import { emitJobFailed } from '../events.js';
import { JOB_RETENTION_MS } from '../lease.js';
import { type JobView, ownJob, renderJob } from './jobs.js';

function notCancelable(jobId: string, status: string): ServiceError {
  const what = status === 'completed' ? 'completed (its charge stands)' : 'failed (nothing was charged)';
  return new ServiceError('job_not_cancelable', `Job ${jobId} already ${what}; only a pending or running job can be canceled.`, { param: 'jobId' });
}

export async function cancelJob(services: Services, ctx: RequestContext, jobId: string): Promise<JobView> {
  const job = await ownJob(services, ctx, jobId);
  if (job.status === 'completed' || job.status === 'failed') throw notCancelable(jobId, job.status);
  const info = errorInfo('job_canceled');
  const error = {
    type: info.type,
    code: 'job_canceled',
    message: `The job was canceled (request ${ctx.requestId}) before it finished; its credit hold was released and nothing was charged.`,
    retryable: false,
  };
  const now = services.clock.now();
  const canceled = await services.store.cancelJob(job.id, error, now, now + JOB_RETENTION_MS);
  const after = await services.store.getJob(job.id);
  // It ended on its own between the read above and the cancel.
  if (!canceled) throw notCancelable(jobId, after?.status ?? 'completed');
  emitJobFailed(services, job, error);
  return renderJob(after ?? { ...job, status: 'failed', error }, ctx.requestId);
}
