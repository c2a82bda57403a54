// GET /v1/jobs (docs/decisions.md, "Listing jobs"): its parameters and the summary of one job, a
// poll's shape without the result body. Made on first use (jobs.ts exports them built).
import { z } from 'zod';
import { int, lowerEnum, str } from './fields.js';
import { once } from './once.js';
import { resourceSchemas } from './resource-schemas.js';

const JOB_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;

export const jobsListParams = once(() =>
  z.object({
    status: lowerEnum(JOB_STATUSES).optional().describe('Only jobs in this status: pending, running, completed or failed.'),
    limit: int(z.number().min(1).max(100)).default(20).describe('Jobs per page, 1 to 100. Default 20.'),
    cursor: str().optional().describe('Opaque cursor from meta.pagination.nextCursor.'),
  }),
);

export const jobSummarySchema = once(() => {
  const { PlatformFailureErrorSchema, PlatformSchema } = resourceSchemas();
  return z.object({
    jobId: z.string().describe('job_-prefixed id; GET pollUrl for its result.'),
    status: z.enum(JOB_STATUSES),
    operation: z
      .string()
      .describe(
        'The call that started it: search, reviews, price, price-compare, availability, listing; Family S: stay, stay-batch, stay-search, stay-search-with-details, listings-superhost, listings-luxury, listings-instant-book.',
      ),
    platforms: z.array(PlatformSchema),
    pollUrl: z.string(),
    createdAt: z.string().describe('ISO 8601, UTC.'),
    finishedAt: z.string().nullable().describe('ISO 8601, UTC; null while pending or running.'),
    creditsCharged: z.number().int().min(0).describe('What the job charged: its result meta.creditsCharged when completed, else 0.'),
    error: PlatformFailureErrorSchema.nullable().describe('Why a failed job failed; null otherwise.'),
  });
});
