// `stays listings superhost|luxury|instant-book [LOCATION]`: the Family S presets
// (POST /v1/listings/{preset}), with the S search flags.
import type { Command } from 'commander';
import { type GlobalOpts, withCost, withGlobals } from './_lib/flags/options.js';
import { columnsHelp } from './_lib/output/columns.js';
import { withStayFlags, withStaySharedFlags } from './_lib/flags/stay-search.js';
import { BILLING_TEXT } from '../src/core/billing.js';
import { PRESET_MAX_ITEMS } from '../src/core/limits.js';

const PRESETS = {
  superhost: 'Stays whose host is a superhost (rows filtered: a page may hold fewer than --max-items)',
  luxury: 'Stays from 300 a night (--price-min is raised to 300 when lower)',
  'instant-book': 'Instant-book stays (experimental: rows are not filtered; a warning says so)',
} as const;

export function defineListings(program: Command): void {
  const listings = program.command('listings').description('Airbnb stay presets (Family S): superhost, luxury, instant-book');
  for (const [preset, description] of Object.entries(PRESETS)) {
    const cmd = listings
      .command(preset)
      .description(description)
      .argument('[location]', 'place name (or give --location-queries or --search-urls)')
      .option('--all', 'walk every page (resends the body with each next_page_token)');
    withStayFlags(withStaySharedFlags(cmd), '');
    withGlobals(withCost(cmd))
      .addHelpText(
        'after',
        `
Same body as stays search --family s; --max-items is at most ${PRESET_MAX_ITEMS} here (more is clamped, with a
warning). ${BILLING_TEXT.stayRow} on a live key (D26).

Examples:
  stays listings ${preset} Lisbon
  stays listings ${preset} Lisbon --check-in 2027-03-01 --check-out 2027-03-04 --max-items 20 -o csv
  stays listings ${preset} --location-queries Lisbon,Porto --fields id,title,host.is_superhost --all -o jsonl
${columnsHelp('stay')}`,
      )
      .action(async (location: string | undefined, opts: GlobalOpts & Record<string, unknown>) => {
        const [{ execute }, { ask }, { operations }, { placesGiven, runStaySearch, stayBody }] = await Promise.all([
          import('./_lib/runtime/run.js'),
          import('./_lib/runtime/prompt.js'),
          import('../src/client/operations.js'),
          import('./_lib/flags/stay-search.js'),
        ]);
        await execute(opts, async (ctx) => {
          const where = placesGiven(opts) ? location : await ask(ctx.term, location, { name: 'LOCATION', message: 'Where?', usage: `stays listings ${preset} LOCATION [flags]` });
          await runStaySearch(ctx, operations.stayListings(preset, stayBody(where, opts)), opts);
        });
      });
  }
}
