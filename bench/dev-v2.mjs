// calendar-diff/2 on the development worlds only (docs/analytics.md, "The held-out protocol"):
// every world but the held-out families (none, each family alone, all mixed without them), on
// even seeds only (it refuses odd ones), observed daily and weekly, calendar-diff/1 and /2: the
// nights right per world and in total; and the moving world (a development world: 200 listings,
// every 6, 24 and 168 hours), /1 against /2. The figures a change to /2 is chosen on; it prints no
// held-out figure.
//
//   node bench/dev-v2.mjs                 # BENCH_DEV_SEEDS=2,4,…,16 (the default)
//   node bench/dev-v2.mjs --no-moving     # the families only
//   node bench/dev-v2.mjs --only=all      # one world (and the moving world)
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const SEEDS = (process.env.BENCH_DEV_SEEDS ?? '2,4,6,8,10,12,14,16').split(',').map(Number);
if (SEEDS.some((s) => s % 2 !== 0)) throw new Error('development seeds are even: odd seeds are held out');
const LISTINGS = Number(process.env.BENCH_ANALYTICS_FAMILY_LISTINGS ?? 40);
const START = Date.UTC(2027, 0, 1);
const METHODS = ['calendar-diff/1', 'calendar-diff/2'];
const args = process.argv.slice(2);
const only = args.find((a) => a.startsWith('--only='))?.slice(7);
const moving = !args.includes('--no-moving');
const families = !args.includes('--moving-only');

const here = (p) => pathToFileURL(new URL(p, import.meta.url).pathname).href;
const fam = await tsImport(here('../test/helpers/family-sim.ts'), import.meta.url);
const { simulateBookings } = await tsImport(here('../test/helpers/booking-sim.ts'), import.meta.url);

if (families) {
  const worlds = fam.WORLDS.filter((w) => !fam.HELD_OUT_FAMILIES.includes(w) && (!only || w === only));
  const rows = [];
  const total = {};
  for (const world of worlds) {
    const row = { world };
    for (const everyHours of [24, 168]) {
      for (const method of METHODS) {
        let right = 0;
        let nights = 0;
        for (const seed of SEEDS) {
          const r = fam.simulateFamilies({ world, seed, listings: LISTINGS, days: 90, everyHours, horizonDays: 150, start: START, method, development: true });
          right += r.correct;
          nights += r.nights;
        }
        const key = `${method.slice(-2)} ${everyHours === 24 ? 'daily' : 'weekly'}`;
        row[key] = right;
        total[key] = (total[key] ?? 0) + right;
        total.nights = (total.nights ?? 0) + (method === METHODS[0] ? nights : 0);
      }
    }
    row.nights = SEEDS.length * LISTINGS * 180;
    rows.push(row);
  }
  rows.push({ world: 'total', ...total, nights: total.nights / 2 });
  console.table(rows);
}

if (moving) {
  const rows = [];
  for (const everyHours of [6, 24, 168]) {
    const row = { everyHours };
    for (const method of METHODS) {
      const r = simulateBookings({ listings: 200, days: 90, everyHours, horizonDays: 150, start: START, method });
      row[method.slice(-2)] = r.correct;
      row.nights = r.nights;
    }
    row['/2 - /1'] = row['/2'] - row['/1'];
    rows.push(row);
  }
  console.table(rows);
}
