// `stays market LOCATION | --bbox B | --compset NAME [--from D] [--to D]` (issue 27, item 2): market
// metrics computed from what this deployment observed, through GET /v1/market (free). For people a
// table, a line per figure (overall, then by platform and by bedroom count) with its sample size
// and method, and the observation window; for scripts the API's JSON (-o json, --jq) or the
// figures as rows (-o csv, tsv, jsonl; --json FIELDS picks fields of each). --chart draws the weekly series of both occupancy figures.
import type { Command } from 'commander';
import { type GlobalOpts, PLATFORMS, withGlobals } from './_lib/flags/options.js';
import type { View } from './_lib/output/view-types.js';
import type { Figure, MarketView, Metrics } from '../src/core/schemas/market.js';
import type { Ctx } from './_lib/runtime/context.js';

type Opts = GlobalOpts & Record<string, unknown>;
type Row = Record<string, unknown>;

/** One line per figure of a group: what it is, its value, its sample and its method. */
function figureRows(group: string, m: Metrics, currency: string): Row[] {
  const row = (metric: string, f: Figure) => ({
    group,
    metric,
    value: f.value,
    unit: f.unit === 'currency' ? currency : f.unit,
    sampleSize: f.sampleSize,
    sampleUnit: f.sampleUnit,
    listings: f.listings,
    method: f.method,
  });
  const p = m.pricePercentiles;
  return [
    row('active listings', m.activeListings),
    row('occupancy: calendar-unavailable rate', m.occupancy.calendarUnavailableRate),
    row('occupancy: inferred booked rate', m.occupancy.inferredBookedRate),
    ...(['low', 'high'] as const).map((end) => ({
      ...row(`occupancy: inferred booked rate, ${end}`, m.occupancy.inferredBookedRate),
      value: m.occupancy.inferredBookedRateInterval[end],
      method: m.occupancy.inferredBookedRateInterval.method,
    })),
    row('ADR', m.adr),
    row('RevPAR', m.revpar),
    row('booking window (median)', m.bookingWindowDays),
    row('length of stay (mean)', m.lengthOfStayNights),
    ...(['p25', 'p50', 'p75', 'p90'] as const).map((k) => ({
      group,
      metric: `nightly price ${k}`,
      value: p[k],
      unit: currency,
      sampleSize: p.sampleSize,
      sampleUnit: p.sampleUnit,
      listings: p.listings,
      method: p.method,
    })),
  ];
}

function marketRows(d: MarketView): Row[] {
  return [
    ...figureRows('all', d.overall, d.currency),
    ...d.byPlatform.flatMap((p) => figureRows(p.platform, p.metrics, d.currency)),
    ...d.byBedrooms.flatMap((b) => figureRows(b.bedrooms === null ? 'bedrooms ?' : `${b.bedrooms} bedroom${b.bedrooms === 1 ? '' : 's'}`, b.metrics, d.currency)),
  ];
}

const text = (r: Row): string | null => {
  const v = r.value;
  if (typeof v !== 'number') return '—';
  if (r.unit === 'rate') return `${(v * 100).toFixed(1)} %`;
  return `${v} ${String(r.unit)}`;
};

function marketView(rows: Row[]): View {
  return {
    kind: null,
    rows,
    single: false,
    table: [
      { header: 'GROUP', text: (r: Row) => String(r.group), id: true },
      { header: 'METRIC', text: (r: Row) => String(r.metric), min: 24 },
      { header: 'VALUE', text, align: 'right' as const },
      { header: 'SAMPLE', text: (r: Row) => `${String(r.sampleSize)} ${String(r.sampleUnit)}`, align: 'right' as const },
      // The listings each figure rests on (issue 36, item 9): occupancy may rest on a few of the active listings.
      { header: 'LISTINGS', text: (r: Row) => (typeof r.listings === 'number' ? String(r.listings) : null), align: 'right' as const, drop: 2 },
      { header: 'METHOD', text: (r: Row) => String(r.method), drop: 1 },
    ],
    fields: [],
    data: [
      { key: 'group', value: (r: Row) => r.group as string },
      { key: 'metric', value: (r: Row) => r.metric as string },
      { key: 'value', value: (r: Row) => r.value as number | null },
      { key: 'unit', value: (r: Row) => r.unit as string },
      { key: 'sample_size', value: (r: Row) => r.sampleSize as number },
      { key: 'sample_unit', value: (r: Row) => r.sampleUnit as string },
      { key: 'method', value: (r: Row) => r.method as string },
      // Last, so the columns scripts read before keep their places.
      { key: 'listings', value: (r: Row) => (typeof r.listings === 'number' ? r.listings : null) },
    ],
  };
}

