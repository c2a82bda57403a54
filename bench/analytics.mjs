// Issue 27, item 1: booking inference (calendar-diff/1, src/core/analytics/bookings.ts) measured
// against the simulated world's truth (node bench/run.mjs analytics, or this file).
//
// 200 listings of the moving world (src/sources/sandbox/moving.ts; airbnb and vrbo alternately)
// observed for 90 days from 2027-01-01: each observation the calendar the simulated upstream
// answers at that instant, from its day 150 days ahead, recorded as the store records it (a row
// per run of equal values: observeCalendar, then the store's rule). At the end each listing's
// nights from the first day for 180 days (the 90 that passed and the 90 ahead) are classified
// and compared with worldTruth at that instant. Six-hourly, daily and weekly observation; the
// confusion matrix of each (rows: truth; columns: inferred) and the accuracy, overall and on the
// nights taken (booked or blocked). The simulation is test/helpers/booking-sim.ts (its smaller
// run is test/core/bookings-accuracy.unit.test.ts), loaded through tsx. docs/analytics.md
// publishes these figures.
//
// Knobs: BENCH_ANALYTICS_LISTINGS (200), BENCH_ANALYTICS_DAYS (90), BENCH_ANALYTICS_EVERY (6,24,168 hours).
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const LISTINGS = Number(process.env.BENCH_ANALYTICS_LISTINGS ?? 200);
const DAYS = Number(process.env.BENCH_ANALYTICS_DAYS ?? 90);
const EVERY = (process.env.BENCH_ANALYTICS_EVERY ?? '6,24,168').split(',').map(Number);
const START = Date.UTC(2027, 0, 1);
const HORIZON_DAYS = 150;

const TRUTH = ['available', 'booked', 'blocked', 'unbookable'];
const INFERRED = ['available', 'booked', 'blocked', 'unbookable', 'unknown'];
const pct = (a, b) => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)} %`);
const label = (h) => (h === 6 ? 'six-hourly' : h === 24 ? 'daily' : h === 168 ? 'weekly' : `every ${h} h`);

/** The confusion matrix as Markdown (rows: truth; columns: inferred), as docs/analytics.md shows it. */
function matrixMarkdown(m) {
  return [`| truth \\ inferred | ${INFERRED.join(' | ')} |`, `|---|${INFERRED.map(() => '---:').join('|')}|`, ...TRUTH.map((t) => `| ${t} | ${INFERRED.map((s) => m[t][s]).join(' | ')} |`)].join('\n');
}

export async function benchAnalytics() {
  const { simulateBookings } = await tsImport(pathToFileURL(new URL('../test/helpers/booking-sim.ts', import.meta.url).pathname).href, import.meta.url);
  const rows = [];
  for (const everyHours of EVERY) {
    const t0 = performance.now();
    const r = simulateBookings({ listings: LISTINGS, days: DAYS, everyHours, horizonDays: HORIZON_DAYS, start: START });
    const seconds = (performance.now() - t0) / 1000;
    process.stdout.write(`\n### ${label(everyHours)}: ${LISTINGS} listings, ${DAYS} days, ${r.observations} calendar observations, ${r.rows} rows\n\n${matrixMarkdown(r.matrix)}\n`);
    rows.push({
      observed: label(everyHours),
      nights: r.nights,
      'right (all nights)': pct(r.correct, r.nights),
      'right (taken nights)': pct(r.takenCorrect, r.taken),
      'right (nights past)': pct(r.past.correct, r.past.nights),
      'right (nights ahead)': pct(r.ahead.correct, r.ahead.nights),
      seconds: seconds.toFixed(1),
    });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await benchAnalytics());
