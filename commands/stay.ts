// `stays stay get ID|URL [--part PART]` and `stays stay batch --file F|-`: Family S lookups
// (GET /v1/stays/{id}, /v1/stays/by-url, /v1/stays/{id}/{part}, POST /v1/stays/batch).
import { type Command, Option } from 'commander';
import { type GlobalOpts, withCost, withGlobals } from './_lib/flags/options.js';
import { STAY_PART_KINDS, columnsHelp, stayPartColumnsHelp } from './_lib/output/columns.js';
import { BILLING_TEXT } from '../src/core/billing.js';
import { io } from './_lib/runtime/io.js';

const PARTS = Object.keys(STAY_PART_KINDS);

export function defineStay(program: Command): void {
  const stay = program.command('stay').description('Airbnb stays (Family S): get one by id or room URL (or a part of it), batch up to 50');

  withGlobals(
    withCost(
      stay
        .command('get')
        .description('One stay by airbnb id or room URL; with --part, only that part of it')
        .argument('[id]', 'an airbnb listing id, a stays_airbnb_<id> id, or a room URL')
        .addOption(new Option('--part <part>', 'only this part of the stay').choices(PARTS)),
    ),
  )
    .option('--check-in <date>', 'YYYY-MM-DD: quote pricing for this stay (the whole stay or --part pricing)')
    .option('--check-out <date>', 'YYYY-MM-DD, after --check-in')
    .option('--adults <n>', 'adults (default 2)')
    .option('--children <n>', 'children (default 0); needs --child-ages')
    .option('--child-ages <list>', 'one age (0-17) per child, comma-separated')
    .option('--currency <code>', 'ISO-4217 currency of the quote (default USD)')
    .addHelpText(
      'after',
      `
Examples:
  stays stay get 12345678
  stays stay get https://www.airbnb.com/rooms/12345678
  stays stay get 12345678 --part reviews -o csv
  stays stay get 12345678 --json --jq '.data.amenities[].items[]'
  stays stay get 12345678 --part pricing --check-in 2027-03-01 --check-out 2027-03-04

A table shows the stay's fields one a line; a part with a list (photos, reviews, amenities,
availability) is a table of its items, the others are fields one a line. A lookup costs 1
credit on a live key (D26). Pricing is null without dates (spec rule 1); with --check-in and
--check-out it is the quote of that stay, at no extra cost.
${columnsHelp('stay')}
${stayPartColumnsHelp()}`,
    )
    .action(async (id: string | undefined, opts: GlobalOpts & Record<string, unknown> & { part?: string }) => {
      const [{ execute, runCall }, { ask }, { operations }, { pick, DATE_KEYS, PARTY_KEYS }, { UsageError }] = await Promise.all([
        import('./_lib/runtime/run.js'),
        import('./_lib/runtime/prompt.js'),
        import('../src/client/operations.js'),
        import('./_lib/flags/options.js'),
        import('./_lib/runtime/errors.js'),
      ]);
      await execute(opts, async (ctx) => {
        const stay = pick(opts, [...DATE_KEYS, ...PARTY_KEYS]);
        if (Object.keys(stay).length > 0 && opts.part !== undefined && opts.part !== 'pricing') {
          throw new UsageError(`--part ${opts.part} does not depend on a stay; dates and party go with the whole stay or --part pricing.`, 'check-in');
        }
        const i = await ask(ctx.term, id, { name: 'ID', message: 'Stay id or room URL?', usage: 'stays stay get ID|URL [--part PART]' });
        await runCall(ctx, operations.stay(i, opts.part, stay), opts.part === undefined ? 'stay' : STAY_PART_KINDS[opts.part as keyof typeof STAY_PART_KINDS]);
      });
    });

  withGlobals(
    withCost(
      stay
        .command('batch')
        .description('Up to 50 stays in one call, from a file of ids and room URLs')
        .requiredOption('--file <file>', 'entries: one id or room URL a line, a JSON array, or {"entries": […]}; - for stdin'),
    ),
  )
    .addHelpText(
      'after',
      `
The file holds one airbnb id or room URL a line (blank lines and # comments are ignored; a line
starting with http is a URL), or JSON: an array of {"id": "…"} / {"url": "…"} entries (bare
strings too), or {"entries": […]} as POST /v1/stays/batch takes it. At most 50 entries: more is
a usage error (exit 2) before any request; split the file and run one batch per part.

A line that is not an id or room URL is named by its line number on stderr and skipped; the
other lines are looked up, then the command exits 2. Entries that cannot be resolved are left
out of the rows and not billed: a warning line names each by its line, and "N of M entries
could not be resolved" follows on stderr (bare --json: in meta); --fail-on-partial then exits 7.
Each resolved entry costs ${BILLING_TEXT.stayLookup} on a live key (D26).

Examples:
  stays stay batch --file ids.txt
  printf '12345678\\nhttps://www.airbnb.com/rooms/87654321\\n' | stays stay batch --file - -o csv
  stays stay batch --file entries.json --json --jq '.meta.missing'
${columnsHelp('stay')}`,
    )
    .action(async (opts: GlobalOpts & { file: string }) => {
      const [{ execute, runCall }, { checkEntries, parseEntries, readEntriesFile, relabelEntries }, { operations }, { UsageError }, { EXIT }] = await Promise.all([
        import('./_lib/runtime/run.js'),
        import('./stay-entries.js'),
        import('../src/client/operations.js'),
        import('./_lib/runtime/errors.js'),
        import('./_lib/runtime/io.js'),
      ]);
      await execute(opts, async (ctx) => {
        const { good, bad } = checkEntries(parseEntries(await readEntriesFile(opts.file, ctx.term)));
        // A line the service would refuse is said by its number and left out; the others run.
        if (good.length === 0) throw new UsageError(`--file: no entry can be looked up: ${bad.join('; ')}`, 'file');
        for (const b of bad) io().stderr.write(`stays: ${b.replace(/\.$/, '')}; skipped\n`);
        await runCall(ctx, operations.stayBatch(good.map((e) => e.entry)), 'stay', {
          notices: (meta) => meta && { ...meta, warnings: meta.warnings?.map((w) => ({ ...w, message: relabelEntries(w.message, good) })) },
        });
        if (bad.length > 0) {
          io().stderr.write(`stays: exiting ${EXIT.usage} because ${bad.length} ${bad.length === 1 ? 'entry' : 'entries'} of --file could not be read as an id or room URL\n`);
          io().exitCode = EXIT.usage;
        }
      });
    });
}
