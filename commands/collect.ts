// `stays collect create|list|show|pause|resume|rm` (issue 38, items 1 and 7): the account's
// collections, standing orders to cover a whole market (every listing of an area, its calendar
// each cadence, within a daily budget), through /v1/collections. A collection prints as a table
// for people (one line each; `show`: one field a line) and as the API's JSON for scripts
// (-o json, --json, --jq).
import type { Command } from 'commander';
import { type GlobalOpts, withGlobals } from './_lib/flags/options.js';
import type { View } from './_lib/output/view-types.js';
import type { Ctx } from './_lib/runtime/context.js';

type Opts = GlobalOpts & Record<string, unknown>;
type Row = Record<string, unknown>;

const o = (v: unknown) => (v ?? {}) as Row;
const s = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
const n = (v: unknown) => (typeof v === 'number' ? v : null);

/** What a collection covers, in words. */
const areaText = (r: Row) => (s(r.location) !== null ? String(r.location) : Array.isArray(r.bbox) ? `box ${r.bbox.join(',')}` : s(r.compSet) !== null ? `comp set ${String(r.compSet)}` : null);
const platformsText = (r: Row) => (Array.isArray(r.platforms) ? r.platforms.join(',') : null);
const budgetText = (r: Row) => (n(r.maxCreditsPerDay) === null ? null : `${(r.maxCreditsPerDay as number).toLocaleString('en-US')}/day`);
const ratesText = (r: Row) => {
  const by = o(r.ratesByPlatform);
  const parts = Object.entries(by).map(([p, v]) => `${p} ${String(v)}`);
  return parts.length === 0 ? s(r.rates) : `${String(r.rates)} (${parts.join(', ')})`;
};
/** `show` and `--dry-run`: what a pass would track and cost now, and what it rests on. */
const estimateText = (r: Row) => {
  const e = o(r.estimate);
  if (n(e.creditsPerDay) === null) return null;
  const per = Object.entries(o(e.byPlatform))
    .map(([p, v]) => `${p} ${String(o(v).tracked)}/${String(o(v).listings)} listings, ${String(o(v).creditsPerDay)}/day`)
    .join('; ');
  const c = (x: unknown) => (typeof x === 'number' ? x.toLocaleString('en-US') : '?');
  // A server older than the discovery's estimate gives tracking alone.
  const total = n(e.totalCreditsPerDay) === null ? '' : `${c(e.totalCreditsPerDay)} credits/day with discovery (${c(e.discoveryCreditsPerPass)} a pass); `;
  return `${total}${c(e.creditsPerDay)} credits/day (${c(e.creditsPerPass)} a pass) tracking ${c(e.tracked)} of ${c(e.listings)} listings${e.sampled === true ? ' (a sample)' : ''}${per === '' ? '' : `: ${per}`}. ${String(e.basis ?? '')}`;
};
const progressText = (r: Row) => {
  const p = o(r.progress);
  const found = n(p.listingsDiscovered) ?? 0;
  const tracked = n(p.listingsTracked) ?? 0;
  const pass = s(p.lastCompletePass);
  return `${String(p.phase ?? '')}: ${found.toLocaleString('en-US')} found, ${tracked.toLocaleString('en-US')} tracked${pass === null ? ', no complete pass yet' : `, last pass ${pass}`}`;
};

