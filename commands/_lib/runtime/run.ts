// The flow every data command shares: context → request (waiting on a job, or not, or walking
// pages) → output → footer, and on failure the error on stderr with its exit code. Ctrl-C exits
// 130 and says how to pick the job up again.
import type { ApiCall } from '../../../src/client/http.js';
import type { Envelope } from '../../../src/client/types.js';
import { creditsOf, nextPageOf, withCredits } from '../../../src/client/meta.js';
import { StaysApiError, StaysWaitTimeoutError } from '../../../src/client/errors.js';
import { type Ctx, createContext } from './context.js';
import { type CostGuard, costGuard } from '../cost/guard.js';
import { UsageError, reportError } from './errors.js';
import { EXIT, jsonText, io } from './io.js';
import { type NoticeMeta, Notices } from '../output/notices.js';
import { type GlobalOpts, billable } from '../flags/options.js';
import { jsonLines, printFooter, printResult, rowLines } from '../output/print.js';
import { makeTerm } from './term.js';
import { type View, type ViewSpec, viewOf } from '../output/view.js';

export async function execute(opts: GlobalOpts, body: (ctx: Ctx) => Promise<void>): Promise<void> {
  let ctx: Ctx | undefined;
  // The command's streams; `exit` only when they are the real process's (runCli in a test has no
  // process of its own to end, nor a Ctrl-C to catch).
  const streams = io();
  const exit = streams.exit;
  let interrupted = false;
  const onSigint = () => {
    if (interrupted) return;
    interrupted = true;
    const job = ctx?.ui.jobId() ?? ctx?.inProcess?.runningJobs()[0] ?? null;
    ctx?.ui.stop();
    if (job && ctx?.inProcess) {
      // In-process the job runs in this command: it stops with it (failed, retryable, nothing charged).
      streams.stderr.write(`\nstays: interrupted; job ${job} ran in this command and was stopped, nothing charged\n`);
      const bound = new Promise((r) => setTimeout(r, 2000).unref());
      void Promise.race([ctx.close(), bound]).finally(() => exit?.(EXIT.interrupted));
      return;
    }
    if (job && ctx && opts.cancelOnInterrupt === true) {
      // --cancel-on-interrupt: the job is not wanted any more; cancel it, bounded, then exit.
      streams.stderr.write(`\nstays: interrupted; canceling job ${job}\n`);
      const c = ctx;
      const bound = new Promise((r) => setTimeout(r, 5000).unref());
      const cancel = import('../../../src/client/operations.js')
        .then(({ operations }) => c.client.submit(operations.jobCancel(job), { timeoutMs: 5000 }))
        .then(
          () => streams.stderr.write(`stays: canceled job ${job}; nothing was charged\n`),
          (e: Error) => streams.stderr.write(`stays: could not cancel job ${job} (${e.message}); cancel it with: stays jobs cancel ${job}\n`),
        );
      void Promise.race([cancel, bound]).finally(() => exit?.(EXIT.interrupted));
      return;
    }
    streams.stderr.write(`\nstays: interrupted${job ? `; job ${job} keeps running: stays jobs wait ${job} (or stop it, nothing charged: stays jobs cancel ${job})` : ''}\n`);
    exit?.(EXIT.interrupted);
  };
  // `on`, not `once`: a second Ctrl-C during the exit must not fall back to the default handler.
  if (exit) process.on('SIGINT', onSigint);
  // The remote bundle found this command needs the service (no base URL after all): nothing was
  // sent, and the full bundle runs it from the start (bin/stays, main.ts).
  let needsFull: unknown;
  try {
    ctx = await createContext(opts);
    await body(ctx);
  } catch (caught) {
    if ((caught as Error | null)?.name === 'NeedsFullBundle' && ctx === undefined) {
      needsFull = caught;
      return;
    }
    let e = caught;
    ctx?.ui.stop();
    if (e instanceof StaysWaitTimeoutError && ctx?.inProcess) {
      // Nothing else will ever run this job: it stops with the command (ctx.close() below).
      e.message = `Timed out after ${Math.round(ctx.timeoutMs / 1000)} s waiting for job ${e.jobId}, which ran in this command (in-process) and is stopped: nothing was charged. Give it a longer --timeout, or run stays serve and pass --base-url so jobs outlive the command.`;
    }
    if (ctx) e = explainAuth(e, ctx);
    streams.exitCode = await reportError(e, ctx?.term ?? makeTerm(opts), ctx?.jsonErrors ?? opts.json !== undefined);
  } finally {
    if (exit) process.off('SIGINT', onSigint);
    // biome-ignore lint/correctness/noUnsafeFinally: the remote bundle's NeedsFullBundle goes up to main.ts, which runs the full bundle, once the SIGINT handler is off and before anything else runs.
    if (needsFull !== undefined) throw needsFull;
    // Jobs this command ran and gave up on were failed by close(); their upstream calls need not finish.
    const abandoned = (ctx?.inProcess?.runningJobs().length ?? 0) > 0;
    await ctx?.close();
    if (abandoned) exit?.();
    // Nothing should be left running; if a dependency keeps a handle open, do not hang the shell.
    if (exit) setTimeout(() => exit(), 2000).unref();
  }
}

