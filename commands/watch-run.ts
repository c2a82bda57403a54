// What the `stays watch` subcommands do once parsed. add builds the POST /v1/watches body from
// flags (the watched call's parameters are the flags of stays price, availability and search, as
// typed: the service checks them as those endpoints do); list, show, rm and events print the API's
// envelope through `show`, as every command does (view-watches.ts says how a watch and an event
// look). `run` runs the due watches of the key once (POST /v1/watches/run, in-process or on a
// server) and sets exit code 10 when one triggered.
import type { WatchRunView } from '../src/core/schemas/watch-runs.js';
import type { WatchEventView, WatchView } from '../src/core/schemas/watches.js';
import { operations } from '../src/client/operations.js';
import type { Ctx } from './_lib/runtime/context.js';
import { UsageError } from './_lib/runtime/errors.js';
import { PARTY_KEYS, PLATFORMS, pick } from './_lib/flags/options.js';
import { EXIT, io, jsonText } from './_lib/runtime/io.js';
import { runCall, show } from './_lib/runtime/run.js';
import { chalkAt } from './_lib/runtime/term.js';
import { watchEventView, watchRunEventView, watchView } from './_lib/output/view-watches.js';

type Opts = Record<string, unknown>;
type Form = 'price' | 'calendar' | 'search';

const SEARCH_KEYS = ['checkIn', 'checkOut', ...PARTY_KEYS, 'rooms', 'propertyType', 'amenities', 'minBedrooms', 'priceMin', 'priceMax', 'minGuestRating', 'platforms', 'limit', 'sort'] as const;
const MINUTES: Record<string, number> = { m: 1, min: 1, minute: 1, minutes: 1, h: 60, hour: 60, hours: 60, d: 1440, day: 1440, days: 1440 };

/** --every: whole minutes from "15m", "1h", "1d" or a bare number of minutes; the service checks the range (15 minutes to a week). */
function everyMinutes(v: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]+)?$/i.exec(v.trim());
  const unit = m ? MINUTES[(m[2] ?? 'm').toLowerCase()] : undefined;
  const minutes = m && unit ? Number(m[1]) * unit : Number.NaN;
  if (!Number.isInteger(minutes)) throw new UsageError(`--every must be a whole number of minutes, or hours or days: 15m, 30m, 1h, 1d (got ${JSON.stringify(v)}).`, 'every');
  return minutes;
}

/** The rules the form's flags ask for; none is a usage error naming the flags. */
function rulesOf(form: Form, opts: Opts): Record<string, unknown>[] {
  const rules: Record<string, unknown>[] = [];
  if (form === 'price') {
    const field = opts.field === 'total' ? { field: 'totalPrice' } : opts.field === 'nightly' ? { field: 'nightlyPrice' } : {};
    if (opts.below !== undefined) rules.push({ type: 'price_below', amount: opts.below, ...field });
    if (opts.drop !== undefined) rules.push({ type: 'price_drop', percent: opts.drop, ...field });
    if (rules.length === 0)
      throw new UsageError('Say what to watch for: --below AMOUNT (the price goes under it) or --drop PERCENT (it falls by that much from one run to the next), or both.', 'below');
  } else if (form === 'calendar') {
    if (opts.nightsAvailable === true) rules.push({ type: 'nights_available' });
    if (opts.minNightsChanged === true) rules.push({ type: 'min_nights_changed' });
    if (rules.length === 0) throw new UsageError('Say what to watch for: --nights-available, --min-nights-changed, or both.', 'nights-available');
  } else {
    if (opts.newListings === true) rules.push({ type: 'new_listings' });
    if (rules.length === 0) throw new UsageError('Say what to watch for: --new-listings (a listing no search of the place had shown by the run before).', 'new-listings');
  }
  return rules;
}

