// `stays watch add|list|show|rm|events|run` (issue 26, item 5): the account's watches (Family U
// routes /v1/watches), and `stays watch run`, which runs the due ones once (POST /v1/watches/run)
// and exits (cron-friendly: exit 10 when one triggered). The actions are in watch-run.ts.
import { type Command, Option } from 'commander';
import { type GlobalOpts, PLATFORMS, withDates, withGlobals, withParty } from './_lib/flags/options.js';
import { columnListHelp } from './_lib/output/columns.js';
import { WATCH_COLUMN_KEYS, WATCH_EVENT_COLUMN_KEYS } from './_lib/output/view-watches.js';

type Opts = GlobalOpts & Record<string, unknown>;

/** What every `watch add` form takes besides its call and its rules. */
function withWatchFlags(cmd: Command): Command {
  return cmd
    .option('--every <duration>', 'how often it runs: 15m (the least), 30m, 1h, 6h, 1d; a bare number is minutes (default 1h)')
    .option('--max-credits-per-day <n>', 'live keys: skip a run (free) that could take the day past N credits (default no cap)')
    .option('--name <text>', 'a label for people (at most 200 characters)');
}

const RUNS = `The first run is due at once; then every --every. A running stays serve runs due watches on its
own; without one, stays watch run (cron) runs those of the local store. Each run is billed as
the same call made by hand (sandbox keys: free). Events: stays watch events ID, and a signed
watch.triggered webhook (stays webhooks create --events watch.triggered). The raw body:
stays api /v1/watches --input body.json.`;

