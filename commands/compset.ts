// `stays compset create|list|show|rm` (issue 27, item 2): the account's comp sets, saved sets of
// comparable listings (those observed within a radius of an anchor listing, optionally of one
// bedroom count), through /v1/compsets; their market metrics are `stays market --compset NAME`.
// A comp set prints as a table for people (one line each; `show`: one field a line) and as the
// API's JSON for scripts (-o json, --json, --jq).
import type { Command } from 'commander';
import { type GlobalOpts, withGlobals } from './_lib/flags/options.js';
import type { View } from './_lib/output/view-types.js';
import type { Ctx } from './_lib/runtime/context.js';

type Opts = GlobalOpts & Record<string, unknown>;
type Row = Record<string, unknown>;

const UNITS: Record<string, number> = { m: 1, km: 1000 };

/** --radius: metres from "2km", "500m", "1.5km" (a unit is required: 2 alone could be either). */
function radiusMeters(v: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*(km|m)$/i.exec(v.trim());
  if (!m) return null;
  return Math.round(Number(m[1]) * UNITS[m[2]!.toLowerCase()]! * 100) / 100;
}

const o = (v: unknown) => (v ?? {}) as Row;
const s = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
const n = (v: unknown) => (typeof v === 'number' ? v : null);
const anchorOf = (r: Row) => {
  const a = o(r.anchor);
  return s(a.platform) === null ? null : `${String(a.platform)}:${String(a.listingId)}`;
};
const radiusText = (r: Row) => {
  const m = n(r.radiusMeters);
  return m === null ? null : m >= 1000 ? `${m / 1000} km` : `${m} m`;
};
const bedroomsText = (r: Row) => (n(r.bedrooms) === null ? 'any' : String(r.bedrooms));
const platformsText = (r: Row) => (Array.isArray(r.platforms) ? r.platforms.join(',') : 'all');

/** `show`: how many listings it holds now and the nearest ten (-o json lists the API's nearest 200). */
const membersText = (r: Row) => {
  const count = n(r.memberCount);
  if (count === null) return null;
  if (count === 0) return '0 listings observed within the radius yet';
  const list = ((Array.isArray(r.members) ? r.members : []) as Row[]).slice(0, 10);
  const named = list.map((m) => `${String(m.platform)}:${String(m.listingId)} (${String(m.distanceMeters)} m)`).join(', ');
  const more = count > list.length ? `, and ${count - list.length} more (-o json lists them)` : '';
  return `${count} ${count === 1 ? 'listing' : 'listings'}; the nearest: ${named}${more}`;
};

/** How a comp set (or a list of them) prints on a table: a line each, or one field a line for one. */
function compSetView(data: unknown): View {
  const single = !Array.isArray(data);
  const rows = (single ? [data] : data) as Row[];
  return {
    kind: null,
    rows,
    single,
    table: [
      { header: 'ID', text: (r: Row) => s(r.id), id: true },
      { header: 'NAME', text: (r: Row) => s(r.name), min: 10 },
      { header: 'NEAR', text: anchorOf, id: true },
      { header: 'RADIUS', text: radiusText, align: 'right' as const },
      { header: 'BEDROOMS', text: bedroomsText, align: 'right' as const, drop: 2 },
      { header: 'PLATFORMS', text: platformsText, drop: 1 },
    ],
    fields: [
      { label: 'ID', text: (r: Row) => s(r.id), wrap: 'none' as const },
      { label: 'NAME', text: (r: Row) => s(r.name), wrap: 'words' as const },
      { label: 'NEAR', text: anchorOf, wrap: 'none' as const },
      { label: 'AT', text: (r: Row) => (n(o(r.anchor).lat) === null ? null : `${String(o(r.anchor).lat)}, ${String(o(r.anchor).lng)}`), wrap: 'none' as const },
      { label: 'RADIUS', text: radiusText },
      { label: 'BEDROOMS', text: bedroomsText },
      { label: 'PLATFORMS', text: platformsText },
      { label: 'CREATED', text: (r: Row) => s(r.createdAt), wrap: 'none' as const },
      { label: 'MEMBERS', text: membersText, wrap: 'list' as const },
    ],
    data: [
      { key: 'id', value: (r: Row) => s(r.id) },
      { key: 'name', value: (r: Row) => s(r.name) },
      { key: 'anchor_platform', value: (r: Row) => s(o(r.anchor).platform) },
      { key: 'anchor_listing_id', value: (r: Row) => s(o(r.anchor).listingId) },
      { key: 'anchor_lat', value: (r: Row) => n(o(r.anchor).lat) },
      { key: 'anchor_lng', value: (r: Row) => n(o(r.anchor).lng) },
      { key: 'radius_meters', value: (r: Row) => n(r.radiusMeters) },
      { key: 'bedrooms', value: (r: Row) => n(r.bedrooms) },
      { key: 'platforms', value: (r: Row) => (Array.isArray(r.platforms) ? r.platforms.join(',') : null) },
      { key: 'created_at', value: (r: Row) => s(r.createdAt) },
    ],
  };
}

