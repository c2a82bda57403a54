// The flow every data command shares: context → request (waiting on a job, or not, or walking
// pages) → output → footer, and on failure the error on stderr with its exit code. Ctrl-C exits
// 130 and says how to pick the job up again.
import { StaysWaitTimeoutError } from '../../src/client/errors.js';
import type { ApiCall } from '../../src/client/http.js';
import type { Envelope } from '../../src/client/types.js';
import { type Ctx, createContext } from './context.js';
import { UsageError, reportError } from './errors.js';
import { EXIT } from './io.js';
import type { GlobalOpts } from './options.js';
import { jsonLines, printFooter, printResult, rowLines } from './output.js';
import { makeTerm } from './term.js';
import { viewOf } from './view.js';

export async function execute(opts: GlobalOpts, body: (ctx: Ctx) => Promise<void>): Promise<void> {
  let ctx: Ctx | undefined;
  let interrupted = false;
  const onSigint = () => {
    if (interrupted) return;
    interrupted = true;
    const job = ctx?.ui.jobId() ?? ctx?.inProcess?.runningJobs()[0] ?? null;
    ctx?.ui.stop();
    if (job && ctx?.inProcess) {
      // In-process the job runs in this command: it stops with it (failed, retryable, nothing charged).
      process.stderr.write(`\nstays: interrupted; job ${job} ran in this command and was stopped, nothing charged\n`);
      const bound = new Promise((r) => setTimeout(r, 2000).unref());
      void Promise.race([ctx.close(), bound]).finally(() => process.exit(EXIT.interrupted));
      return;
    }
    process.stderr.write(`\nstays: interrupted${job ? `; job ${job} keeps running: stays jobs wait ${job}` : ''}\n`);
    process.exit(EXIT.interrupted);
  };
  // `on`, not `once`: a second Ctrl-C during the exit must not fall back to the default handler.
  process.on('SIGINT', onSigint);
  try {
    ctx = await createContext(opts);
    await body(ctx);
  } catch (e) {
    ctx?.ui.stop();
    if (e instanceof StaysWaitTimeoutError && ctx?.inProcess) {
      // Nothing else will ever run this job: it stops with the command (ctx.close() below).
      e.message = `Timed out after ${Math.round(ctx.timeoutMs / 1000)} s waiting for job ${e.jobId}, which ran in this command (in-process) and is stopped: nothing was charged. Give it a longer --timeout, or run stays serve and pass --base-url so jobs outlive the command.`;
    }
    process.exitCode = await reportError(e, ctx?.term ?? makeTerm(opts), ctx?.jsonErrors ?? opts.json === true);
  } finally {
    process.off('SIGINT', onSigint);
    // Jobs this command ran and gave up on were failed by close(); their upstream calls need not finish.
    const abandoned = (ctx?.inProcess?.runningJobs().length ?? 0) > 0;
    await ctx?.close();
    if (abandoned) process.exit();
    // Nothing should be left running; if a dependency keeps a handle open, do not hang the shell.
    setTimeout(() => process.exit(), 2000).unref();
  }
}

/** Prints one result envelope with its footer. */
export async function show(ctx: Ctx, envelope: { data: unknown; meta?: unknown }, paginates = false): Promise<void> {
  await printResult(envelope, ctx.format, ctx.term);
  if (ctx.format === 'table') await printFooter(envelope as Parameters<typeof printFooter>[0], ctx.term, paginates);
}

/** Sends an API call the way the flags ask (wait, --no-wait, --all) and prints the outcome. */
export async function runCall(ctx: Ctx, call: ApiCall, o: { paginates?: boolean; all?: boolean } = {}): Promise<void> {
  if (o.all) return walkPages(ctx, call);
  if (!ctx.wait) {
    const r = await ctx.client.submit(call);
    if (r.accepted) {
      const id = r.body.data.jobId;
      process.stdout.write(`${JSON.stringify(r.body, null, 2)}\n`);
      if (ctx.inProcess) return finishInProcess(ctx, id);
      if (ctx.format === 'table') process.stderr.write(`stays: job ${id} accepted; wait for it with: stays jobs wait ${id}\n`);
      return;
    }
    return show(ctx, r.body, o.paginates);
  }
  const envelope = await ctx.client.run(call);
  ctx.ui.stop();
  await show(ctx, envelope, o.paginates);
}

/**
 * --no-wait in-process: the job runs in this command, so the command finishes it before exiting
 * (within --timeout; past that it is stopped, nothing charged), and says so on stderr.
 */
async function finishInProcess(ctx: Ctx, jobId: string): Promise<void> {
  process.stderr.write(`stays: job ${jobId} runs in this command (in-process); finishing it before exiting. Pass --base-url to leave jobs to a server.\n`);
  if (await ctx.inProcess!.finishJobs(ctx.timeoutMs)) {
    process.stderr.write(`stays: job ${jobId} finished; see it with: stays jobs get ${jobId}\n`);
    return;
  }
  process.stderr.write(`stays: job ${jobId} did not finish within ${Math.round(ctx.timeoutMs / 1000)} s and is stopped; nothing was charged\n`);
  process.exitCode = EXIT.waitTimeout;
}

/**
 * --all: every page. Line formats stream page by page; json prints one envelope whose data is
 * every page's rows and whose meta is the last page's, with creditsCharged summed over pages.
 */
async function walkPages(ctx: Ctx, call: ApiCall): Promise<void> {
  if (!ctx.wait) throw new UsageError('--all needs to wait for each page; drop --no-wait.', 'all');
  const rows: unknown[] = [];
  let last: Envelope<unknown[]> | undefined;
  let credits = 0;
  let first = true;
  for await (const page of ctx.client.pages<unknown>(call)) {
    ctx.ui.stop();
    credits += page.meta?.creditsCharged ?? 0;
    last = page;
    if (ctx.format === 'jsonl') process.stdout.write(jsonLines(page.data));
    else if (ctx.format === 'tsv' || ctx.format === 'csv') process.stdout.write(rowLines(viewOf(page.data), ctx.format, first));
    else rows.push(...page.data);
    first = false;
  }
  if (!last || ctx.format === 'jsonl' || ctx.format === 'tsv' || ctx.format === 'csv') return;
  await show(ctx, { data: rows, meta: { ...last.meta, creditsCharged: credits } }, true);
}