async function chart(ctx: Ctx, d: MarketView): Promise<void> {
  const [{ lineChart, mergeShortLast, unicodeFor }, { io }] = await Promise.all([import('./_lib/output/chart.js'), import('./_lib/runtime/io.js')]);
  ctx.ui.stop();
  const unicode = unicodeFor(ctx.term);
  const cols = ctx.term.outTTY ? io().stdout.columns : Number.parseInt(ctx.term.env.COLUMNS ?? '', 10);
  const width = cols !== undefined && cols > 0 ? cols : 80;
  const series = d.series ?? [];
  const end = series.length > 0 ? Date.parse(`${series.at(-1)!.to}T00:00:00Z`) : undefined;
  const out: string[] = [];
  for (const [title, pick] of [
    ['calendar-unavailable rate', (m: Metrics) => m.occupancy.calendarUnavailableRate],
    ['inferred booked rate', (m: Metrics) => m.occupancy.inferredBookedRate],
  ] as const) {
    // A last week of fewer than 7 nights is merged into the week before, and said so.
    const { buckets, merged } = mergeShortLast(
      series.map((s) => ({ from: s.from, to: s.to, value: pick(s.metrics).value, sample: pick(s.metrics).sampleSize })),
      7,
    );
    const points = buckets.filter((b) => b.value !== null).map((b) => ({ t: Date.parse(`${b.from}T00:00:00Z`), v: b.value! }));
    if (points.length === 0) {
      out.push(`${title}: no sample in any week\n`);
      continue;
    }
    const method = pick(series[0]!.metrics).method;
    const note = merged ? `(the last ${merged.nights === 1 ? 'night' : `${merged.nights} nights`}, from ${merged.from}, drawn with the week before: not a week of its own)\n` : '';
    out.push(`${title} by week of nights (${method})\n${lineChart(points, { width, unicode, end, label: (v) => `${(v * 100).toFixed(0)}%` })}${note}`);
  }
  io().stdout.write(out.join('\n'));
}

export function defineMarket(program: Command): void {
  const cmd = program
    .command('market')
    .description('Market metrics from what this deployment observed: occupancy (two figures), ADR, RevPAR, booking window, stay length, prices (free)')
    .argument('[location]', 'the place searched (or give --bbox, --compset or --collection)')
    .option('--bbox <box>', 'minLng,minLat,maxLng,maxLat: observed listings inside it')
    .option('--compset <idOrName>', 'a comp set of yours (stays compset create)')
    .option('--collection <idOrName>', 'a collection of yours (stays collect create): its whole market, with the coverage each figure rests on')
    .option('--from <date>', 'YYYY-MM-DD: the first night measured (default: 30 nights before --to; with neither, the last 30 nights)')
    .option('--to <date>', 'YYYY-MM-DD: the morning after the last night, at most 366 nights (default: 30 nights after --from, else today)')
    .option('--platforms <list>', `comma list of ${PLATFORMS.join(', ')} (default: every enabled one)`)
    .option('--platform <platform>', 'one platform (as --platforms)')
    .option('--bedrooms <n>', 'only listings observed with this many bedrooms')
    .option('--interval <week|month>', 'also the figures per week or month of nights (in --json)')
    .option('--method <name>', "the booking inference: calendar-diff/1 or calendar-diff/2 (default: the service's, named as bookingMethod)")
    .option('--chart', 'line charts of both occupancy figures by week of nights');
  withGlobals(cmd, { wait: false })
    .addHelpText(
      'after',
      `
Free: market reads the deployment's own store (live calls record what they see: dated searches,
calendars, quotes). Every figure comes with its sample size and its method; one with no sample
shows — (null in JSON), never 0. Nothing observed for the scope and nights exits 3
(no_observations). A sandbox key reads a synthetic market of the sandbox world, so these run with
no setup.

Without --from and --to, the last 30 nights up to today (UTC, the service's clock).

Examples:
  stays market Lisbon
  stays market Lisbon --from 2027-06-01 --to 2027-07-01
  stays market Lisbon --from 2027-06-01 --to 2027-07-01 --platform airbnb --bedrooms 2 -o csv
  stays market Lisbon --from 2027-06-01 --to 2027-09-01 --chart
  stays market --compset "Alfama 2BR" --from 2027-06-01 --to 2027-07-01 --json | jq .data.summary
  stays market --collection lisbon --json | jq .data.coverage`,
    )
    .action(async (location: string | undefined, opts: Opts) => {
      const [{ execute }, { UsageError }, { operations }, { io }] = await Promise.all([
        import('./_lib/runtime/run.js'),
        import('./_lib/runtime/errors.js'),
        import('../src/client/operations.js'),
        import('./_lib/runtime/io.js'),
      ]);
      await execute(opts, async (ctx) => {
        const chartIt = opts.chart === true;
        if (chartIt && ((ctx.format !== 'table' && ctx.format !== 'tsv') || ctx.fields !== null || ctx.jq !== null))
          throw new UsageError('--chart draws text; drop -o/--json/--jq (or --chart).', 'chart');
        const query: Record<string, unknown> = { from: opts.from, to: opts.to };
        if (location !== undefined) query.location = location;
        if (opts.bbox !== undefined) query.bbox = opts.bbox;
        if (opts.compset !== undefined) query.compSet = opts.compset;
        if (opts.collection !== undefined) query.collection = opts.collection;
        const platforms = opts.platforms ?? opts.platform;
        if (platforms !== undefined) query.platforms = platforms;
        if (opts.bedrooms !== undefined) query.bedrooms = opts.bedrooms;
        if (opts.method !== undefined) query.method = opts.method;
        const interval = chartIt ? 'week' : opts.interval;
        if (interval !== undefined) query.interval = interval;
        const env = await ctx.client.run<MarketView>(operations.market(query as Parameters<typeof operations.market>[0]));
        if (chartIt) return chart(ctx, env.data);
        const { show } = await import('./_lib/runtime/run.js');
        await show(ctx, env, (d) => marketView(marketRows(d as MarketView)), { rows: true });
        if (ctx.format === 'table' && ctx.fields === null && ctx.jq === null) {
          const w = env.data.observationWindow;
          if (env.data.coverage) io().stderr.write(`${env.data.coverage.statement}\n`);
          io().stderr.write(`From ${w.observations} observations of ${w.listings} listings, made ${w.firstObserved} to ${w.lastObserved}. Methods: --json | jq .data.methods\n`);
        }
      });
    });
}
