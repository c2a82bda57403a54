import { z } from 'zod';
import { cancelJob } from '../../../core/ops/job-cancel.js';
import { type JobView, getJob } from '../../../core/ops/jobs.js';
import { jobPathParams } from '../../../core/schemas/param-schemas.js';
import type { Meta } from '../../../core/schemas/resources.js';
import { withWarningDocs } from '../../docs/base.js';
import { type RouteDef, defineRoute } from '../../route.js';

export const jobGet = defineRoute({
  method: 'get',
  scopes: [],
  path: '/v1/jobs/{jobId}',
  doc: () => ({
    operationId: 'pollJob',
    summary: 'Poll an async job',
    description: 'Always 0 credits. pending/running carry Retry-After; completed carries data.result; failed carries data.error (HTTP 200).',
    tags: ['Jobs'],
    path: jobPathParams(),
    data: z.object({ jobId: z.string(), status: z.enum(['pending', 'running', 'completed', 'failed']) }).loose(),
    envelope: 'job',
    errors: [404],
    auth: true,
  }),
  handle: async (c, ctx) => renderView(c, await getJob(c.get('services'), ctx, c.req.param('jobId') ?? '')),
});

function renderView(c: Parameters<RouteDef['handle']>[0], view: JobView): Response {
  if (view.retryAfter !== undefined) c.header('Retry-After', String(view.retryAfter));
  // A completed job's meta was built in the background: its warnings' docUrls are this request's.
  const meta = (view.body as { meta?: Meta }).meta;
  return c.json(meta?.warnings?.length ? { ...view.body, meta: withWarningDocs(c, meta) } : view.body, 200);
}

export const jobCancel = defineRoute({
  method: 'delete',
  // The scope that starts jobs: a key that may run a search may stop it (docs/decisions.md).
  scopes: ['stays.read'],
  path: '/v1/jobs/{jobId}',
  doc: () => ({
    operationId: 'cancelJob',
    summary: 'Cancel a pending or running job',
    description:
      'Free. The job ends failed with data.error.code job_canceled (the statuses stay pending, running, completed, failed); its credit hold is released and nothing is charged, ' +
      'even if the platform answers later. Webhooks subscribed to job.failed get that error. Answers the job as a poll then shows it. ' +
      'A job that already completed or failed: 409 job_not_cancelable, nothing changes.',
    tags: ['Jobs'],
    path: jobPathParams(),
    data: z.object({ jobId: z.string(), status: z.literal('failed'), error: z.object({ type: z.string(), code: z.string(), message: z.string(), retryable: z.boolean() }) }).loose(),
    envelope: 'job',
    errors: [404, 409],
    errorText: { 409: 'The job already ended, completed or failed (job_not_cancelable); nothing changed.' },
    auth: true,
  }),
  handle: async (c, ctx) => renderView(c, await cancelJob(c.get('services'), ctx, c.req.param('jobId') ?? '')),
});
