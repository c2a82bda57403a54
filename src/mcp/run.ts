// Running one REST operation for a tool: the call goes through the typed client (in-process app
// or remote server) with `Prefer: wait` so a live job that ends in time answers like a
// synchronous call; past that the job is polled (Retry-After) until the tool's bound. A job still
// running at the bound is returned as is: its id and pollUrl, for get_job.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiCall } from '../client/http.js';
import { parseJson, retryAfterMs, toApiError } from '../client/http.js';
import { operations } from '../client/operations.js';
import type { Envelope, JobEnvelope } from '../client/types.js';
import { abortableSleep, isJobEnvelope, pollJobUntil, settleJob } from '../client/wait.js';
import { errorResult, okResult } from './results.js';
import type { Args, ToolContext } from './tool.js';

/** The service waits at most this long on `Prefer: wait` (docs/decisions.md). */
const PREFER_WAIT_MAX_S = 30;
/** MCP tools poll at least every 5 s, so a client's progress notifications keep coming. */
const MAX_POLL_MS = 5_000;

const WHERE = 'The service';

/** One poll of a job: its body, or the API's error. */
export async function pollJob(ctx: ToolContext, jobId: string): Promise<{ job: JobEnvelope; retryAfterMs: number | null }> {
  const res = await ctx.client.raw(operations.job(jobId), { timeoutMs: Math.max(ctx.waitMs, 10_000), signal: ctx.signal });
  if (res.status >= 400) throw toApiError(res, WHERE);
  const body = parseJson(res, WHERE);
  if (!isJobEnvelope(body)) throw new Error(`Unexpected answer to a poll of job ${jobId}.`);
  return { job: body, retryAfterMs: retryAfterMs(res.headers) };
}

/** Polls a job (the CLI's loop, client/wait.ts) until it ends or `deadline` (epoch ms) passes; the last poll's body. */
export function awaitJob(ctx: ToolContext, first: JobEnvelope, firstRetryAfterMs: number | null, deadline: number): Promise<JobEnvelope> {
  return pollJobUntil(first, firstRetryAfterMs, {
    deadline,
    signal: ctx.signal,
    sleep: abortableSleep,
    maxIntervalMs: MAX_POLL_MS,
    poll: (jobId) => pollJob(ctx, jobId),
    onWait: (job) => ctx.progress?.(`job ${job.data.jobId} ${job.data.status}`),
  });
}

export function pendingResult(job: JobEnvelope, waitedMs: number, tool: string): CallToolResult {
  const { jobId, status } = job.data;
  const s = Math.round(waitedMs / 1000);
  const what = tool === 'get_job' ? `Job ${jobId} is still ${status} after ${s} s.` : `The ${tool} call became job ${jobId}, still ${status} after ${s} s.`;
  const text = `${what} Call get_job with {"jobId": "${jobId}"} to wait for its result (polling is free); credits are charged once, when it completes.`;
  return okResult(text, job);
}

export interface OperationSpec<T> {
  /** The tool's name, for texts. */
  tool: string;
  call: ApiCall;
  summarize(env: Envelope<T>): string;
}

/** Runs one operation for a tool; every failure becomes a tool error. */
export async function runOperation<T>(ctx: ToolContext, spec: OperationSpec<T>): Promise<CallToolResult> {
  const started = Date.now();
  const deadline = started + ctx.waitMs;
  try {
    const preferS = Math.min(PREFER_WAIT_MAX_S, Math.floor(ctx.waitMs / 1000));
    const call: ApiCall = preferS > 0 ? { ...spec.call, headers: { ...spec.call.headers, prefer: `wait=${preferS}` } } : spec.call;
    const first = await ctx.client.submit<T>(call, { timeoutMs: ctx.waitMs, signal: ctx.signal });
    if (!first.accepted) return okResult(spec.summarize(first.body), first.body);
    const job = await awaitJob(ctx, first.body, first.retryAfterMs, deadline);
    // A failed job throws its error here (caught below), as REST's Prefer: wait would answer it.
    const done = settleJob<T>(job);
    if (done) return okResult(spec.summarize(done), done);
    return pendingResult(job, Date.now() - started, spec.tool);
  } catch (e) {
    return errorResult(e);
  }
}

/** Query values from tool arguments: JSON scalars and lists pass as they are; anything else as JSON text (the service then refuses it by name). */
export function queryOf(args: Args): Record<string, string | number | boolean | (string | number)[]> {
  const q: Record<string, string | number | boolean | (string | number)[]> = {};
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined || v === null) continue;
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') q[k] = v;
    else if (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number')) q[k] = v as (string | number)[];
    else q[k] = JSON.stringify(v);
  }
  return q;
}
