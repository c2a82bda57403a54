// `stays price PLATFORM LISTING_ID`: a live quote for one listing and one stay (GET /v1/price).
import type { Command } from 'commander';
import { type GlobalOpts, PARTY_KEYS, PLATFORMS, pick, withDates, withCost, withGlobals, withParty } from './_lib/flags/options.js';
import { columnsHelp } from './_lib/output/columns.js';

export function definePrice(program: Command): void {
  const cmd = program
    .command('price')
    .description('Live price for one listing and one stay (needs --check-in and --check-out)')
    .argument('[platform]', `${PLATFORMS.join(', ')}; may be left out before a listing URL`)
    .argument('[listingId]', 'platform-native id, a stays_ id, or a listing URL')
    .option('--country <cc>', 'ISO-3166 alpha-2; a bare booking slug needs it');
  withParty(withDates(cmd, true));
  withGlobals(withCost(cmd))
    .addHelpText(
      'after',
      `
Examples:
  stays price booking pt/casa-azul --check-in 2027-03-01 --check-out 2027-03-04
  stays price airbnb 12345678 --check-in 2027-03-01 --check-out 2027-03-04 --adults 3 --currency EUR --json
${columnsHelp('price')}`,
    )
    .action(async (platform: string | undefined, listingId: string | undefined, opts: GlobalOpts & Record<string, unknown>) => {
      const [{ execute, runCall }, { ask }, { operations }] = await Promise.all([import('./_lib/runtime/run.js'), import('./_lib/runtime/prompt.js'), import('../src/client/operations.js')]);
      await execute(opts, async (ctx) => {
        const { platformFromRef } = await import('./_lib/flags/listing-arg.js');
        [platform, [listingId]] = platformFromRef(platform, listingId === undefined ? [] : [listingId]);
        const p = await ask(ctx.term, platform, { name: 'PLATFORM', message: 'Platform?', choices: PLATFORMS, usage: 'stays price PLATFORM LISTING_ID --check-in D --check-out D' });
        const id = await ask(ctx.term, listingId, { name: 'LISTING_ID', message: 'Listing id?', usage: 'stays price PLATFORM LISTING_ID --check-in D --check-out D' });
        const checkIn = await ask(ctx.term, opts.checkIn as string | undefined, {
          name: '--check-in',
          message: 'Check-in (YYYY-MM-DD)?',
          usage: 'stays price PLATFORM LISTING_ID --check-in D --check-out D',
        });
        const checkOut = await ask(ctx.term, opts.checkOut as string | undefined, {
          name: '--check-out',
          message: 'Check-out (YYYY-MM-DD)?',
          after: checkIn,
          usage: 'stays price PLATFORM LISTING_ID --check-in D --check-out D',
        });
        await runCall(ctx, operations.price({ ...pick(opts, ['country', ...PARTY_KEYS]), platform: p, listingId: id, checkIn, checkOut }), 'price');
      });
    });
}