const SOURCE = { flag: '--api-key', env: 'STAYS_API_KEY', config: 'the config' } as const;

/**
 * A 401 in CLI words: which setting is missing or does not fit the mode, and how to set it (the
 * API's message speaks of Authorization headers, which a CLI user never writes). The same words
 * with --json: the envelope keeps the API's type and code, its message is this explanation (issue
 * 36, item 19: a script's log should say why as a person's terminal does).
 */
function explainAuth(e: unknown, ctx: Ctx): unknown {
  if (!(e instanceof StaysApiError) || e.status !== 401) return e;
  const say = (message: string) => new StaysApiError({ ...e.body, message }, e.status, e.jobId);
  const profile = ctx.profileName === 'default' ? '' : ` --profile ${ctx.profileName}`;
  if (ctx.inProcess && ctx.keySource === null && ctx.sharedStore !== null) {
    return say(
      `No API key, and the command runs in-process on ${ctx.sharedStore}, where in-process commands do not create accounts: that database is shared. Use the key of an account there (stays admin account create, then stays admin key create --account ACCT), given with --api-key, STAYS_API_KEY or stays auth login${profile}; or point at a server with --base-url; or unset STAYS_DATABASE_URL to use the local sandbox store.`,
    );
  } else if (ctx.inProcess && ctx.keySource !== 'local' && ctx.keySource !== null) {
    return say(
      `The API key from ${SOURCE[ctx.keySource]} is not a key of ${ctx.sharedStore ?? 'the local in-process store'}, and no base URL is set, so the command ran in-process. To use it against a server, set the server's root: stays config set base-url URL${profile}, or STAYS_BASE_URL=URL, or --base-url URL. To use the local sandbox instead, drop the key${ctx.keySource === 'config' ? ` (stays config unset api-key${profile})` : ''}.`,
    );
  } else if (!ctx.inProcess && ctx.keySource === null) {
    return say(
      `No API key for ${ctx.base} (base URL from ${ctx.baseSource === 'flag' ? '--base-url' : ctx.baseSource === 'env' ? 'STAYS_BASE_URL' : `the config${profile}`}). Set one: stays config set api-key KEY${profile}, or STAYS_API_KEY=KEY, or --api-key KEY.`,
    );
  } else if (!ctx.inProcess && ctx.keySource !== null && ctx.keySource !== 'local') {
    return say(
      `${ctx.base} refused the API key from ${SOURCE[ctx.keySource]} (${e.code}): ${e.message.replace(/\.$/, '')}. Check the key (stays config set api-key KEY${profile}, or STAYS_API_KEY) and that it belongs to this server.`,
    );
  }
  return e;
}

/** Whether stdout carries the whole envelope (bare --json or -o json): notices are in its meta. */
const wholeEnvelope = (ctx: Ctx) => ctx.format === 'json' && ctx.fields === null && ctx.jq === null;

/** Rewrites the meta the notices are read from (stay batch names the file's lines, not entries[i]). */
export type NoticeView = (meta: NoticeMeta | undefined) => NoticeMeta | undefined;

/** What a command adds to a table of its whole result: columns from every row (`table`), a summary line on stderr (`summary`). */
export interface TableExtras {
  table?: (v: View) => View;
  summary?: (data: unknown) => string | null;
}