/** `stays watch add price|calendar|search …`: POST /v1/watches. */
export async function addWatch(ctx: Ctx, form: Form, args: (string | undefined)[], opts: Opts): Promise<void> {
  const [{ ask }, { platformFromRef }] = await Promise.all([import('./_lib/runtime/prompt.js'), import('./_lib/flags/listing-arg.js')]);
  // Flags first: a mistake there costs no prompt.
  const rules = rulesOf(form, opts);
  const intervalMinutes = typeof opts.every === 'string' ? everyMinutes(opts.every) : undefined;
  let call: { type: 'price' | 'availability' | 'search'; params: Record<string, unknown> };
  if (form === 'search') {
    const usage = 'stays watch add search LOCATION --new-listings';
    const location = await ask(ctx.term, args[0], { name: 'LOCATION', message: 'Where?', usage });
    call = { type: 'search', params: { ...pick(opts, SEARCH_KEYS), location } };
  } else {
    const usage =
      form === 'price'
        ? 'stays watch add price PLATFORM LISTING_ID --check-in D --check-out D --below N'
        : 'stays watch add calendar PLATFORM LISTING_ID --start-date D --end-date D --nights-available';
    const [given, [listingId]] = platformFromRef(args[0], args[1] === undefined ? [] : [args[1]]);
    const platform = await ask(ctx.term, given, { name: 'PLATFORM', message: 'Platform?', choices: PLATFORMS, usage });
    const id = await ask(ctx.term, listingId, { name: 'LISTING_ID', message: 'Listing id?', usage });
    if (form === 'price') {
      const checkIn = await ask(ctx.term, opts.checkIn as string | undefined, { name: '--check-in', message: 'Check-in (YYYY-MM-DD)?', usage });
      const checkOut = await ask(ctx.term, opts.checkOut as string | undefined, { name: '--check-out', message: 'Check-out (YYYY-MM-DD)?', after: checkIn, usage });
      call = { type: 'price', params: { ...pick(opts, ['country', ...PARTY_KEYS]), platform, listingId: id, checkIn, checkOut } };
    } else {
      const startDate = await ask(ctx.term, opts.startDate as string | undefined, { name: '--start-date', message: 'Start date (YYYY-MM-DD)?', usage });
      const endDate = await ask(ctx.term, opts.endDate as string | undefined, { name: '--end-date', message: 'End date (YYYY-MM-DD)?', after: startDate, usage });
      call = { type: 'availability', params: { ...pick(opts, ['country']), platform, listingId: id, startDate, endDate } };
    }
  }
  const body = {
    call,
    rules,
    ...(typeof opts.name === 'string' ? { name: opts.name } : {}),
    ...(intervalMinutes === undefined ? {} : { intervalMinutes }),
    ...(typeof opts.maxCreditsPerDay === 'string' ? { maxCreditsPerDay: opts.maxCreditsPerDay } : {}),
  };
  const env = await ctx.client.run<WatchView>(operations.watchCreate(body));
  await show(ctx, env, watchView);
  if (ctx.format === 'table' && ctx.fields === null && ctx.jq === null) {
    io().stderr.write(`Watch ${env.data.id} created; its first run is due now (stays watch run, or a running stays serve). Its events: stays watch events ${env.data.id}\n`);
  }
}

const paging = (opts: Opts) => pick(opts, ['limit', 'cursor']);

export const listWatches = (ctx: Ctx, opts: Opts) => runCall(ctx, operations.watches(paging(opts)), watchView, { paginates: true, all: opts.all === true });
export const showWatch = (ctx: Ctx, id: string) => runCall(ctx, operations.watch(id), watchView);
export const listEvents = (ctx: Ctx, id: string, opts: Opts) => runCall(ctx, operations.watchEvents(id, paging(opts)), watchEventView, { paginates: true, all: opts.all === true });

export async function removeWatch(ctx: Ctx, id: string): Promise<void> {
  const env = await ctx.client.run<WatchView>(operations.watchDelete(id));
  if (ctx.format !== 'table' || ctx.fields !== null || ctx.jq !== null) return show(ctx, env, watchView);
  ctx.ui.stop();
  io().stdout.write(`Deleted watch ${env.data.id}${env.data.name ? ` (${env.data.name})` : ''}: no more runs.\n`);
}

/** An event of `stays watch run`, with the watch it belongs to (the webhook's data carries the same). */
type RunEvent = WatchEventView & { name: string | null; call: WatchView['call'] };

/**
 * `stays watch run`: the due watches of the key's account and environment, each run once
 * (POST /v1/watches/run), in-process on the local store or on the server of the base URL.
 */
