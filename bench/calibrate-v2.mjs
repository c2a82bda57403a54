// calendar-diff/2's confidences measured on the development worlds only (docs/analytics.md, "The
// held-out protocol"), on even seeds only (it refuses odd ones). The confidences are fitted on the
// mixed world (every listing draws each development family with even odds), observed daily and
// weekly, read with the calendar alone and with reviews too: real calendars show every behaviour
// at once, and the single-family worlds are the method's diagnostics, not a market (fitted on
// their pool, the confidences were 5 to 9 points too high on the mixed world and the booked
// rate's band missed its truth; docs/decisions.md). Per basis of a confidence
// (src/core/analytics/bookings-v2.ts, basisV2), the nights and the nights right. Written as
// src/core/analytics/bookings-v2-calibration.ts (with `--write`; else the table is printed) in
// two steps:
//
// 1. The basis table: the share right of each basis, from the coarsest (the path and the
//    observation density) to the finest (with what the reviews say, the hold's length class and
//    whether it is past), each finer one drawn toward its coarser one by SHRINK nights and kept
//    only from MIN_NIGHTS nights.
// 2. A monotone map of that share, so that it holds on seeds the fit never saw: for each half of
//    the seeds, the table fitted on the other half is read on this half's nights; the shares right
//    of those nights by their table value, made monotone (pool-adjacent-violators) and pooled
//    until each step holds MIN_STEP of the nights, are the confidences. A table value maps to its
//    step's share.
//
// `--validate` checks the whole procedure (both steps) on the development seeds: fitted on seeds
// 2 to 32 and measured on seeds 34 to 64 (the mixed world, both cadences, with and without
// reviews), per confidence decile of 500 nights or more, for each candidate MIN_STEP; the way
// MIN_STEP was chosen. Seeds 66 to 80 are the last check (BENCH_CALIBRATE_SEEDS=66,…,80 with
// `--check=FILE`, FILE the counts of a fit's seeds: the confidences fitted on FILE read on these).
//
//   node bench/calibrate-v2.mjs --write     # BENCH_CALIBRATE_SEEDS=2,4,…,64 (the default)
//   node bench/calibrate-v2.mjs --validate  # (--counts=FILE keeps the nights counted, --from=FILE reads them back)
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const SEEDS = (process.env.BENCH_CALIBRATE_SEEDS ?? '2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38,40,42,44,46,48,50,52,54,56,58,60,62,64').split(',').map(Number);
const LISTINGS = Number(process.env.BENCH_ANALYTICS_FAMILY_LISTINGS ?? 40);
const START = Date.UTC(2027, 0, 1);
// The basis is path|density|review|length|when|prep|notice|window (basisV2); the levels read its first 2, 3, 5 and 6 fields (CALIBRATION_LEVELS).
const LEVELS = [2, 3, 5, 6];
const LOOKUP = [...LEVELS].reverse();
const SHRINK = 150;
const MIN_NIGHTS = 100;
/** The least share of the nights a step of the map holds: chosen by --validate (CANDIDATE_STEPS; the deciles off and the largest miss of each are in docs/analytics.md). */
const MIN_STEP = 0.08;
const CANDIDATE_STEPS = [0.03, 0.05, 0.08, 0.12, 0.2];
const DECILE_MIN = 500;
const DECILE_POINTS = 5;

const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

/** The world the confidences are fitted on: the mixed development world. */
const WORLD = 'all';

/** Every development night of the mixed world counted: [everyHours, world, reviews, seed, families, basis, nights, right]. */
async function collect() {
  const here = (p) => pathToFileURL(new URL(p, import.meta.url).pathname).href;
  const fam = await tsImport(here('../test/helpers/family-sim.ts'), import.meta.url);
  if (SEEDS.some((s) => s % 2 !== 0)) throw new Error('calibration reads development (even) seeds only');
  const counts = new Map();
  for (const everyHours of [24, 168])
    for (const reviews of [false, true])
      for (const seed of SEEDS) {
        const onNight = ({ families, basis, right }) => {
          const k = `${everyHours}\t${WORLD}\t${reviews ? 1 : 0}\t${seed}\t${[...families].sort().join(',')}\t${basis ?? ''}`;
          const c = counts.get(k) ?? [0, 0];
          c[0]++;
          if (right) c[1]++;
          counts.set(k, c);
        };
        fam.simulateFamilies({ world: WORLD, seed, listings: LISTINGS, days: 90, everyHours, horizonDays: 150, start: START, method: 'calendar-diff/2', development: true, reviews, onNight });
      }
  return { seeds: SEEDS, agg: [...counts] };
}

const from = arg('from');
const data = from ? JSON.parse(readFileSync(from, 'utf8')) : await collect();
if (data.seeds.some((s) => s % 2 !== 0)) throw new Error('calibration reads development (even) seeds only');
const dump = arg('counts');
if (dump) writeFileSync(dump, JSON.stringify(data));
const records = data.agg.map(([k, [count, right]]) => {
  const [cad, world, reviews, seed, fams, basis] = k.split('\t');
  return { cad: Number(cad), world, reviews: reviews === '1', seed: Number(seed), fams: fams === '' ? [] : fams.split(','), basis, count, right };
});