/**
 * How a result prints besides its view: `paginates` (the footer names the next page: --cursor, or
 * 'token' for --next-page-token), `notices` (the meta the notices read), `extras` (tables).
 */
export interface ShowOptions {
  paginates?: boolean | 'token';
  notices?: NoticeView;
  extras?: TableExtras;
  /**
   * The result is one object the table shows as rows (market's figures, a calendar's changes, the
   * inferred bookings, the match candidates): -o jsonl prints those rows one a line, and --json
   * FIELDS picks fields of each, as tsv and csv print them (issue 36, item 16). -o json and --jq
   * still get the whole answer.
   */
  rows?: boolean;
}

/**
 * Prints one result: the data on stdout with the view its command names (view.ts: a Kind or a
 * builder; null where the command prints only JSON), the footer (tables) and the notices on stderr.
 */
export async function show(ctx: Ctx, envelope: { data: unknown; meta?: unknown }, view: ViewSpec | null, o: ShowOptions = {}): Promise<void> {
  ctx.ui.stop();
  const asRows = o.rows === true && view !== null && !Array.isArray(envelope.data) && (ctx.fields !== null || (ctx.format === 'jsonl' && ctx.jq === null));
  const shown = asRows ? { ...envelope, data: viewOf(envelope.data, view).rows } : envelope;
  if (ctx.fields !== null || ctx.jq !== null) {
    const { printSelected } = await import('../output/select.js');
    await printSelected(shown, { fields: ctx.fields, jq: ctx.jq }, ctx.term);
  } else {
    await printTable(ctx, shown, view, o.paginates ?? false, o.extras ?? {});
  }
  const notices = new Notices();
  const meta = envelope.meta as NoticeMeta | undefined;
  notices.add(o.notices ? o.notices(meta) : meta);
  await notices.print(ctx.term, { quiet: wholeEnvelope(ctx), failOnPartial: ctx.failOnPartial });
}

/** A result in ctx's format; on a table, with the command's extras and the footer. */
async function printTable(ctx: Ctx, envelope: { data: unknown; meta?: unknown }, view: ViewSpec | null, paginates: boolean | 'token', extras: TableExtras): Promise<void> {
  await printResult(envelope, ctx.format, ctx.term, view, ctx.projection, extras.table);
  if (ctx.format !== 'table') return;
  const line = extras.summary?.(envelope.data);
  if (line) io().stderr.write(`${line}\n`);
  await printFooter(envelope as Parameters<typeof printFooter>[0], ctx.term, paginates);
}

/**
 * Sends an API call the way the flags ask (wait, --no-wait, --all) and prints the outcome with the
 * view the command names for its result.
 */
export async function runCall(
  ctx: Ctx,
  call: ApiCall,
  view: ViewSpec | null,
  o: { paginates?: boolean; all?: boolean; order?: RowOrder | null; notices?: NoticeView; extras?: TableExtras; rows?: boolean } = {},
): Promise<void> {
  // --dry-run (billable commands): the plan on stdout, nothing sent.
  if (billable.dryRun) return (await import('../cost/dry-run.js')).printDryRun(ctx, call, { all: o.all === true });
  const guard = costGuard(ctx, call, { all: o.all === true, flags: billable.flags });
  if (o.all) return walkPages(ctx, call, view, guard, o.order ?? null, o.extras);
  // A Family S search (a POST body) pages with --next-page-token.
  const paginates = o.paginates === true && call.method === 'POST' ? 'token' : o.paginates;
  const shown: ShowOptions = { paginates, notices: o.notices, extras: o.extras, rows: o.rows };
  await guard?.before(0, 1);
  if (!ctx.wait) {
    const r = await ctx.client.submit(call);
    if (r.accepted) {
      const id = r.body.data.jobId;
      // The 202 is the job, not the resource: --jq runs on it; --json FIELDS named the resource's.
      if (ctx.jq !== null) await (await import('../output/select.js')).printSelected(r.body, { fields: null, jq: ctx.jq }, ctx.term);
      else io().stdout.write(jsonText(r.body, ctx.term.outTTY));
      if (ctx.inProcess) return finishInProcess(ctx, id);
      if (ctx.format === 'table') io().stderr.write(`stays: job ${id} accepted; wait for it with: stays jobs wait ${id}\n`);
      return;
    }
    return show(ctx, r.body, view, shown);
  }
  const envelope = await ctx.client.run(call);
  await show(ctx, envelope, view, shown);
}