function collectionView(data: unknown): View {
  const single = !Array.isArray(data);
  const rows = (single ? [data] : data) as Row[];
  return {
    kind: null,
    rows,
    single,
    table: [
      { header: 'ID', text: (r: Row) => s(r.id), id: true },
      { header: 'NAME', text: (r: Row) => s(r.name), min: 10 },
      { header: 'AREA', text: areaText, min: 10 },
      { header: 'STATUS', text: (r: Row) => s(r.status) },
      { header: 'BUDGET', text: budgetText, align: 'right' as const, drop: 2 },
      { header: 'FOUND', text: (r: Row) => String(n(o(r.progress).listingsDiscovered) ?? 0), align: 'right' as const, drop: 1 },
      { header: 'PLATFORMS', text: platformsText, drop: 3 },
    ],
    fields: [
      { label: 'ID', text: (r: Row) => s(r.id), wrap: 'none' as const },
      { label: 'NAME', text: (r: Row) => s(r.name), wrap: 'words' as const },
      { label: 'AREA', text: areaText, wrap: 'words' as const },
      { label: 'PLATFORMS', text: platformsText },
      { label: 'STATUS', text: (r: Row) => s(r.status) },
      { label: 'HORIZON', text: (r: Row) => (n(r.horizonNights) === null ? null : `${String(r.horizonNights)} nights`) },
      { label: 'CADENCE', text: (r: Row) => s(r.cadence) },
      { label: 'RATES', text: ratesText, wrap: 'words' as const },
      { label: 'BUDGET', text: budgetText },
      { label: 'PROGRESS', text: progressText, wrap: 'words' as const },
      { label: 'SPENT TODAY', text: (r: Row) => String(n(o(r.progress).creditsSpentToday) ?? 0) },
      { label: 'ESTIMATE', text: estimateText, wrap: 'words' as const },
      { label: 'CREATED', text: (r: Row) => s(r.createdAt), wrap: 'none' as const },
    ],
    data: [
      { key: 'id', value: (r: Row) => s(r.id) },
      { key: 'name', value: (r: Row) => s(r.name) },
      { key: 'location', value: (r: Row) => s(r.location) },
      { key: 'bbox', value: (r: Row) => (Array.isArray(r.bbox) ? r.bbox.join(',') : null) },
      { key: 'comp_set', value: (r: Row) => s(r.compSet) },
      { key: 'platforms', value: platformsText },
      { key: 'status', value: (r: Row) => s(r.status) },
      { key: 'horizon_nights', value: (r: Row) => n(r.horizonNights) },
      { key: 'cadence', value: (r: Row) => s(r.cadence) },
      { key: 'rates', value: (r: Row) => s(r.rates) },
      { key: 'max_credits_per_day', value: (r: Row) => n(r.maxCreditsPerDay) },
      { key: 'listings_discovered', value: (r: Row) => n(o(r.progress).listingsDiscovered) },
      { key: 'listings_tracked', value: (r: Row) => n(o(r.progress).listingsTracked) },
      { key: 'credits_spent_today', value: (r: Row) => n(o(r.progress).creditsSpentToday) },
      { key: 'created_at', value: (r: Row) => s(r.createdAt) },
    ],
  };
}

async function print(ctx: Ctx, env: { data: unknown; meta?: unknown }): Promise<void> {
  const { show } = await import('./_lib/runtime/run.js');
  await show(ctx, env, collectionView);
}

/** Runs one call of a collection and prints its answer. */
async function one(opts: Opts, call: (ops: typeof import('../src/client/operations.js')['operations']) => unknown, after?: (ctx: Ctx, data: Row) => string | null): Promise<void> {
  const [{ execute }, { operations }, { io }] = await Promise.all([import('./_lib/runtime/run.js'), import('../src/client/operations.js'), import('./_lib/runtime/io.js')]);
  await execute(opts, async (ctx) => {
    const env = await ctx.client.run<Row>(call(operations) as Parameters<typeof ctx.client.run>[0]);
    await print(ctx, env);
    const note = after?.(ctx, env.data);
    if (note && ctx.format === 'table' && ctx.fields === null && ctx.jq === null) io().stderr.write(`${note}\n`);
  });
}