/** Step 1: the basis table (raw shares, shrunk toward the coarser basis). */
function fitTable(recs) {
  const counts = new Map();
  for (const r of recs) {
    if (r.basis === '') continue;
    const parts = r.basis.split('|');
    for (const n of LEVELS) {
      const key = parts.slice(0, n).join('|');
      const c = counts.get(key) ?? { count: 0, right: 0 };
      c.count += r.count;
      c.right += r.right;
      counts.set(key, c);
    }
  }
  const table = {};
  for (const [key, c] of [...counts].sort((a, b) => a[0].split('|').length - b[0].split('|').length || (a[0] < b[0] ? -1 : 1))) {
    const parts = key.split('|');
    const parent = LEVELS.filter((n) => n < parts.length)
      .map((n) => table[parts.slice(0, n).join('|')])
      .filter((x) => x !== undefined)
      .at(-1);
    if (parent === undefined) table[key] = c.right / c.count;
    else if (c.count >= MIN_NIGHTS) table[key] = (c.right + SHRINK * parent) / (c.count + SHRINK);
  }
  return table;
}
/** The finest basis the table holds, as bookings-v2.ts reads it. */
function lookup(table, basis) {
  if (basis === '') return 0;
  const parts = basis.split('|');
  for (const n of LOOKUP) {
    const c = table[parts.slice(0, n).join('|')];
    if (c !== undefined) return c;
  }
  return 0.5;
}
/** Step 2: the monotone map, from the table fitted on each half of the seeds read on the other half. */
function fitMap(recs, minStep = MIN_STEP) {
  const half = (seed) => (seed / 2) % 2;
  const points = new Map();
  for (const h of [0, 1]) {
    const table = fitTable(recs.filter((r) => half(r.seed) === h));
    for (const r of recs) {
      if (half(r.seed) === h || r.basis === '') continue;
      const x = Math.round(1000 * lookup(table, r.basis)) / 1000;
      const p = points.get(x) ?? { x, w: 0, y: 0 };
      p.w += r.count;
      p.y += r.right;
      points.set(x, p);
    }
  }
  // Pool adjacent violators, then pool the smallest step into its smaller neighbour until each holds MIN_STEP of the nights.
  const steps = [];
  for (const p of [...points.values()].sort((a, b) => a.x - b.x)) {
    steps.push({ hi: p.x, w: p.w, y: p.y });
    while (steps.length > 1 && steps.at(-2).y / steps.at(-2).w >= steps.at(-1).y / steps.at(-1).w) {
      const b = steps.pop();
      Object.assign(steps.at(-1), { hi: b.hi, w: steps.at(-1).w + b.w, y: steps.at(-1).y + b.y });
    }
  }
  const total = steps.reduce((s, x) => s + x.w, 0);
  for (;;) {
    const i = steps.findIndex((s) => s.w < minStep * total);
    if (i < 0 || steps.length < 2) break;
    const j = i === 0 ? 1 : i === steps.length - 1 ? i - 1 : steps[i - 1].w < steps[i + 1].w ? i - 1 : i + 1;
    const [a, b] = [Math.min(i, j), Math.max(i, j)];
    steps.splice(a, 2, { hi: steps[b].hi, w: steps[a].w + steps[b].w, y: steps[a].y + steps[b].y });
  }
  return steps.map((s) => ({ hi: s.hi, share: s.y / s.w, nights: s.w }));
}
const mapped = (steps, x) => (steps.find((s) => x <= s.hi) ?? steps.at(-1)).share;

/** Per cadence and confidence decile of the records: nights, nights right, confidences summed. */
function reliability(recs, confidence) {
  const out = { 24: [], 168: [] };
  for (const cad of [24, 168]) out[cad] = Array.from({ length: 10 }, () => ({ n: 0, right: 0, c: 0 }));
  for (const r of recs) {
    const c = confidence(r.basis);
    const d = out[r.cad][Math.min(9, Math.floor(c * 10))];
    d.n += r.count;
    d.right += r.right;
    d.c += c * r.count;
  }
  return out;
}
const offDeciles = (rel) =>
  [24, 168].flatMap((cad) =>
    rel[cad].flatMap((d, i) =>
      d.n >= DECILE_MIN && Math.abs(d.right - d.c) / d.n > DECILE_POINTS / 100
        ? [`${cad === 24 ? 'daily' : 'weekly'} ${(i / 10).toFixed(1)}: ${d.n} nights, ${((100 * d.c) / d.n).toFixed(1)} % confident, ${((100 * d.right) / d.n).toFixed(1)} % right`]
        : [],
    ),
  );
