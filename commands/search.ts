// `stays search [LOCATION]`: properties across platforms (GET /v1/search).
import type { Command } from 'commander';
import { DATE_KEYS, type GlobalOpts, PARTY_KEYS, pick, withDates, withCost, withGlobals, withParty } from './_lib/options.js';
import { columnsHelp } from './_lib/columns.js';

const KEYS = [...DATE_KEYS, ...PARTY_KEYS, 'rooms', 'propertyType', 'amenities', 'minBedrooms', 'priceMin', 'priceMax', 'minGuestRating', 'platforms', 'platform', 'limit', 'cursor', 'sort'] as const;

export function defineSearch(program: Command): void {
  const cmd = program
    .command('search')
    .description('Search properties across platforms (limit applies per platform)')
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
    .option('--min-guest-rating <n>', 'minimum guest rating on each platform\'s own scale')
    .option('--platforms <list>', 'airbnb,booking,vrbo,google (default: all four)')
    .option('--platform <name>', 'one platform (alias for --platforms)')
    .option('--limit <n>', 'results per platform, 1-40 (default 10)')
    .option('--cursor <cursor>', 'the next page: meta.pagination.nextCursor of the previous one')
    .option('--sort <sort>', 'recommended, price_asc, price_desc, rating_desc')
    .option('--all', 'walk every page');
  withGlobals(withCost(cmd))
    .addHelpText('after', `
Examples:
  stays search Lisbon
  stays search Lisbon --check-in 2027-03-01 --check-out 2027-03-04 --platforms airbnb,booking --sort price_asc
  stays search "38.72,-9.14" --limit 5 --json | jq '.data[].name'
  stays search Porto --all -o jsonl > porto.jsonl

A table fits the terminal: it cuts names and leaves out the least useful
columns, never a listing id. NIGHTLY comes first: --sort price_asc and
price_desc order by the nightly price.
${columnsHelp('property')}`)
    .action(async (location: string | undefined, opts: GlobalOpts & Record<string, unknown>) => {
      const [{ execute, runCall }, { ask }, { operations }] = await Promise.all([import('./_lib/run.js'), import('./_lib/prompt.js'), import('../src/client/operations.js')]);
      await execute(opts, async (ctx) => {
        const where = await ask(ctx.term, location, { name: 'LOCATION', message: 'Where?', usage: 'stays search LOCATION [flags]' });
        await runCall(ctx, operations.search({ ...pick(opts, KEYS), location: where }), { paginates: true, all: opts.all === true });
      });
    });
}
