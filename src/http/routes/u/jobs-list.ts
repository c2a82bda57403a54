import { z } from 'zod';
import { listJobs } from '../../../core/ops/jobs.js';
import { jobSummarySchema, jobsListParams } from '../../../core/schemas/job-schemas.js';
import { renderOk } from '../../render.js';
import { defineRoute, queryInput } from '../../route.js';

/** Beyond the spec (docs/decisions.md, "Listing jobs"). */
export const jobsList = defineRoute({
  method: 'get',
  scopes: [],
  path: '/v1/jobs',
  doc: () => ({
    operationId: 'listJobs',
    summary: 'List your jobs',
    description:
      "Always 0 credits, never 202. The jobs of the calling key's account in the key's environment (a sandbox key sees sandbox jobs), " +
      'newest first, until 24 hours after each ends; each as a poll shows it, without the result (GET its pollUrl for that). Cursor-paginated.',
    tags: ['Jobs'],
    query: jobsListParams(),
    data: z.array(jobSummarySchema()),
    errors: [400],
    auth: true,
  }),
  handle: async (c, ctx) => renderOk(c, await listJobs(c.get('services'), ctx, queryInput(c))),
});