export function defineWatch(program: Command): void {
  const watch = program.command('watch').description('Watch a price, a calendar or a search: the service runs it on an interval and raises events (add, list, show, rm, events, run)');
  const add = watch.command('add').description('Create a watch: add price, add calendar or add search');

  const price = add
    .command('price')
    .description('Watch the price of one stay (GET /v1/price): --below AMOUNT, --drop PERCENT')
    .argument('[platform]', `${PLATFORMS.join(', ')}; may be left out before a listing URL`)
    .argument('[listingId]', 'platform-native id, a stays_ id, or a listing URL')
    .option('--country <cc>', 'ISO-3166 alpha-2; a bare booking slug needs it');
  withParty(withDates(price, true))
    .option('--below <amount>', 'event when the price goes under AMOUNT (in --currency; once as it crosses, not on every run under it)')
    .option('--drop <percent>', 'event when the price falls by at least PERCENT % from one run to the next')
    .addOption(new Option('--field <field>', 'which price the rules read (default nightly)').choices(['nightly', 'total']));
  withGlobals(withWatchFlags(price), { wait: false })
    .addHelpText(
      'after',
      `
${RUNS}

Examples:
  stays watch add price airbnb 100 --check-in 2027-03-01 --check-out 2027-03-04 --below 150 --every 15m   # sandbox listing 100 triggers every run
  stays watch add price booking pt/casa-azul --check-in 2027-03-01 --check-out 2027-03-04 --drop 10 --field total --name "Casa Azul, March"`,
    )
    .action(async (platform: string | undefined, listingId: string | undefined, opts: Opts) => {
      const [{ execute }, { addWatch }] = await Promise.all([import('./_lib/runtime/run.js'), import('./watch-run.js')]);
      await execute(opts, (ctx) => addWatch(ctx, 'price', [platform, listingId], opts));
    });

  const calendar = add
    .command('calendar')
    .description("Watch one listing's calendar (GET /v1/availability): --nights-available, --min-nights-changed")
    .argument('[platform]', `${PLATFORMS.join(', ')}; may be left out before a listing URL`)
    .argument('[listingId]', 'platform-native id, a stays_ id, or a listing URL')
    .option('--country <cc>', 'ISO-3166 alpha-2; a bare booking slug needs it')
    .option('--start-date <date>', 'YYYY-MM-DD, today or later (required); as days pass, runs watch the nights left')
    .option('--end-date <date>', 'YYYY-MM-DD, after --start-date, window at most 365 days (required)')
    .option('--nights-available', 'event when a night of the window that was taken becomes available')
    .option('--min-nights-changed', "event when a night's minimum stay changes (airbnb and vrbo state one)");
  withGlobals(withWatchFlags(calendar), { wait: false })
    .addHelpText(
      'after',
      `
${RUNS}

Examples:
  stays watch add calendar vrbo 100 --start-date 2027-03-01 --end-date 2027-04-01 --nights-available --min-nights-changed
  stays watch add calendar airbnb 12345678 --start-date 2027-06-01 --end-date 2027-06-30 --nights-available --every 6h`,
    )
    .action(async (platform: string | undefined, listingId: string | undefined, opts: Opts) => {
      const [{ execute }, { addWatch }] = await Promise.all([import('./_lib/runtime/run.js'), import('./watch-run.js')]);
      await execute(opts, (ctx) => addWatch(ctx, 'calendar', [platform, listingId], opts));
    });

  const search = add.command('search').description('Watch a search (GET /v1/search): --new-listings').argument('[location]', 'place name or a lat,lng pair');
  withParty(withDates(search))
    .option('--rooms <n>', 'rooms (default 1)')
    .option('--property-type <list>', 'hotel, apartment, house, villa, cottage, other (comma-separated)')
    .option('--amenities <list>', 'amenity tokens that must all match, e.g. pool,wifi')
    .option('--min-bedrooms <n>', 'minimum bedrooms')
    .option('--price-min <n>', 'minimum nightly price in --currency (needs dates)')
    .option('--price-max <n>', 'maximum nightly price in --currency (needs dates)')
    .option('--min-guest-rating <n>', "minimum guest rating on each platform's own scale")
    .option('--platforms <list>', 'airbnb,booking,vrbo,google (default: all four)')
    .option('--limit <n>', 'results per platform, 1-40 (default 10)')
    .option('--sort <sort>', 'recommended, price_asc, price_desc, rating_desc')
    .option('--new-listings', 'event when the search shows a listing (beyond the page too) that no search of the place had shown by the run before');
  withGlobals(withWatchFlags(search), { wait: false })
    .addHelpText(
      'after',
      `
${RUNS}

Examples:
  stays watch add search watch --new-listings --every 15m   # the sandbox location "watch" triggers every run
  stays watch add search Lisbon --check-in 2027-03-01 --check-out 2027-03-04 --platforms airbnb --price-max 120 --new-listings --every 6h`,
    )
    .action(async (location: string | undefined, opts: Opts) => {
      const [{ execute }, { addWatch }] = await Promise.all([import('./_lib/runtime/run.js'), import('./watch-run.js')]);
      await execute(opts, (ctx) => addWatch(ctx, 'search', [location], opts));
    });

  withGlobals(
    watch
      .command('list')
      .description("Your watches of this key's environment, newest first (active and ended; not deleted)")
      .option('--limit <n>', 'watches per page, 1-100 (default 100)')
      .option('--cursor <cursor>', 'the next page: meta.pagination.nextCursor of the previous one')
      .option('--all', 'walk every page'),
    { wait: false },
  )
    .addHelpText(
      'after',
      `
Examples:
  stays watch list
  stays watch list --json id,name,status,lastRun
${columnListHelp(WATCH_COLUMN_KEYS, 'params and rules are JSON; the last_ columns are of the last run.')}`,
    )
    .action(async (opts: Opts) => {
      const [{ execute }, { listWatches }] = await Promise.all([import('./_lib/runtime/run.js'), import('./watch-run.js')]);
      await execute(opts, (ctx) => listWatches(ctx, opts));
    });

  withGlobals(watch.command('show').description('One watch: its call, rules, last run and the credits its runs spent today').argument('<id>', 'wat_… id'), { wait: false })
    .addHelpText('after', `\nExamples:\n  stays watch show "$(stays watch list --jq '.data[0].id')"\n  stays watch show wat_… --json`)
    .action(async (id: string, opts: Opts) => {
      const [{ execute }, { showWatch }] = await Promise.all([import('./_lib/runtime/run.js'), import('./watch-run.js')]);
      await execute(opts, (ctx) => showWatch(ctx, id));
    });

  withGlobals(watch.command('rm').alias('delete').description('Delete a watch: no more runs; it and its events are gone from the store at once').argument('<id>', 'wat_… id'), { wait: false })
    .addHelpText('after', '\nAn unknown or already deleted id exits 3 (watch_not_found).\n\nExample:\n  stays watch rm wat_…')
    .action(async (id: string, opts: Opts) => {
      const [{ execute }, { removeWatch }] = await Promise.all([import('./_lib/runtime/run.js'), import('./watch-run.js')]);
      await execute(opts, (ctx) => removeWatch(ctx, id));
    });

  withGlobals(
    watch
      .command('events')
      .description("A watch's events, oldest first: each rule that held on a run, with what changed")
      .argument('<id>', 'wat_… id')
      .option('--limit <n>', 'events per page, 1-1000 (default 100)')
      .option('--cursor <cursor>', 'the next page: meta.pagination.nextCursor of the previous one')
      .option('--all', 'walk every page'),
    { wait: false },
  )
    .addHelpText(
      'after',
      `
Examples:
  stays watch events wat_…
  stays watch events "$(stays watch list --jq '.data[0].id')" -o csv
${columnListHelp(WATCH_EVENT_COLUMN_KEYS, 'price_before and price_after are the price the rule reads (field), in currency; changes is JSON (the nights or listings).')}`,
    )
    .action(async (id: string, opts: Opts) => {
      const [{ execute }, { listEvents }] = await Promise.all([import('./_lib/runtime/run.js'), import('./watch-run.js')]);
      await execute(opts, (ctx) => listEvents(ctx, id, opts));
    });

  const run = withGlobals(
    watch.command('run').description('Run every due watch of this key once (on the local store, or on the server of a base URL) and exit: 10 when one triggered, 11 when every due run failed, else 0'),
    {
      wait: false,
    },
  );
  // Piped, a run prints JSON lines by default (what cron appends to a file), not tsv.
  for (const o of run.options) if (o.long === '--output') o.description = 'output format (default: a table and a summary on a TTY, else jsonl: one event a line)';
  run
    .addHelpText(
      'after',
      `
For cron: the watches of the key's account and environment whose next run is due run once each
(POST /v1/watches/run; billed as by hand; sandbox keys free), and it exits 10 when any rule
held, 11 when watches were due and every run failed or ended, else 0 (stays help exit-codes).
Piped, each event is one JSON line (the event as stays watch events prints it, with the watch's
name and call); on a terminal, a summary. A run that failed (its call failed, or its key was
revoked) is said on stderr and recorded on the watch (stays watch show ID). Without a base URL
the runs are made on the local store and their watch.triggered webhooks are delivered before it
exits; with one (--base-url, STAYS_BASE_URL, config) that server makes them, as its stays serve
does every 30 s, and delivers the webhooks.
A crontab line that keeps every event:

  */15 * * * * stays watch run >> events.jsonl

Examples:
  stays watch run   # exit 10: the sandbox watches of listing 100 added above trigger
  stays watch run -o jsonl >> events.jsonl
${columnListHelp(WATCH_EVENT_COLUMN_KEYS, 'One row per event (-o tsv, -o csv).')}`,
    )
    .action(async (opts: Opts) => {
      const [{ execute }, { runDue }] = await Promise.all([import('./_lib/runtime/run.js'), import('./watch-run.js')]);
      await execute(opts, (ctx) => runDue(ctx, opts));
    });
}