/** `run` for people: one line per collection, pass and outcome (a pass may have thousands of items; -o json has each). */
function runSummaryView(data: unknown): View {
  const groups = new Map<string, Row>();
  for (const r of (data ?? []) as Row[]) {
    const work = r.item === 'discover' ? 'discovery' : 'tracking';
    const k = `${String(r.collectionId)}|${String(r.pass)}|${work}|${String(r.outcome)}`;
    const g = groups.get(k) ?? { collectionId: r.collectionId, pass: r.pass, work, outcome: r.outcome, items: 0, creditsCharged: 0, found: null, reason: null };
    g.items = (g.items as number) + 1;
    g.creditsCharged = (g.creditsCharged as number) + (n(r.creditsCharged) ?? 0);
    if (n(r.found) !== null) g.found = r.found;
    g.reason ??= s(r.reason);
    groups.set(k, g);
  }
  const rows = [...groups.values()];
  return {
    kind: null,
    rows,
    single: false,
    table: [
      { header: 'COLLECTION', text: (r: Row) => s(r.collectionId), id: true },
      { header: 'PASS', text: (r: Row) => String(r.pass), align: 'right' as const },
      { header: 'WORK', text: (r: Row) => s(r.work) },
      { header: 'OUTCOME', text: (r: Row) => s(r.outcome) },
      { header: 'ITEMS', text: (r: Row) => String(r.items), align: 'right' as const },
      { header: 'CREDITS', text: (r: Row) => String(r.creditsCharged), align: 'right' as const },
      { header: 'FOUND', text: (r: Row) => (n(r.found) === null ? '' : String(r.found)), align: 'right' as const, drop: 2 },
      { header: 'REASON', text: (r: Row) => s(r.reason), min: 10, drop: 1 },
    ],
    fields: [],
    data: [
      { key: 'collection_id', value: (r: Row) => s(r.collectionId) },
      { key: 'pass', value: (r: Row) => n(r.pass) },
      { key: 'work', value: (r: Row) => s(r.work) },
      { key: 'outcome', value: (r: Row) => s(r.outcome) },
      { key: 'items', value: (r: Row) => n(r.items) },
      { key: 'credits_charged', value: (r: Row) => n(r.creditsCharged) },
      { key: 'found', value: (r: Row) => n(r.found) },
      { key: 'reason', value: (r: Row) => s(r.reason) },
    ],
  };
}

