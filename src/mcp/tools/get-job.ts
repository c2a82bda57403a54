// get_job: GET /v1/jobs/{jobId}, for a call that outlived its tool's wait. It waits up to the same
// bound for the job to end, so an agent calls it once or twice rather than in a tight loop.
import type { JobEnvelope } from '../../client/types.js';
import { JobPathParams } from '../../core/schemas/params.js';
import { parseParams } from '../../core/validate.js';
import { jobRunning, settleJob } from '../../client/wait.js';
import { errorResult, okResult } from '../results.js';
import { awaitJob, pendingResult, pollJob } from '../run.js';
import { creditsText, platformsText, plural } from '../text.js';
import type { ToolDef } from '../tool.js';
import type { Envelope } from '../../client/types.js';
import { summarizeAvailability } from './check-availability.js';
import { summarizeCompare } from './compare-prices.js';
import { summarizeListing } from './get-listing.js';
import { summarizePrice } from './get-price.js';
import { summarizeReviews } from './get-reviews.js';
import { summarizeSearch } from './search-stays.js';

const has = (v: unknown, ...keys: string[]): v is Record<string, unknown> => v !== null && typeof v === 'object' && keys.every((k) => k in v);

/**
 * The summary the tool that made the job would give (issue 22, item 18): a job's result has the
 * data of its call, and each tool's data has its own shape, so the shape names the tool.
 */
function toolSummary(job: JobEnvelope): string | null {
  const { result } = job.data;
  const env = { data: result, meta: job.meta } as Envelope<never>;
  if (Array.isArray(result)) {
    const first: unknown = result[0];
    if (has(first, 'platformListingId', 'name')) return summarizeSearch(env, {});
    if (has(first, 'listingId', 'dates')) return summarizeAvailability(env);
    if (has(first, 'reviewId')) return summarizeReviews(env);
    return null;
  }
  if (has(result, 'offers')) return summarizeCompare(env);
  if (has(result, 'platformListingId', 'name')) return summarizeListing(env);
  if (has(result, 'nightlyPrice', 'nights')) return summarizePrice(env, { checkIn: result.checkIn, checkOut: result.checkOut });
  return null;
}

function summarizeJob(job: JobEnvelope): string {
  const { jobId, result } = job.data;
  const summary = toolSummary(job);
  if (summary !== null) return `Job ${jobId} completed.\n${summary}`;
  const size = Array.isArray(result) ? plural(result.length, 'row') : 'one object';
  const platforms = platformsText(job.meta);
  return `Job ${jobId} completed: ${size} in data.result${platforms ? ` (${platforms})` : ''}; ${creditsText(job.meta)}.`;
}

export const getJob: ToolDef = {
  name: 'get_job',
  title: 'Get job',
  description:
    "Status and result of an async job: a live call still running when its tool answered returns a jobId; this waits for the job (up to the server's bound) and returns { data: { jobId, status, result }, meta } when completed, the job again while it runs, or a tool error with the job's error when it failed. Polling costs 0 credits.",
  params: JobPathParams,
  run: async (ctx, args) => {
    const started = Date.now();
    try {
      const { jobId } = parseParams(JobPathParams, args);
      const first = await pollJob(ctx, jobId);
      const job = await awaitJob(ctx, first.job, first.retryAfterMs, started + ctx.waitMs);
      if (jobRunning(job)) return pendingResult(job, Date.now() - started, 'get_job');
      // A failed job (a poll answered with HTTP 200) is a tool error like any other: its error, with the job id.
      settleJob(job);
      return okResult(summarizeJob(job), job);
    } catch (e) {
      return errorResult(e);
    }
  },
};
