import { z } from 'zod';
import { getJob } from '../../../core/ops/jobs.js';
import { JobPathParams } from '../../../core/schemas/params.js';
import type { Meta } from '../../../core/schemas/resources.js';
import { withWarningDocs } from '../../docs/base.js';
import type { RouteDef } from '../../route.js';

export const jobGet: RouteDef = {
  method: 'get',
  scopes: [],
  path: '/v1/jobs/{jobId}',
  doc: {
    operationId: 'pollJob',
    summary: 'Poll an async job',
    description: 'Always 0 credits. pending/running carry Retry-After; completed carries data.result; failed carries data.error (HTTP 200).',
    tags: ['Jobs'],
    path: JobPathParams,
    data: z.object({ jobId: z.string(), status: z.enum(['pending', 'running', 'completed', 'failed']) }).loose(),
    envelope: 'job',
    errors: [404],
    auth: true,
  },
  handle: async (c, ctx) => {
    const view = await getJob(c.var.services, ctx, c.req.param('jobId') ?? '');
    if (view.retryAfter !== undefined) c.header('Retry-After', String(view.retryAfter));
    // A completed job's meta was built in the background: its warnings' docUrls are this request's.
    const meta = (view.body as { meta?: Meta }).meta;
    return c.json(meta?.warnings?.length ? { ...view.body, meta: withWarningDocs(c, meta) } : view.body, 200);
  },
};