export async function runDue(ctx: Ctx, opts: { output?: string; json?: unknown; jq?: unknown }): Promise<void> {
  const { data: reports } = await ctx.client.run<WatchRunView[]>(operations.watchRun());
  // In-process, a run whose call became a job (a slow live fetch) ended `pending` and its job runs
  // in this process: it is finished (and billed) before the command exits, within --timeout. A
  // server's jobs run on there.
  if (ctx.inProcess && ctx.inProcess.runningJobs().length > 0) await ctx.inProcess.finishJobs(ctx.timeoutMs);
  const events: RunEvent[] = reports.flatMap((r) => r.events.map((e) => ({ ...e, name: r.name, call: r.call })));
  const credits = reports.reduce((n, r) => n + r.creditsCharged, 0);
  const envelope = {
    data: events,
    meta: {
      runs: reports.map((r) => ({ watchId: r.watchId, outcome: r.outcome, creditsCharged: r.creditsCharged, error: r.error, events: r.events.length, missedRuns: r.missedRuns ?? 0 })),
      creditsCharged: credits,
    },
  };
  ctx.ui.stop();
  // Piped without a format asked for: JSON lines (what a cron job appends to a file); a terminal gets a summary.
  const asked = opts.output !== undefined || opts.json !== undefined || opts.jq !== undefined;
  const format = asked ? ctx.format : ctx.term.outTTY ? 'table' : 'jsonl';
  if (ctx.fields !== null || ctx.jq !== null) {
    const { printSelected } = await import('./_lib/output/select.js');
    await printSelected(envelope, { fields: ctx.fields, jq: ctx.jq }, ctx.term);
  } else if (format === 'json') {
    io().stdout.write(jsonText(envelope, ctx.term.outTTY));
  } else if (events.length > 0 || format !== 'table') {
    const { printResult } = await import('./_lib/output/print.js');
    await printResult(envelope, format, ctx.term, watchRunEventView);
  }
  await summary(ctx, reports, events.length, credits, format === 'table');
  if (events.length > 0) io().exitCode = EXIT.watchTriggered;
  else if (allFailed(reports)) io().exitCode = EXIT.watchRunsFailed;
}

/** Watches were due and not one run was made: each failed or ended (a skipped or pending run is not a failure). */
const allFailed = (reports: WatchRunView[]) => reports.length > 0 && reports.every((r) => r.outcome === 'failed' || r.outcome === 'ended');

/** stderr: what did not run as it should (always), and on a terminal one line of what ran. */
async function summary(ctx: Ctx, reports: WatchRunView[], events: number, credits: number, human: boolean): Promise<void> {
  const c = await chalkAt(ctx.term.errColor);
  for (const r of reports) {
    // A server before this field says nothing of missed runs.
    const missed = r.missedRuns ?? 0;
    if (missed > 0) {
      io().stderr.write(
        `${c.yellow('warning:')} watch ${r.watchId}: ${missed} due run${missed === 1 ? ' was' : 's were'} skipped: nothing ran the due watches then (no stays serve, no stays watch run); they are not made up, this run is the latest interval's\n`,
      );
    }
    if (r.outcome === 'ok') continue;
    const why = r.error ? `: ${r.error.code}: ${r.error.message}` : '';
    const what = {
      failed: 'its run failed (nothing charged)',
      skipped: 'its run was skipped (free)',
      pending: 'its call ran as a job, billed when it ends; its rules look at the next run',
      ended: 'it ended: its call can no longer be made',
    }[r.outcome];
    io().stderr.write(`${c.yellow('warning:')} watch ${r.watchId}: ${what}${why}\n`);
  }
  if (!human) return;
  if (reports.length === 0) {
    io().stderr.write('No watch of this key was due (stays watch list shows when each runs next).\n');
    return;
  }
  const triggered = reports.filter((r) => r.events.length > 0).length;
  const ran = `${reports.length} watch${reports.length === 1 ? '' : 'es'} ran`;
  io().stderr.write(`${c.dim(`${ran}; ${triggered} triggered (${events} event${events === 1 ? '' : 's'}); ${credits} credits charged${ctx.keyEnv === 'sandbox' ? ' (sandbox)' : ''}`)}\n`);
}
