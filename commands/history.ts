// `stays history price|calendar|bookings|listings|export`: what this deployment observed over time (issue
// 26), read back through GET /v1/history/* (free, cursor-paged) in-process or from a server.
// --chart draws a series as a line chart that fits the terminal (braille on a terminal, ASCII
// when piped); export streams every stored observation page by page as CSV or JSON lines, or
// writes it to a Parquet file (--out) a row group at a time.
import { type Command, Option } from 'commander';
import { type GlobalOpts, PLATFORMS, pick, withGlobals } from './_lib/flags/options.js';
import { columnListHelp, columnsHelp } from './_lib/output/columns.js';
import { FORMATS } from './_lib/output/print.js';

const WINDOW_KEYS = ['from', 'to', 'limit', 'cursor', 'country'] as const;

/** --from, --to and the page flags every history read takes. */
function withWindow(cmd: Command, what: string): Command {
  return cmd
    .option('--from <instant>', `${what} seen at or after: YYYY-MM-DD or an ISO 8601 date-time (default: 400 days before --to)`)
    .option('--to <instant>', `${what} seen at or before (default: now; at most 400 days after --from)`)
    .option('--limit <n>', `${what} per page, 1-1000 (default 100)`)
    .option('--cursor <cursor>', 'the next page: meta.pagination.nextCursor of the previous one')
    .option('--all', 'walk every page');
}

/** PLATFORM LISTING_ID, or a listing URL / stays_ id alone (its platform is read off it), as stays price takes them. */
async function listingArgs(term: import('./_lib/runtime/term.js').Term, platform: string | undefined, listingId: string | undefined, usage: string) {
  const [{ platformFromRef }, { ask }] = await Promise.all([import('./_lib/flags/listing-arg.js'), import('./_lib/runtime/prompt.js')]);
  let id = listingId;
  [platform, [id]] = platformFromRef(platform, id === undefined ? [] : [id]);
  // A stays_ id names its platform for the service; a URL's platform was read above.
  const p = platform ?? (await ask(term, undefined, { name: 'PLATFORM', message: 'Platform?', choices: PLATFORMS, usage }));
  return { platform: p, listingId: await ask(term, id, { name: 'LISTING_ID', message: 'Listing id?', usage }) };
}