export function defineCollect(program: Command): void {
  const collect = program
    .command('collect')
    .description('Collections: cover a whole market, every listing of an area and its calendar each cadence, within a daily budget (create, list, show, pause, resume, rm, run, status)')
    .addHelpText(
      'after',
      `
A collection covers one area (--location, --bbox or --compset) on --platforms, keeps each
listing's calendar --horizon nights ahead, fetched again each --cadence, and never spends more
than --max-credits-per-day credits a UTC day. Saved per account and key environment; creating,
changing and reading one is free; its passes are billed as the same calls made by hand.

Examples:
  stays collect create lisbon --location Lisbon --max-credits-per-day 5000
  stays collect create alfama --bbox -9.14,38.70,-9.12,38.72 --platforms airbnb,vrbo --cadence weekly --max-credits-per-day 800
  stays collect list
  stays collect show lisbon
  stays collect pause alfama
  stays collect run            # cron without a server: what is left of each current pass, now`,
    );

  withGlobals(
    collect
      .command('create')
      .description('Start covering a market (free; its passes spend up to --max-credits-per-day a day)')
      .argument('<name>', 'a name for it, unique among your collections (at most 100 characters)')
      .option('--location <place>', 'a place, as given to search (Lisbon)')
      .option('--bbox <box>', 'a box: minLng,minLat,maxLng,maxLat in degrees')
      .option('--compset <idOrName>', 'one of your comp sets: the box around its radius')
      .option('--platforms <list>', 'only these platforms: airbnb,booking,vrbo,google (default: every enabled one)')
      .option('--horizon <nights>', "how far ahead each listing's calendar is kept (1 to 365, default 180)")
      .option('--cadence <cadence>', 'daily or weekly (default daily)')
      .option('--rates <rates>', 'auto (default: calendar rates where given, else sampled stays), sampled or none')
      .requiredOption('--max-credits-per-day <n>', 'the daily budget in credits')
      .option('--paused', 'create it paused: nothing runs until stays collect resume')
      .option('--dry-run', 'print the collection it would be and its estimate (credits a pass and a day, by platform) without creating it'),
    { wait: false },
  )
    .addHelpText(
      'after',
      '\nExamples:\n  stays collect create porto --location Porto --max-credits-per-day 2000 --dry-run\n  stays collect create porto --location Porto --horizon 90 --max-credits-per-day 2000\n  stays collect create near-home --compset "Alfama 2BR" --max-credits-per-day 300 --json',
    )
    .action(async (name: string, opts: Opts) => {
      const body: Record<string, unknown> = { name, maxCreditsPerDay: opts.maxCreditsPerDay };
      if (opts.location !== undefined) body.location = opts.location;
      if (opts.bbox !== undefined) body.bbox = opts.bbox;
      if (opts.compset !== undefined) body.compSet = opts.compset;
      if (opts.platforms !== undefined) body.platforms = opts.platforms;
      if (opts.horizon !== undefined) body.horizonNights = opts.horizon;
      if (opts.cadence !== undefined) body.cadence = opts.cadence;
      if (opts.rates !== undefined) body.rates = opts.rates;
      if (opts.paused === true) body.status = 'paused';
      if (opts.dryRun === true) body.dryRun = true;
      await one(
        opts,
        (ops) => ops.collectionCreate(body),
        (_ctx, d) =>
          opts.dryRun === true
            ? 'A dry run: nothing was created. Without --dry-run the same command creates it.'
            : `Collection ${String(d.id)} saved${d.status === 'paused' ? ' (paused)' : ''}. Its progress: stays collect show ${JSON.stringify(name)}`,
      );
    });

  withGlobals(collect.command('list').alias('ls').description("Your collections of this key's environment, newest first"), { wait: false })
    .addHelpText('after', '\nExamples:\n  stays collect list\n  stays collect list -o csv')
    .action(async (opts: Opts) => one(opts, (ops) => ops.collections()));

  withGlobals(collect.command('show').description('One collection: its area, settings and progress').argument('<idOrName>', 'col_… id or the name'), { wait: false })
    .addHelpText('after', '\nExamples:\n  stays collect show lisbon\n  stays collect show col_… --json')
    .action(async (id: string, opts: Opts) => one(opts, (ops) => ops.collection(id)));

  withGlobals(collect.command('pause').description('Pause a collection: nothing runs until resumed').argument('<idOrName>', 'col_… id or the name'), { wait: false })
    .addHelpText('after', '\nExample:\n  stays collect pause porto')
    .action(async (id: string, opts: Opts) =>
      one(
        opts,
        (ops) => ops.collectionUpdate(id, { status: 'paused' }),
        (_c, d) => `Paused ${String(d.name)}.`,
      ),
    );

  withGlobals(collect.command('resume').description('Resume a paused collection').argument('<idOrName>', 'col_… id or the name'), { wait: false })
    .addHelpText('after', '\nExample:\n  stays collect resume porto')
    .action(async (id: string, opts: Opts) =>
      one(
        opts,
        (ops) => ops.collectionUpdate(id, { status: 'active' }),
        (_c, d) => `Resumed ${String(d.name)}.`,
      ),
    );

  withGlobals(
    collect.command('rm').alias('delete').description('Delete a collection: nothing more runs for it; what it observed stays in your history').argument('<idOrName>', 'col_… id or the name'),
    {
      wait: false,
    },
  )
    .addHelpText('after', '\nAn unknown or already deleted collection exits 3 (collection_not_found).\n\nExample:\n  stays collect rm porto')
    .action(async (id: string, opts: Opts) => {
      const [{ execute }, { operations }, { io }] = await Promise.all([import('./_lib/runtime/run.js'), import('../src/client/operations.js'), import('./_lib/runtime/io.js')]);
      await execute(opts, async (ctx) => {
        const env = await ctx.client.run<Row>(operations.collectionDelete(id));
        if (ctx.format !== 'table' || ctx.fields !== null || ctx.jq !== null) return print(ctx, env);
        ctx.ui.stop();
        io().stdout.write(`Deleted collection ${String(env.data.id)} (${String(env.data.name)}).\n`);
      });
    });

  withGlobals(
    collect
      .command('status')
      .description("Follow a collection's current pass: a progress bar with its ETA on a terminal, a JSON line per change when piped; ends when the pass does")
      .argument('<idOrName>', 'col_… id or the name')
      .option('--once', 'print where it stands once and exit')
      .option('--interval <seconds>', 'how often to look (default 2)'),
    { wait: false },
  )
    .addHelpText('after', '\nExamples:\n  stays collect status lisbon\n  stays collect status lisbon --once\n  stays collect status lisbon | jq -c .')
    .action(async (id: string, opts: Opts) => {
      const [{ execute }, { operations }, { io }, { UsageError }] = await Promise.all([
        import('./_lib/runtime/run.js'),
        import('../src/client/operations.js'),
        import('./_lib/runtime/io.js'),
        import('./_lib/runtime/errors.js'),
      ]);
      const interval = opts.interval === undefined ? 2 : Number(opts.interval);
      if (!Number.isFinite(interval) || interval < 0.2 || interval > 3600)
        throw new UsageError(`--interval must be a number of seconds from 0.2 to 3600 (got ${JSON.stringify(opts.interval)}).`, 'interval');
      await execute(opts, async (ctx) => {
        ctx.ui.stop();
        const out = io().stdout;
        const bar = ctx.term.outTTY;
        // In-process, nothing makes the pass but a `stays serve` on the same store or `stays collect run`.
        if (ctx.baseSource === null && opts.once !== true && ctx.term.errTTY)
          io().stderr.write('Watching the local store: the pass moves while a `stays serve` on it or `stays collect run` makes it. Ctrl-C to stop.\n');
        let first: { t: number; done: number } | null = null;
        let last = '';
        for (;;) {
          const env = await ctx.client.run<Row>(operations.collection(id));
          const d = env.data;
          const p = o(d.progress);
          const items = o(p.passItems);
          const done = n(items.done);
          const now = Date.now();
          if (first === null && done !== null) first = { t: now, done };
          const rate = first !== null && done !== null && done > first.done ? (done - first.done) / ((now - first.t) / 1000) : null;
          const total = n(items.total);
          const look: Look = {
            at: new Date(now).toISOString(),
            id: String(d.id),
            name: String(d.name),
            phase: String(p.phase),
            pass: n(p.pass),
            done,
            total,
            listingsDiscovered: n(p.listingsDiscovered) ?? 0,
            listingsTracked: n(p.listingsTracked) ?? 0,
            creditsSpentToday: n(p.creditsSpentToday) ?? 0,
            etaSeconds: rate !== null && total !== null && done !== null ? Math.round((total - done) / rate) : null,
          };
          const ended = look.phase !== 'discovery' && look.phase !== 'tracking';
          if (bar) out.write(`\r\x1b[K${barLine(look, out.columns ?? 80)}${ended || opts.once === true ? '\n' : ''}`);
          else {
            // A line per change (the time and the ETA aside).
            const key = JSON.stringify({ ...look, at: null, etaSeconds: null });
            if (key !== last) out.write(`${JSON.stringify(look)}\n`);
            last = key;
          }
          if (ended || opts.once === true) return;
          await new Promise((r) => setTimeout(r, interval * 1000));
        }
      });
    });

  withGlobals(
    collect
      .command('run')
      .description('Make what is left of the current pass of your collections now (a server does it on its own, spread over each pass): for cron without a server')
      .argument('[idOrName]', 'only this collection (default: every active one of this key)'),
    { wait: false },
  )
    .addHelpText(
      'after',
      `
Each pass begins with a discovery of the area (searches split past the platforms' caps), then
fetches each tracked listing's calendar and a sampled stay's quote, each billed as the same call
made by hand, within the collection's daily budget; what the day cannot cover waits for the next
UTC day. Run it once a day for a daily collection (a second run the same day makes what is left).

Examples:
  stays collect run
  stays collect run lisbon -o json
  0 3 * * * stays collect run >> collect.log`,
    )
    .action(async (id: string | undefined, opts: Opts) => {
      const [{ execute, show }, { operations }] = await Promise.all([import('./_lib/runtime/run.js'), import('../src/client/operations.js')]);
      await execute(opts, async (ctx) => {
        const env = await ctx.client.run<Row[]>(operations.collectionRun(id === undefined ? {} : { collection: id }));
        // People get one line per collection, pass and outcome; scripts every item.
        await show(ctx, env, ctx.format === 'table' ? runSummaryView : collectionItemsView);
      });
    });
}

