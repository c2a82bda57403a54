// `stays compare`: one property across sellers (GET /v1/price-compare), in google mode
// (--name/--location/--google-hotel-id) or direct mode (--listings platform:id,…).
import type { Command } from 'commander';
import { DATE_KEYS, type GlobalOpts, PARTY_KEYS, pick, withDates, withCost, withGlobals, withParty } from './_lib/flags/options.js';
import { columnsHelp } from './_lib/output/columns.js';

export function defineCompare(program: Command): void {
  const cmd = program
    .command('compare')
    .description("Compare one property's price across sellers (compare on total price)")
    .option('--listings <list>', 'direct mode: 2 to 6 platform:listingId pairs or listing URLs, e.g. airbnb:123,booking:fr/slug')
    .option('--name <name>', 'google mode: property name')
    .option('--location <place>', 'google mode: place or lat,lng')
    .option('--google-hotel-id <id>', 'google mode: Google hotel id (instead of --name/--location)')
    .option('--listing <ref>', 'with --matched: one listing, platform:listingId or a listing URL')
    .option('--matched', 'direct mode over --listing and its matches on the other platforms (stays match; up to 5)');
  withParty(withDates(cmd, true));
  withGlobals(withCost(cmd))
    .addHelpText(
      'after',
      `
Examples:
  stays compare --name "Hotel Aurora" --location Lisbon --check-in 2027-03-01 --check-out 2027-03-04
  stays compare --listings airbnb:12345678,booking:pt/casa-azul --check-in 2027-03-01 --check-out 2027-03-04 --json
  stays compare --listing airbnb:62959578 --matched --check-in 2027-03-01 --check-out 2027-03-04

Under a table, stderr names the cheapest offer (platform and listing id, or the
seller) and the median. TOTAL comes first: offers compare on the total price,
ranked only among offers whose totals include the same fees and taxes; the
others follow, and a warning on stderr names them and what differs.
${columnsHelp('offer')}`,
    )
    .action(async (opts: GlobalOpts & Record<string, unknown>) => {
      const [{ execute, runCall }, { UsageError }, { operations }] = await Promise.all([import('./_lib/runtime/run.js'), import('./_lib/runtime/errors.js'), import('../src/client/operations.js')]);
      await execute(opts, async (ctx) => {
        const q = pick(opts, ['listings', 'name', 'location', 'googleHotelId', ...DATE_KEYS, ...PARTY_KEYS]);
        if (opts.matched === true || opts.listing !== undefined) q.listings = await (await import('./match-run.js')).matchedListings(ctx, opts);
        if (!q.listings && !q.name && !q.location && !q.googleHotelId) {
          throw new UsageError('Say what to compare: --listings platform:id,… (direct mode) or --name/--location/--google-hotel-id (google mode).', 'listings');
        }
        await runCall(ctx, operations.compare(q), 'offer');
      });
    });
}