/** Prints a comp set answer: tsv and csv with the flat columns above, anything else as every command does. */
async function print(ctx: Ctx, env: { data: unknown; meta?: unknown }): Promise<void> {
  const { show } = await import('./_lib/runtime/run.js');
  await show(ctx, env, compSetView);
}

export function defineCompset(program: Command): void {
  const compset = program
    .command('compset')
    .description('Comp sets: saved sets of comparable listings near one of yours, for stays market --compset (create, list, show, rm; free)')
    .addHelpText(
      'after',
      `
A comp set is the listings this deployment observed (with coordinates) within --radius of the
--near listing, of --bedrooms when given. Saved per account and key environment; free. Its
market metrics: stays market --compset NAME --from D --to D.

Examples:
  stays compset create "Alfama 2BR" --near airbnb:100 --radius 2km --bedrooms 2
  stays compset list
  stays compset show "Alfama 2BR"
  stays market --compset "Alfama 2BR" --from 2027-03-01 --to 2027-04-01`,
    );

  withGlobals(
    compset
      .command('create')
      .description('Save a comp set: the listings observed within --radius of --near (free)')
      .argument('<name>', 'a name for it, unique among your comp sets (at most 100 characters)')
      .requiredOption('--near <listing>', 'the anchor listing: platform:id (airbnb:123) or a stays_ id; it must have been observed with coordinates')
      .requiredOption('--radius <distance>', 'how far from the anchor: 500m, 2km (a unit is required)')
      .option('--bedrooms <n>', 'only listings observed with this many bedrooms')
      .option('--platforms <list>', 'only these platforms: airbnb,booking,vrbo,google (default: every enabled one)'),
    { wait: false },
  )
    .addHelpText('after', '\nExamples:\n  stays compset create "Alfama 2BR" --near airbnb:100 --radius 2km --bedrooms 2\n  stays compset create nearby --near vrbo:321 --radius 800m --json')
    .action(async (name: string, opts: Opts) => {
      const [{ execute }, { UsageError }, { operations }, { io }] = await Promise.all([
        import('./_lib/runtime/run.js'),
        import('./_lib/runtime/errors.js'),
        import('../src/client/operations.js'),
        import('./_lib/runtime/io.js'),
      ]);
      await execute(opts, async (ctx) => {
        const radius = radiusMeters(String(opts.radius));
        if (radius === null) throw new UsageError(`--radius must be a distance with its unit: 500m, 2km, 1.5km (got ${JSON.stringify(opts.radius)}).`, 'radius');
        const body: Record<string, unknown> = { name, near: opts.near, radiusMeters: radius };
        if (opts.bedrooms !== undefined) body.bedrooms = opts.bedrooms;
        if (typeof opts.platforms === 'string') body.platforms = opts.platforms;
        const env = await ctx.client.run<Row>(operations.compSetCreate(body));
        await print(ctx, env);
        if (ctx.format === 'table' && ctx.fields === null && ctx.jq === null) {
          io().stderr.write(`Comp set ${String(env.data.id)} saved. Its metrics: stays market --compset ${JSON.stringify(name)} --from YYYY-MM-DD --to YYYY-MM-DD\n`);
        }
      });
    });

  withGlobals(compset.command('list').alias('ls').description("Your comp sets of this key's environment, newest first"), { wait: false })
    .addHelpText('after', '\nExamples:\n  stays compset list\n  stays compset list -o csv')
    .action(async (opts: Opts) => {
      const [{ execute }, { operations }] = await Promise.all([import('./_lib/runtime/run.js'), import('../src/client/operations.js')]);
      await execute(opts, async (ctx) => {
        const env = await ctx.client.run<Row[]>(operations.compSets());
        await print(ctx, env);
      });
    });

  withGlobals(compset.command('show').description('One comp set: its anchor, radius, bedrooms and platforms').argument('<idOrName>', 'cs_… id or the name'), { wait: false })
    .addHelpText('after', '\nExamples:\n  stays compset show "Alfama 2BR"\n  stays compset show cs_… --json')
    .action(async (id: string, opts: Opts) => {
      const [{ execute }, { operations }] = await Promise.all([import('./_lib/runtime/run.js'), import('../src/client/operations.js')]);
      await execute(opts, async (ctx) => {
        const env = await ctx.client.run<Row>(operations.compSet(id));
        await print(ctx, env);
      });
    });

  withGlobals(compset.command('rm').alias('delete').description('Delete a comp set').argument('<idOrName>', 'cs_… id or the name'), { wait: false })
    .addHelpText('after', '\nAn unknown or already deleted comp set exits 3 (compset_not_found).\n\nExample:\n  stays compset rm "Alfama 2BR"')
    .action(async (id: string, opts: Opts) => {
      const [{ execute }, { operations }, { io }] = await Promise.all([import('./_lib/runtime/run.js'), import('../src/client/operations.js'), import('./_lib/runtime/io.js')]);
      await execute(opts, async (ctx) => {
        const env = await ctx.client.run<Row>(operations.compSetDelete(id));
        if (ctx.format !== 'table' || ctx.fields !== null || ctx.jq !== null) return print(ctx, env);
        ctx.ui.stop();
        io().stdout.write(`Deleted comp set ${String(env.data.id)} (${String(env.data.name)}).\n`);
      });
    });
}
