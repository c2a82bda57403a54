// `stays listing PLATFORM ID`: full detail of one listing (GET /v1/listing/{platform}/{id}).
import type { Command } from 'commander';
import { DATE_KEYS, type GlobalOpts, PARTY_KEYS, PLATFORMS, pick, withDates, withCost, withGlobals, withParty } from './_lib/flags/options.js';
import { columnsHelp } from './_lib/output/columns.js';

export function defineListing(program: Command): void {
  const cmd = program
    .command('listing')
    .description('Full detail of one listing; with dates, a best-effort price')
    .argument('[platform]', `${PLATFORMS.join(', ')}; may be left out before a listing URL`)
    .argument('[id]', 'platform-native id, a stays_ id, or a listing URL')
    .option('--country <cc>', 'ISO-3166 alpha-2; disambiguates a bare booking slug');
  withParty(withDates(cmd));
  withGlobals(withCost(cmd))
    .addHelpText(
      'after',
      `
Examples:
  stays listing airbnb 12345678
  stays listing https://www.airbnb.com/rooms/12345678
  stays listing booking pt/casa-azul --check-in 2027-03-01 --check-out 2027-03-04 --json

A table shows the listing's fields one a line; with dates, its price too.
${columnsHelp('property')}`,
    )
    .action(async (platform: string | undefined, id: string | undefined, opts: GlobalOpts & Record<string, unknown>) => {
      const [{ execute, runCall }, { ask }, { operations }] = await Promise.all([import('./_lib/runtime/run.js'), import('./_lib/runtime/prompt.js'), import('../src/client/operations.js')]);
      await execute(opts, async (ctx) => {
        const { platformFromRef } = await import('./_lib/flags/listing-arg.js');
        [platform, [id]] = platformFromRef(platform, id === undefined ? [] : [id]);
        const p = await ask(ctx.term, platform, { name: 'PLATFORM', message: 'Platform?', choices: PLATFORMS, usage: 'stays listing PLATFORM ID' });
        const i = await ask(ctx.term, id, { name: 'ID', message: 'Listing id?', usage: 'stays listing PLATFORM ID' });
        await runCall(ctx, operations.listing(p, i, pick(opts, ['country', ...DATE_KEYS, ...PARTY_KEYS])), 'property');
      });
    });
}
