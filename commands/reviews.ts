// `stays reviews PLATFORM LISTING_ID`: reviews of one listing (GET /v1/reviews).
import type { Command } from 'commander';
import { type GlobalOpts, pick, withCost, withGlobals } from './_lib/flags/options.js';
import { columnsHelp } from './_lib/output/columns.js';

const KEYS = ['url', 'country', 'limit', 'cursor', 'language', 'minRating', 'sort'] as const;

export function defineReviews(program: Command): void {
  const cmd = program
    .command('reviews')
    .description('Reviews of one listing, newest first by default')
    .argument('[platform]', 'airbnb, booking or vrbo; may be left out before a listing URL')
    .argument('[listingId]', 'platform-native id, a stays_ id, or a listing URL')
    .option('--url <url>', 'full listing URL instead of PLATFORM LISTING_ID')
    .option('--country <cc>', 'ISO-3166 alpha-2; a bare booking slug needs it')
    .option('--limit <n>', 'reviews per page, 1-100 (default 20)')
    .option('--cursor <cursor>', 'the next page: meta.pagination.nextCursor of the previous one')
    .option('--language <code>', 'ISO-639-1 language filter')
    .option('--min-rating <n>', "minimum rating on the listing's scale")
    .option('--sort <sort>', 'recent, rating_desc, rating_asc')
    .option('--all', 'walk every page');
  withGlobals(withCost(cmd))
    .addHelpText(
      'after',
      `
Examples:
  stays reviews airbnb 12345678 --limit 10 --sort rating_desc
  stays reviews booking pt/casa-azul --language pt --all -o csv > reviews.csv
${columnsHelp('review')}`,
    )
    .action(async (platform: string | undefined, listingId: string | undefined, opts: GlobalOpts & Record<string, unknown>) => {
      const [{ execute, runCall }, { ask }, { operations }] = await Promise.all([import('./_lib/runtime/run.js'), import('./_lib/runtime/prompt.js'), import('../src/client/operations.js')]);
      await execute(opts, async (ctx) => {
        const { platformOf } = await import('../src/core/listing-ref.js');
        let p = platform;
        let id = listingId;
        // A listing URL (--url or in place of PLATFORM) or a stays_<platform>_<id> id says which
        // platform it is; the service derives it.
        if (p !== undefined && id === undefined && !['airbnb', 'booking', 'vrbo', 'google'].includes(p) && platformOf(p) !== null) {
          [p, id] = [undefined, p];
        } else if (opts.url === undefined) {
          p = await ask(ctx.term, p, { name: 'PLATFORM', message: 'Platform?', choices: ['airbnb', 'booking', 'vrbo'], usage: 'stays reviews PLATFORM LISTING_ID' });
          id = await ask(ctx.term, id, { name: 'LISTING_ID', message: 'Listing id?', usage: 'stays reviews PLATFORM LISTING_ID' });
        }
        await runCall(ctx, operations.reviews({ ...pick(opts, KEYS), platform: p, listingId: id }), 'review', { paginates: true, all: opts.all === true });
      });
    });
}
