// GET /v1/jobs (docs/decisions.md, "Listing jobs"): its parameters and the summary of one job, a
// poll's shape without the result body; built (job-schemas.ts defines them, made on first use).
import type { z } from 'zod';
import { jobSummarySchema, jobsListParams } from './job-schemas.js';

export const JobsListParams = jobsListParams();
export const JobSummarySchema = jobSummarySchema();

export type JobsListInput = z.infer<typeof JobsListParams>;
export type JobSummary = z.infer<typeof JobSummarySchema>;
