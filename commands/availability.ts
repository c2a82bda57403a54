// `stays availability PLATFORM ID…`: day-by-day availability (GET /v1/availability).
import type { Command } from 'commander';
import { type GlobalOpts, PLATFORMS, pick, withCost, withGlobals } from './_lib/flags/options.js';
import { columnsHelp } from './_lib/output/columns.js';

export function defineAvailability(program: Command): void {
  const cmd = program
    .command('availability')
    .description('Day-by-day availability of one or more listings of one platform')
    .argument('[platform]', `${PLATFORMS.join(', ')}; may be left out before a listing URL`)
    .argument('[ids...]', 'listing ids (airbnb: 1, others: up to 12)')
    .option('--url <url>', 'full listing URL instead of ids')
    .option('--country <cc>', 'ISO-3166 alpha-2; a bare booking slug needs it')
    .option('--start-date <date>', 'YYYY-MM-DD (required)')
    .option('--end-date <date>', 'YYYY-MM-DD, after --start-date, window at most 365 days (required)')
    .option('--only-available', 'only bookable dates');
  withGlobals(withCost(cmd))
    .addHelpText(
      'after',
      `
Examples:
  stays availability vrbo 4886746 4886747 --start-date 2027-03-01 --end-date 2027-04-01
  stays availability airbnb 12345678 --start-date 2027-03-01 --end-date 2027-03-15 --only-available -o csv
${columnsHelp('day')}`,
    )
    .action(async (platform: string | undefined, ids: string[], opts: GlobalOpts & Record<string, unknown>) => {
      const [{ execute, runCall }, { ask }, { operations }] = await Promise.all([import('./_lib/runtime/run.js'), import('./_lib/runtime/prompt.js'), import('../src/client/operations.js')]);
      const usage = 'stays availability PLATFORM ID… --start-date D --end-date D';
      await execute(opts, async (ctx) => {
        const { platformFromRef } = await import('./_lib/flags/listing-arg.js');
        let list: string[];
        [platform, list] = platformFromRef(platform, ids, opts.url);
        const p = await ask(ctx.term, platform, { name: 'PLATFORM', message: 'Platform?', choices: PLATFORMS, usage });
        if (list.length === 0 && opts.url === undefined) list = [await ask(ctx.term, undefined, { name: 'ID', message: 'Listing id?', usage })];
        const startDate = await ask(ctx.term, opts.startDate as string | undefined, { name: '--start-date', message: 'Start date (YYYY-MM-DD)?', usage });
        const endDate = await ask(ctx.term, opts.endDate as string | undefined, { name: '--end-date', message: 'End date (YYYY-MM-DD)?', after: startDate, usage });
        const which = list.length === 1 ? { listingId: list[0] } : list.length > 1 ? { listingIds: list } : {};
        const q = { ...pick(opts, ['url', 'country']), ...which, platform: p, startDate, endDate, onlyAvailable: opts.onlyAvailable ? 'true' : undefined };
        await runCall(ctx, operations.availability(q), 'day');
      });
    });
}