export function defineHistory(program: Command): void {
  const history = program
    .command('history')
    .description('What this deployment observed over time: price, calendar and supply history; export (free)')
    .addHelpText(
      'after',
      `
Free: history reads the deployment's own store (live calls record what they see). A sandbox key
reads fixed synthetic histories (docs/sandbox.md), so these run with no setup. --from and --to
pick when the observations were seen (default: the 400 days up to now); the sandbox's price and
calendar histories lie before the stay, so the examples set --to.

Examples:
  stays history price vrbo 321 --check-in 2027-03-01 --check-out 2027-03-04 --to 2027-03-01 --chart
  stays history listings Lisbon --platforms airbnb,vrbo -o csv
  stays history export --since 2026-01-01 -o csv > observations.csv`,
    );

  const price = history
    .command('price')
    .description("A listing's price history for one stay: one row per change")
    .argument('[platform]', `${PLATFORMS.join(', ')}; may be left out before a listing URL or a stays_ id`)
    .argument('[listingId]', 'platform-native id, a stays_ id, or a listing URL')
    .option('--check-in <date>', 'YYYY-MM-DD (required)')
    .option('--check-out <date>', 'YYYY-MM-DD, after --check-in (required)')
    .option('--adults <n>', 'adults of the quoted stay (default 2)')
    .option('--country <cc>', 'ISO-3166 alpha-2; a bare booking slug needs it')
    .option('--chart', 'a line chart of the nightly price over time (every page), sized to the terminal; ASCII when piped');
  withGlobals(withWindow(price, 'Values'), { wait: false })
    .addHelpText(
      'after',
      `
Examples:
  stays history price vrbo 321 --check-in 2027-03-01 --check-out 2027-03-04 --to 2027-03-01
  stays history price vrbo 321 --check-in 2027-03-01 --check-out 2027-03-04 --to 2027-03-01 --chart
  stays history price stays_vrbo_321 --check-in 2027-03-01 --check-out 2027-03-04 --from 2027-02-01 --to 2027-03-01 -o csv
  stays history price vrbo 321 --check-in 2027-03-01 --check-out 2027-03-04 --to 2027-03-01 --json | jq '.data[] | {firstSeen, nightlyPrice}'
${columnsHelp('price_history')}`,
    )
    .action(async (platform: string | undefined, listingId: string | undefined, opts: GlobalOpts & Record<string, unknown>) => {
      const [{ execute }, { ask }, { operations }] = await Promise.all([import('./_lib/runtime/run.js'), import('./_lib/runtime/prompt.js'), import('../src/client/operations.js')]);
      const usage = 'stays history price PLATFORM LISTING_ID --check-in D --check-out D';
      await execute(opts, async (ctx) => {
        const listing = await listingArgs(ctx.term, platform, listingId, usage);
        const checkIn = await ask(ctx.term, opts.checkIn as string | undefined, { name: '--check-in', message: 'Check-in (YYYY-MM-DD)?', usage, past: true });
        const checkOut = await ask(ctx.term, opts.checkOut as string | undefined, { name: '--check-out', message: 'Check-out (YYYY-MM-DD)?', after: checkIn, usage, past: true });
        const call = operations.historyPrice({ ...pick(opts, [...WINDOW_KEYS, 'adults']), ...listing, checkIn, checkOut });
        const { runHistory } = await import('./history-run.js');
        await runHistory(ctx, call, opts, 'price');
      });
    });

  const calendar = history
    .command('calendar')
    .description("A listing's calendar over time: each night's changes (available, minimum stay) and the latest state")
    .argument('[platform]', `${PLATFORMS.join(', ')}; may be left out before a listing URL or a stays_ id`)
    .argument('[listingId]', 'platform-native id, a stays_ id, or a listing URL')
    .option('--start-date <date>', 'YYYY-MM-DD: the first night (required)')
    .option('--end-date <date>', 'YYYY-MM-DD, after --start-date: the morning after the last night, at most 365 nights (required)')
    .addOption(new Option('--start <date>', 'same as --start-date').hideHelp())
    .addOption(new Option('--end <date>', 'same as --end-date').hideHelp())
    .option('--country <cc>', 'ISO-3166 alpha-2; a bare booking slug needs it')
    .option('--chart', 'a line chart of how many nights of the window were available over time (every page)');
  withGlobals(withWindow(calendar, 'Changes'), { wait: false })
    .addHelpText(
      'after',
      `
Tables, tsv, csv and jsonl print the changes; the latest state of each night is the summary line
(tables) and data.latest in --json.

Examples:
  stays history calendar vrbo 321 --start-date 2027-02-01 --end-date 2027-02-15 --to 2027-03-01
  stays history calendar vrbo 321 --start-date 2027-02-01 --end-date 2027-02-15 --to 2027-03-01 --chart
  stays history calendar vrbo 321 --start-date 2027-02-01 --end-date 2027-02-15 --to 2027-03-01 --json | jq '.data.latest[] | select(.available == false) | .date'
${columnsHelp('calendar_change')}`,
    )
    .action(async (platform: string | undefined, listingId: string | undefined, opts: GlobalOpts & Record<string, unknown>) => {
      const [{ execute }, { ask }, { operations }] = await Promise.all([import('./_lib/runtime/run.js'), import('./_lib/runtime/prompt.js'), import('../src/client/operations.js')]);
      const usage = 'stays history calendar PLATFORM LISTING_ID --start-date D --end-date D';
      await execute(opts, async (ctx) => {
        const listing = await listingArgs(ctx.term, platform, listingId, usage);
        const startDate = await ask(ctx.term, (opts.startDate ?? opts.start) as string | undefined, { name: '--start-date', message: 'First night (YYYY-MM-DD)?', usage, past: true });
        const endDate = await ask(ctx.term, (opts.endDate ?? opts.end) as string | undefined, { name: '--end-date', message: 'End date (YYYY-MM-DD)?', after: startDate, usage, past: true });
        const call = operations.historyAvailability({ ...pick(opts, WINDOW_KEYS), ...listing, startDate, endDate });
        const { runHistory } = await import('./history-run.js');
        await runHistory(ctx, call, opts, 'calendar');
      });
    });

  const bookings = history
    .command('bookings')
    .description("A listing's inferred bookings: each night booked, blocked, unbookable or available, from its observed calendar (its method named in the answer)")
    .argument('[platform]', `${PLATFORMS.join(', ')}, or PLATFORM:ID; may be left out before a listing URL or a stays_ id`)
    .argument('[listingId]', 'platform-native id, a stays_ id, or a listing URL')
    .option('--from <date>', 'YYYY-MM-DD: the first night (required)')
    .option('--to <date>', 'YYYY-MM-DD, after --from: the morning after the last night, at most 400 nights (required)')
    .option('--country <cc>', 'ISO-3166 alpha-2; a bare booking slug needs it')
    .option('--method <name>', "the inference: calendar-diff/1 or calendar-diff/2 (default: the service's, named in the answer; docs/analytics.md)")
    .option('--min-confidence <n>', 'from 0 to 1: nights the method is less sure of are answered unknown (their likely state beside), less sure bookings left out');
  withGlobals(bookings, { wait: false })
    .addHelpText(
      'after',
      `
Tables, tsv, csv and jsonl print the inferred guest bookings (--json FIELDS picks fields of
each); the nights by state, the method and the sample are the summary line (tables) and the rest
of -o json. How each night is classified, and
how often it is right on the simulated world: docs/analytics.md.

Examples:
  stays history bookings airbnb:4242 --from 2027-03-01 --to 2027-04-01
  stays history bookings airbnb 4242 --from 2027-03-01 --to 2027-04-01 -o csv
  stays history bookings airbnb:4242 --from 2027-03-01 --to 2027-04-01 --json | jq '.data.counts'
  stays history bookings airbnb:4242 --from 2027-03-01 --to 2027-04-01 --method calendar-diff/2
  stays history bookings airbnb:4242 --from 2027-03-01 --to 2027-04-01 --method calendar-diff/2 --min-confidence 0.9
${columnsHelp('inferred_booking')}`,
    )
    .action(async (platform: string | undefined, listingId: string | undefined, opts: GlobalOpts & Record<string, unknown>) => {
      const [{ execute, runCall }, { ask }, { operations }, { bookingsSummary }] = await Promise.all([
        import('./_lib/runtime/run.js'),
        import('./_lib/runtime/prompt.js'),
        import('../src/client/operations.js'),
        import('./_lib/output/view-history.js'),
      ]);
      const usage = 'stays history bookings PLATFORM:ID --from D --to D';
      // PLATFORM:ID as one argument (airbnb:4242), as compare --listings takes pairs. An unknown
      // platform (foo:4242) goes to the service too, whose refusal names PLATFORM (errors.ts).
      const pair = platform !== undefined && listingId === undefined ? /^([A-Za-z]+):(?!\/\/)(.+)$/.exec(platform) : null;
      await execute(opts, async (ctx) => {
        const listing = pair ? { platform: pair[1]!, listingId: pair[2]! } : await listingArgs(ctx.term, platform, listingId, usage);
        const from = await ask(ctx.term, opts.from as string | undefined, { name: '--from', message: 'First night (YYYY-MM-DD)?', usage, past: true });
        const to = await ask(ctx.term, opts.to as string | undefined, { name: '--to', message: 'Morning after the last night (YYYY-MM-DD)?', after: from, usage, past: true });
        const call = operations.historyBookings({ ...pick(opts, ['country', 'method', 'minConfidence']), ...listing, from, to });
        await runCall(ctx, call, 'inferred_booking', { extras: { summary: (d) => bookingsSummary(d as Record<string, unknown>) }, rows: true });
      });
    });

  const listings = history
    .command('listings')
    .description('Listings searches of a place showed, with first and last seen: supply over time, new and gone')
    .argument('[location]', 'the place searched, as given to search')
    .option('--platforms <list>', `comma list of ${PLATFORMS.join(', ')} (default: every enabled one)`);
  withGlobals(withWindow(listings, 'Listings'), { wait: false })
    .addHelpText(
      'after',
      `
Tables add SEEN OVER TIME: the span the rows cover in slices, filled while the listing was seen.

Examples:
  stays history listings Lisbon --from 2026-01-01 --to 2026-12-31
  stays history listings Lisbon --platforms airbnb --from 2026-06-01 --to 2026-12-31 --all -o csv
  stays history listings Lisbon --from 2026-01-01 --to 2026-12-31 --all --json | jq '.data[] | select(.inLatestSearch == false) | .listingId'
${columnsHelp('seen_listing')}`,
    )
    .action(async (location: string | undefined, opts: GlobalOpts & Record<string, unknown>) => {
      const [{ execute }, { ask }, { operations }] = await Promise.all([import('./_lib/runtime/run.js'), import('./_lib/runtime/prompt.js'), import('../src/client/operations.js')]);
      await execute(opts, async (ctx) => {
        const where = await ask(ctx.term, location, { name: 'LOCATION', message: 'Where?', usage: 'stays history listings LOCATION' });
        const call = operations.historyListings({ ...pick(opts, [...WINDOW_KEYS, 'platforms']), location: where });
        const { runHistory } = await import('./history-run.js');
        await runHistory(ctx, call, opts, 'listings');
      });
    });

  const exp = history
    .command('export')
    .description('Every stored observation last seen since a date, streamed as CSV or JSON lines, or written to a Parquet file, for analysis elsewhere')
    .option('--since <instant>', 'YYYY-MM-DD or an ISO 8601 date-time (required)')
    .option('--limit <n>', 'observations per request, 1-1000 (default 500); every page is written as it arrives')
    .option('--collection <idOrName>', 'only the listings a collection of yours ever discovered (stays collect create)')
    .option('--out <file>', 'with -o parquet (required there): the file to write, put in place once whole; - for stdout when it is not a terminal');
  withGlobals(exp, { wait: false });
  // Parquet is this command's alone: the other commands print, this one may write a file.
  for (const o of exp.options) if (o.long === '--output') o.choices([...FORMATS, 'parquet']).description = 'jsonl (the default), csv, tsv, or parquet with --out FILE';
  exp
    .addHelpText(
      'after',
      `
-o jsonl (the default), csv or tsv stream to stdout; -o parquet writes the same columns to
--out FILE, a row group at a time, into a temp file beside it renamed into place at the end (a
failed export leaves no file): first_seen and last_seen are UTC timestamps (milliseconds),
times_seen a 64-bit integer, the rest strings (value as JSON text), currency and value nullable.
In-process it reads the local store; with --base-url, the server's (GET
/v1/history/observations). A sandbox key's export is empty: sandbox histories are synthetic,
made per listing when asked.

Examples:
  stays history export --since 2026-01-01 -o csv > observations.csv
  stays history export --since 2026-11-01T00:00:00Z | jq -c 'select(.kind == "quote")'
  stays history export --since 2026-01-01 -o parquet --out observations.parquet
  stays history export --since 2026-11-01 --collection lisbon -o parquet --out lisbon.parquet
  duckdb -c "SELECT kind, count(*) FROM 'observations.parquet' GROUP BY kind"
${columnListHelp(['platform', 'listing_id', 'kind', 'key', 'currency', 'value', 'source', 'first_seen', 'last_seen', 'times_seen'], 'value is the normalized values observed, as JSON.')}`,
    )
    .action(async (opts: GlobalOpts & Record<string, unknown>) => {
      const [{ execute }, { exportObservations }] = await Promise.all([import('./_lib/runtime/run.js'), import('./history-run.js')]);
      // The context knows the printed formats; -o parquet prints nothing (errors as text, not JSON lines).
      await execute(opts.output === 'parquet' ? { ...opts, output: undefined } : opts, (ctx) => exportObservations(ctx, opts));
    });
}