/**
 * --no-wait in-process: the job runs in this command, so the command finishes it before exiting
 * (within --timeout; past that it is stopped, nothing charged), and says so on stderr.
 */
async function finishInProcess(ctx: Ctx, jobId: string): Promise<void> {
  io().stderr.write(`stays: job ${jobId} runs in this command (in-process); finishing it before exiting. Pass --base-url to leave jobs to a server.\n`);
  if (await ctx.inProcess!.finishJobs(ctx.timeoutMs)) {
    io().stderr.write(`stays: job ${jobId} finished; see it with: stays jobs get ${jobId}\n`);
    return;
  }
  io().stderr.write(`stays: job ${jobId} did not finish within ${Math.round(ctx.timeoutMs / 1000)} s and is stopped; nothing was charged\n`);
  io().exitCode = EXIT.waitTimeout;
}

/** The order of a sorted walk's rows: the service's own comparator for the sort asked for. */
// biome-ignore lint/suspicious/noExplicitAny: rows of any resource; each comparator is the service's own for its sort.
export type RowOrder = (a: any, b: any) => number;

/**
 * --all: every page, each waited on when it runs as a job. Line formats (jsonl, tsv, csv, without
 * --json FIELDS or --jq) stream page by page; the others print one result whose data is every
 * page's rows and whose meta is the last page's, with creditsCharged summed over pages. `order`:
 * the pages are each sorted but not as a whole (search's limit is per platform, so page two may
 * start below page one's last row): every page is collected, then the rows are sorted once with
 * the service's comparator (stable: ties keep the order the pages gave them) before anything is
 * printed, in every format. Notices
 * are gathered over all pages and printed once at the end. A page without pagination, a failed
 * page or a refusal by the cost guard stops the walk with an error after what was fetched is
 * printed: the walk never ends short in silence.
 */
async function walkPages(ctx: Ctx, call: ApiCall, view: ViewSpec | null, guard: CostGuard | null, order: RowOrder | null, extras: TableExtras = {}): Promise<void> {
  if (!ctx.wait) throw new UsageError('--all needs to wait for each page; drop --no-wait.', 'all');
  const streaming = order === null && ctx.fields === null && ctx.jq === null && (ctx.format === 'jsonl' || ctx.format === 'tsv' || ctx.format === 'csv');
  const rows: unknown[] = [];
  const notices = new Notices();
  let last: Envelope<unknown[]> | undefined;
  let credits = 0;
  let page = 1;
  let stopped: unknown = null;
  try {
    await guard?.before(0, 1);
    for await (const got of ctx.client.pages<unknown>(call)) {
      ctx.ui.stop();
      credits += creditsOf(got.meta);
      last = got;
      notices.add(got.meta as NoticeMeta);
      if (streaming && ctx.format === 'jsonl') io().stdout.write(jsonLines(got.data));
      else if (streaming) io().stdout.write(rowLines(viewOf(got.data, view, ctx.projection), ctx.format as 'tsv' | 'csv', page === 1));
      else rows.push(...got.data);
      page++;
      if (nextPageOf(got.meta)?.hasMore) await guard?.before(credits, page);
    }
  } catch (e) {
    if (last === undefined) throw e;
    stopped = e;
  }
  ctx.ui.stop();
  if (last && !streaming) {
    // Array.prototype.sort is stable.
    if (order !== null) rows.sort(order);
    const envelope = { data: rows, meta: withCredits(last.meta, credits) };
    if (ctx.fields !== null || ctx.jq !== null) {
      const { printSelected } = await import('../output/select.js');
      await printSelected(envelope, { fields: ctx.fields, jq: ctx.jq }, ctx.term);
    } else {
      await printTable(ctx, envelope, view, true, extras);
    }
  } else if (last && stopped === null && ctx.term.errTTY) {
    io().stderr.write(`stays: ${page - 1} page${page === 2 ? '' : 's'}, ${credits} credits charged\n`);
  }
  await notices.print(ctx.term, { quiet: wholeEnvelope(ctx), failOnPartial: ctx.failOnPartial });
  if (stopped !== null) throw stopped;
}
