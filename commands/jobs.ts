// `stays jobs list`, `stays jobs get|wait|cancel JOB_ID`: the key's jobs (GET /v1/jobs), or one 202
// job looked at, waited for (GET /v1/jobs/{jobId}) or canceled (DELETE /v1/jobs/{jobId}).
import type { Command } from 'commander';
import { columnListHelp } from './_lib/output/columns.js';
import { type GlobalOpts, pick, withGlobals } from './_lib/flags/options.js';
import { io } from './_lib/runtime/io.js';

export function defineJobs(program: Command): void {
  const jobs = program.command('jobs').description('Async jobs started by a 202 answer');

  const list = jobs
    .command('list')
    .description('Your jobs of the last 24 hours, newest first: id, status, operation, age, credits (free)')
    .option('--status <status>', 'only jobs in this status: pending, running, completed, failed')
    .option('--limit <n>', 'jobs per page, 1-100 (default 20)')
    .option('--cursor <cursor>', 'the next page: meta.pagination.nextCursor of the previous one')
    .option('--all', 'walk every page');
  withGlobals(list, { wait: false })
    .addHelpText(
      'after',
      `
Jobs are listed for the key in use: its account's, in its environment (sandbox calls never start
jobs; live calls that fetch from a platform do).

Examples:
  stays jobs list
  stays jobs list --status failed --json jobId,error
  stays jobs list --all -o csv > jobs.csv
${columnListHelp(['job_id', 'status', 'operation', 'platforms', 'created_at', 'finished_at', 'credits_charged', 'error_code'], 'platforms is a comma list; credits_charged is empty until the job ends.')}`,
    )
    .action(async (opts: GlobalOpts & Record<string, unknown>) => {
      const [{ execute }, { operations }, { listJobs }] = await Promise.all([import('./_lib/runtime/run.js'), import('../src/client/operations.js'), import('./jobs-list.js')]);
      await execute(opts, (ctx) => listJobs(ctx, operations.jobs(pick(opts, ['status', 'limit', 'cursor'])), opts.all === true));
    });

  withGlobals(jobs.command('get').description('Show a job once: pending, running, completed (with result) or failed').argument('<jobId>', 'job_… id'), { wait: false })
    .addHelpText(
      'after',
      `
A completed job is shown with its result: a table shows the job, then the result as the call that
started it would; tsv and csv print the result's rows; --json prints the poll as returned (the
result in data.result).

Example:
  stays jobs get job_01J8ZK4R2ABCDEF0123456789A --json`,
    )
    .action(async (jobId: string, opts: GlobalOpts) => {
      const [{ execute }, { showJob }] = await Promise.all([import('./_lib/runtime/run.js'), import('./jobs/view.js')]);
      await execute(opts, async (ctx) => showJob(ctx, await ctx.client.job(jobId)));
    });

  withGlobals(jobs.command('wait').description('Wait for a job and print its result as the original call would have').argument('<jobId>', 'job_… id'), { wait: false })
    .addHelpText('after', '\nExamples:\n  stays jobs wait job_01J8ZK4R2ABCDEF0123456789A\n  stays jobs wait job_… --timeout 10m --json')
    .action(async (jobId: string, opts: GlobalOpts) => {
      const [{ execute, show }, { jobResultView }] = await Promise.all([import('./_lib/runtime/run.js'), import('./jobs/result-view.js')]);
      await execute(opts, async (ctx) => {
        const envelope = await ctx.client.waitJob(jobId);
        ctx.ui.stop();
        await show(ctx, envelope, jobResultView, { paginates: true });
      });
    });

  withGlobals(jobs.command('cancel').description('Cancel a pending or running job: it ends failed (job_canceled), its credit hold is released, nothing is charged').argument('<jobId>', 'job_… id'), {
    wait: false,
  })
    .addHelpText(
      'after',
      `
Free. Nothing is charged even if the platform answers after the cancel; webhooks subscribed to
job.failed get the job with error code job_canceled. A job that already completed or failed
cannot be canceled: exit 2 (job_not_cancelable), nothing changes. Unknown job: exit 3.

Examples:
  stays jobs cancel job_01J8ZK4R2ABCDEF0123456789A
  stays jobs cancel job_… --json`,
    )
    .action(async (jobId: string, opts: GlobalOpts) => {
      const [{ execute, show }, { operations }] = await Promise.all([import('./_lib/runtime/run.js'), import('../src/client/operations.js')]);
      await execute(opts, async (ctx) => {
        const r = await ctx.client.submit(operations.jobCancel(jobId));
        if (ctx.format !== 'table' || ctx.fields !== null || ctx.jq !== null) return show(ctx, r.body, 'job');
        ctx.ui.stop();
        io().stdout.write(`Canceled job ${jobId}: its credit hold is released and nothing is charged.\n`);
      });
    });
}