/** `status`: what one look at a collection says, as a JSON line or a bar. */
interface Look {
  at: string;
  id: string;
  name: string;
  phase: string;
  pass: number | null;
  done: number | null;
  total: number | null;
  listingsDiscovered: number;
  listingsTracked: number;
  creditsSpentToday: number;
  /** Seconds left at the pace seen since the command started; null before any item ended while it watched. */
  etaSeconds: number | null;
}

const duration = (sec: number) => {
  const m = Math.round(sec / 60);
  if (sec < 90) return `${Math.round(sec)}s`;
  if (m < 90) return `${m}m`;
  return `${Math.floor(m / 60)}h ${m % 60}m`;
};

/** One line for a terminal: the phase, a bar of the pass's items, the ETA. */
function barLine(l: Look, columns: number): string {
  const head = `${l.name} · pass ${l.pass ?? '-'} · ${l.phase}`;
  if (l.phase === 'discovery' || l.total === null || l.done === null || l.total <= 1) return `${head} · ${l.listingsDiscovered.toLocaleString('en-US')} listings found so far`;
  const tail = ` ${l.done.toLocaleString('en-US')}/${l.total.toLocaleString('en-US')} items · ${l.etaSeconds === null ? 'ETA -' : `ETA ${duration(l.etaSeconds)}`} · ${l.creditsSpentToday.toLocaleString('en-US')} credits today`;
  const width = Math.max(10, Math.min(40, columns - head.length - tail.length - 4));
  const full = Math.round((width * l.done) / l.total);
  return `${head} [${'#'.repeat(full)}${'-'.repeat(width - full)}]${tail}`;
}

/** Each item of a run, for -o json/jsonl/csv. */
function collectionItemsView(data: unknown): View {
  const rows = (data ?? []) as Row[];
  return {
    kind: null,
    rows,
    single: false,
    table: [
      { header: 'COLLECTION', text: (r: Row) => s(r.collectionId), id: true },
      { header: 'PASS', text: (r: Row) => String(r.pass), align: 'right' as const },
      { header: 'ITEM', text: (r: Row) => s(r.item), min: 10 },
      { header: 'OUTCOME', text: (r: Row) => s(r.outcome) },
      { header: 'CREDITS', text: (r: Row) => String(r.creditsCharged), align: 'right' as const },
    ],
    fields: [],
    data: [
      { key: 'collection_id', value: (r: Row) => s(r.collectionId) },
      { key: 'pass', value: (r: Row) => n(r.pass) },
      { key: 'item', value: (r: Row) => s(r.item) },
      { key: 'outcome', value: (r: Row) => s(r.outcome) },
      { key: 'credits_charged', value: (r: Row) => n(r.creditsCharged) },
      { key: 'reason', value: (r: Row) => s(r.reason) },
      { key: 'found', value: (r: Row) => n(r.found) },
    ],
  };
}