const usedDeciles = (rel) => [24, 168].reduce((s, cad) => s + rel[cad].filter((d) => d.n >= DECILE_MIN).length, 0);

/** The confidences of a fit: the table's value of a basis mapped by its steps. */
function fitted(recs, minStep = MIN_STEP) {
  const table = fitTable(recs);
  const steps = fitMap(recs, minStep);
  const cache = new Map();
  return (b) => cache.get(b) ?? cache.set(b, mapped(steps, Math.round(1000 * lookup(table, b)) / 1000)).get(b);
}
const report = (name, rel) => {
  const off = offDeciles(rel);
  const worst = Math.max(...[24, 168].flatMap((cad) => rel[cad].filter((d) => d.n >= DECILE_MIN).map((d) => Math.abs(d.right - d.c) / d.n)));
  process.stdout.write(`${name}: ${off.length} of ${usedDeciles(rel)} deciles off, largest miss ${(100 * worst).toFixed(1)} points${off.length > 0 ? ` (${off.join('; ')})` : ''}\n`);
};

if (process.argv.includes('--validate')) {
  const train = records.filter((r) => r.seed <= 32);
  const test = records.filter((r) => r.seed > 32);
  for (const minStep of CANDIDATE_STEPS) report(`MIN_STEP ${minStep}${minStep === MIN_STEP ? ' (chosen)' : ''}`, reliability(test, fitted(train, minStep)));
  process.stdout.write(`(the mixed world, fitted on seeds 2-32, measured on seeds 34-64, daily and weekly, with and without reviews)\n`);
} else if (arg('check')) {
  const fit = JSON.parse(readFileSync(arg('check'), 'utf8'));
  if (fit.seeds.some((s) => data.seeds.includes(s))) throw new Error('the check seeds must not be the fit seeds');
  const fitRecords = fit.agg.map(([k, [count, right]]) => {
    const [cad, , , seed, , basis] = k.split('\t');
    return { cad: Number(cad), seed: Number(seed), basis, count, right };
  });
  report(`fitted on seeds ${fit.seeds.join(', ')}, measured on ${data.seeds.join(', ')}`, reliability(records, fitted(fitRecords)));
} else {
  const table = fitTable(records);
  const steps = fitMap(records);
  process.stderr.write(`map (table value up to: confidence, nights): ${steps.map((s) => `${s.hi}: ${s.share.toFixed(3)} (${s.nights})`).join(', ')}\n`);
  // The confidences written: a basis is kept when its confidence differs from the coarser basis it would fall back to.
  const written = {};
  for (const key of Object.keys(table).sort((a, b) => a.split('|').length - b.split('|').length || (a < b ? -1 : 1))) {
    const parts = key.split('|');
    const value = Math.round(1000 * mapped(steps, Math.round(1000 * table[key]) / 1000)) / 1000;
    const parent = LEVELS.filter((n) => n < parts.length)
      .map((n) => written[parts.slice(0, n).join('|')])
      .filter((x) => x !== undefined)
      .at(-1);
    if (parent === undefined || value !== parent) written[key] = value;
  }
  const rel = reliability(records, (b) => lookup(written, b));
  for (const cad of [24, 168]) {
    const n = rel[cad].reduce((s, d) => s + d.n, 0);
    const right = rel[cad].reduce((s, d) => s + d.right, 0);
    process.stderr.write(`every ${cad} h: ${n} nights scored, ${((100 * right) / n).toFixed(1)} % right (the mixed world, development seeds ${data.seeds.join(', ')}, fitted on them)\n`);
    for (const [i, d] of rel[cad].entries())
      if (d.n > 0)
        process.stderr.write(`  ${(i / 10).toFixed(1)}-${((i + 1) / 10).toFixed(1)}: ${d.n} nights, ${((100 * d.c) / d.n).toFixed(1)} % confident, ${((100 * d.right) / d.n).toFixed(1)} % right\n`);
  }
  const body = Object.entries(written)
    .map(([k, v]) => `  '${k}': ${v},`)
    .join('\n');
  const source = `// Generated by bench/calibrate-v2.mjs --write from the mixed development world (even seeds ${data.seeds[0]} to ${data.seeds.at(-1)}, ${data.seeds.length} of them; held-out families left out):
// calendar-diff/2's confidence per basis (bookings-v2.ts, basisV2), on the mixed world: the share of nights right, each finer
// basis drawn toward its coarser one by ${SHRINK} nights and kept from ${MIN_NIGHTS} nights, then mapped monotonically to the share
// right of such nights on seeds the fit left out (steps of ${100 * MIN_STEP} % of the nights at least). Do not edit by hand.
// biome-ignore-all lint/suspicious/noApproximativeNumericConstant: measured shares, not constants
export const CALIBRATION_V2: Readonly<Record<string, number>> = {
${body}
};
`;
  if (process.argv.includes('--write')) writeFileSync(new URL('../src/core/analytics/bookings-v2-calibration.ts', import.meta.url), source);
  else process.stdout.write(source);
}
