// `stays jobs get` in a table, tsv or csv: a completed job is its result. The poll's own fields
// (id, status) are what a person checks first, but the answer they waited for is data.result:
// a table shows the job's fields, then the result as the call that started the job prints it;
// tsv and csv are data, so they are the result's rows (as `stays jobs wait` prints them) and say
// so on stderr. A job not completed (pending, running, failed) is its own row, as before. JSON
// output (--json, --jq, -o json|jsonl) is the poll's envelope unchanged.
import type { JobEnvelope } from '../../src/client/types.js';
import type { Ctx } from '../_lib/runtime/context.js';
import { printResult } from '../_lib/output/print.js';
import { show } from '../_lib/runtime/run.js';
import { io } from '../_lib/runtime/io.js';
import { jobResultView } from './result-view.js';

export async function showJob(ctx: Ctx, envelope: JobEnvelope): Promise<void> {
  const { data } = envelope;
  const completed = data.status === 'completed' && 'result' in data;
  const json = ctx.fields !== null || ctx.jq !== null || ctx.format === 'json' || ctx.format === 'jsonl';
  if (!completed || json) return show(ctx, envelope, 'job');
  ctx.ui.stop();
  // The result's envelope: a completed poll's meta is its result's (credits, pagination, warnings).
  const result = { data: data.result, meta: envelope.meta };
  if (ctx.format === 'table') {
    await printResult({ data: { jobId: data.jobId, status: data.status } }, 'table', ctx.term, 'job');
    io().stdout.write('\n');
  } else {
    io().stderr.write(`stays: job ${data.jobId} completed; below are its result's rows (the job's own fields: --json)\n`);
  }
  await show(ctx, result, jobResultView, { paginates: true });
}
