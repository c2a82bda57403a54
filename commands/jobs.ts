// `stays jobs get|wait JOB_ID`: look at or wait for a 202 job (GET /v1/jobs/{jobId}).
import type { Command } from 'commander';
import { type GlobalOpts, withGlobals } from './_lib/options.js';

export function defineJobs(program: Command): void {
  const jobs = program.command('jobs').description('Async jobs started by a 202 answer');

  withGlobals(jobs.command('get').description('Show a job once: pending, running, completed (with result) or failed').argument('<jobId>', 'job_… id'), { wait: false })
    .addHelpText('after', '\nExample:\n  stays jobs get job_01J8ZK4R2ABCDEF0123456789A --json')
    .action(async (jobId: string, opts: GlobalOpts) => {
      const { execute, show } = await import('./_lib/run.js');
      await execute(opts, async (ctx) => show(ctx, await ctx.client.job(jobId)));
    });

  withGlobals(jobs.command('wait').description('Wait for a job and print its result as the original call would have').argument('<jobId>', 'job_… id'), { wait: false })
    .addHelpText('after', '\nExamples:\n  stays jobs wait job_01J8ZK4R2ABCDEF0123456789A\n  stays jobs wait job_… --timeout 10m --json')
    .action(async (jobId: string, opts: GlobalOpts) => {
      const { execute, show } = await import('./_lib/run.js');
      await execute(opts, async (ctx) => {
        const envelope = await ctx.client.waitJob(jobId);
        ctx.ui.stop();
        await show(ctx, envelope, true);
      });
    });
}
