// `stays search [LOCATION]`: properties across platforms (GET /v1/search), or airbnb stays in the
// Family S form (POST /v1/search, /v1/search/with-details) with --family s or any S-only flag.
import { type Command, Option } from 'commander';
import { DATE_KEYS, type GlobalOpts, PARTY_KEYS, pick, withDates, withCost, withGlobals, withParty } from './_lib/flags/options.js';
import { columnsHelp } from './_lib/output/columns.js';
import { stayRowsCost } from '../src/core/billing.js';
import { withStayFlags } from './_lib/flags/stay-search.js';

const KEYS = [...DATE_KEYS, ...PARTY_KEYS, 'rooms', 'propertyType', 'amenities', 'minBedrooms', 'priceMin', 'priceMax', 'minGuestRating', 'platforms', 'platform', 'limit', 'cursor', 'sort'] as const;

export function defineSearch(program: Command): void {
  const cmd = program
    .command('search')
    .description('Search properties across platforms (limit applies per platform), or airbnb stays (--family s)')
    .argument('[location]', 'place name or a lat,lng pair')
    // An unquoted `stays search New York` arrives as two arguments: say what to type instead of
    // commander's "too many arguments".
    .allowExcessArguments()
    .hook('preAction', (c) => {
      if (c.args.length > 1) c.error(`error: Quote a multi-word location: stays search "${c.args.join(' ')}"`, { code: 'commander.excessArguments', exitCode: 2 });
    });
  withDates(cmd);
  withParty(cmd)
    .option('--rooms <n>', 'rooms (default 1)')
    .option('--property-type <list>', 'hotel, apartment, house, villa, cottage, other (comma-separated)')
    .option('--amenities <list>', 'amenity tokens that must all match, e.g. pool,wifi')
    .option('--min-bedrooms <n>', 'minimum bedrooms')
    .option('--price-min <n>', 'minimum nightly price in --currency (needs dates)')
    .option('--price-max <n>', 'maximum nightly price in --currency (needs dates)')
    .option('--min-guest-rating <n>', "minimum guest rating on each platform's own scale")
    .option('--platforms <list>', 'airbnb,booking,vrbo,google (default: all four)')
    .option('--platform <name>', 'one platform (alias for --platforms)')
    .option('--limit <n>', 'results per platform, 1-40 (default 10)')
    .option('--cursor <cursor>', 'the next page: meta.pagination.nextCursor of the previous one')
    .option('--sort <sort>', 'recommended, price_asc, price_desc, rating_desc')
    .option('--all', 'walk every page')
    .addOption(new Option('--family <family>', 'u: properties across platforms (default); s: airbnb stays (POST /v1/search); any S: flag selects s').choices(['u', 's']));
  withStayFlags(cmd).option('--with-details', `S: each row enriched like stays stay get (POST /v1/search/with-details; ${stayRowsCost(1, true)} credits a row)`);
  withGlobals(withCost(cmd))
    .addHelpText(
      'after',
      `
Examples:
  stays search Lisbon
  stays search Lisbon --check-in 2027-03-01 --check-out 2027-03-04 --platforms airbnb,booking --sort price_asc
  stays search "38.72,-9.14" --limit 5 --json | jq '.data[].name'
  stays search Porto --all -o jsonl > porto.jsonl

A table fits the terminal: it cuts names and leaves out the least useful
columns, never a listing id. NIGHTLY comes first: --sort price_asc and
price_desc order by the nightly price. --limit is per platform, so each
page is sorted on its own: --all with --sort price_asc, price_desc or
rating_desc collects every page, then prints all rows in one order (so
-o jsonl prints at the end rather than page by page).

The Family S form (--family s, or any flag marked S:) searches airbnb stays with a JSON body
(POST /v1/search): LOCATION or --location-queries or --search-urls; the dates, --adults,
--children, --price-min/--price-max, --min-bedrooms and --currency apply to both forms; the
others marked S: only to it, and --platforms, --platform, --limit, --cursor, --sort, --rooms,
--child-ages, --property-type, --amenities and --min-guest-rating only to the U form (mixing
them is a usage error, exit 2). --all resends the body with each next_page_token.

Examples (Family S):
  stays search Lisbon --family s --max-items 20
  stays search --location-queries Lisbon,Porto --fields id,title,pricing.price -o csv
  stays search Lisbon --with-details --max-items 5 --json
${columnsHelp('property', { label: 'for properties (the default form)' })}
${columnsHelp('stay', { label: 'for stays (Family S: --family s, any S: flag, --with-details)', rules: false })}`,
    )
    .action(async (location: string | undefined, opts: GlobalOpts & Record<string, unknown>) => {
      const [{ execute, runCall }, { ask }, { operations }] = await Promise.all([import('./_lib/runtime/run.js'), import('./_lib/runtime/prompt.js'), import('../src/client/operations.js')]);
      const [{ familyOf }, { UsageError }] = await Promise.all([import('./_lib/flags/family.js'), import('./_lib/runtime/errors.js')]);
      await execute(opts, async (ctx) => {
        const form = familyOf(opts);
        if ('error' in form) throw new UsageError(form.error, 'family');
        if (form.family === 's') {
          const [{ placesGiven, runStaySearch, stayBody }, { FAMILY_S_SEARCH_KEYS }, { S_DEFAULT_MAX_ITEMS }] = await Promise.all([
            import('./_lib/flags/stay-search.js'),
            import('../src/core/search-family.js'),
            import('../src/core/limits.js'),
          ]);
          const where = placesGiven(opts) ? location : await ask(ctx.term, location, { name: 'LOCATION', message: 'Where?', usage: 'stays search LOCATION --family s [flags]' });
          const body = stayBody(where, opts);
          // POST /v1/search is Family S only when the body has an S-only key (D8): --family s
          // alone states the default page size, which changes nothing else.
          if (!Object.keys(body).some((k) => (FAMILY_S_SEARCH_KEYS as readonly string[]).includes(k))) body.maxItems = S_DEFAULT_MAX_ITEMS;
          await runStaySearch(ctx, opts.withDetails === true ? operations.staySearchWithDetails(body) : operations.staySearch(body), opts);
          return;
        }
        const where = await ask(ctx.term, location, { name: 'LOCATION', message: 'Where?', usage: 'stays search LOCATION [flags]' });
        // --all with a sort: the pages are merged into one order (run.ts), the service's own.
        const order = opts.all === true && typeof opts.sort === 'string' ? (await import('../src/core/search-sort.js')).searchComparator(opts.sort) : null;
        await runCall(ctx, operations.search({ ...pick(opts, KEYS), location: where }), 'property', { paginates: true, all: opts.all === true, order });
      });
    });
}
