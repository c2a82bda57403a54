// A collection run day after day on a simulated month (issue 38's goal): the app in-process on a
// temp SQLite store, a live key on the simulated upstream, the runtime's clock moved a day at a
// time. Each day, the day's pass is made whole (POST /v1/collections/run, as cron would), and
// measured against what was promised and against the world:
// - the day's spend (the run's meta, the ledger's fall and the collection's reservations of the
//   UTC day) against maxCreditsPerDay, and against the estimate GET /v1/collections/{id} gave
//   before the run (totalCreditsPerDay);
// - the market over the collection (its calendar-unavailable rate over the horizon from today)
//   against the simulated world's truth at that instant, over the listings the pass tracked;
// - the coverage the market states (population, tracked, sampled).
// Used by test/collections/month.inprocess.test.ts (a few days) and bench/collection-month.mjs
// (30 days, docs/benchmarks.md).
import { manualClock } from '../../src/core/clock.js';
import { createSandboxWorld } from '../../src/sources/sandbox/world.js';
import { startApp } from './app.js';

const DAY_MS = 86_400_000;

export interface MonthOptions {
  days: number;
  /** minLng,minLat,maxLng,maxLat: an area of the simulated Metropolis. */
  bbox: string;
  platforms: string;
  horizonNights: number;
  /** The budget as a share of what tracking every listing and the discovery cost a day (the dry run's estimate): 1.1 covers all, 0.5 a sample. */
  budgetShare: number;
  /** The first day, UTC midnight (default 2027-01-04). */
  start?: number;
}

export interface MonthDay {
  day: string;
  /** What the day's run charged (its meta.creditsCharged = the items' charges). */
  spent: number;
  /** The account's balance fall that day: the ledger. */
  ledger: number;
  /** The collection's reservations of the UTC day (store). */
  reserved: number;
  /** totalCreditsPerDay as GET /v1/collections/{id} gave it before the run. */
  estimate: number;
  tracked: number;
  deferred: number;
  /** The market's calendar-unavailable rate, its sample (nights) and listings. */
  rate: number;
  sampleSize: number;
  listings: number;
  /** The world's truth at that instant over the nights the pass tracked. */
  truth: number;
  coverage: { population: number; tracked: number; sampled: boolean; observed: number; statement: string };
  /** Wall time of the day's run, of the market read, and of the truth's computation (the harness's own), ms. */
  ms: { run: number; market: number; truth: number };
}

export interface MonthResult {
  maxCreditsPerDay: number;
  days: MonthDay[];
}

type Json = Record<string, unknown>;

export async function runMonth(o: MonthOptions): Promise<MonthResult> {
  const start = o.start ?? Date.UTC(2027, 0, 4);
  // Each day's pass starts at the collection's creation plus whole days: a pass is a UTC day.
  const clock = manualClock(start + 30_000);
  const app = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0' }, { clock, deliver: false });
  try {
    const acct = await app.account({ plan: 'pro', credits: 50_000_000, rpm: 1_000_000 });
    const key = acct.liveKey;
    const call = async (method: string, path: string, body?: object): Promise<Json> => {
      const r = await app.req(path, { method, key, ...(body ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}) });
      const j = (await r.json()) as Json;
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(j)}`);
      return j;
    };
    const balance = async () => ((await call('GET', '/v1/account')).data as { credits: { balance: number } }).credits.balance;
    const settings = { name: 'month', bbox: o.bbox, platforms: o.platforms, horizonNights: o.horizonNights };
    const dry = (await call('POST', '/v1/collections', { ...settings, maxCreditsPerDay: 1, dryRun: true })).data as { estimate: { creditsPerDayAll: number; discoveryCreditsPerPass: number } };
    const all = dry.estimate.creditsPerDayAll + dry.estimate.discoveryCreditsPerPass;
    // Nothing known of the area yet (a fresh store): the first discovery finds the population, so size the budget from a world read.
    const maxCreditsPerDay = Math.max(1, Math.round((all > 0 ? all : await fullCost(o)) * o.budgetShare));
    const made = (await call('POST', '/v1/collections', { ...settings, maxCreditsPerDay })).data as { id: string };
    const days: MonthDay[] = [];
    for (let d = 0; d < o.days; d++) {
      clock.set(start + d * DAY_MS + 30_000);
      const today = new Date(start + d * DAY_MS).toISOString().slice(0, 10);
      const to = new Date(start + (d + o.horizonNights) * DAY_MS).toISOString().slice(0, 10);
      const shown = (await call('GET', `/v1/collections/${made.id}`)).data as { estimate: { totalCreditsPerDay: number } };
      const before = await balance();
      const t0 = performance.now();
      const run = await call('POST', '/v1/collections/run', { collection: made.id });
      const t1 = performance.now();
      const items = run.data as { item: string; outcome: string; creditsCharged: number }[];
      const spent = (run.meta as { creditsCharged: number }).creditsCharged;
      const ledger = before - (await balance());
      const reserved = await app.runtime.store.collectionBudgetUsed(made.id, today);
      const tracked = items.filter((x) => x.item.startsWith('track:') && x.outcome === 'done').map((x) => x.item.split(':'));
      const market = (await call('GET', `/v1/market?collection=${made.id}&from=${today}&to=${to}`)).data as {
        overall: { occupancy: { calendarUnavailableRate: { value: number; sampleSize: number; listings: number } } };
        coverage: MonthDay['coverage'];
      };
      const t2 = performance.now();
      const world = createSandboxWorld({ clock: manualClock(clock.now()) });
      let closed = 0;
      let nights = 0;
      for (const [, platform, id] of tracked) {
        const dates = world.availability(platform as Parameters<typeof world.availability>[0], id!, today, to).dates;
        nights += dates.length;
        closed += dates.filter((x) => !x.available).length;
      }
      const rate = market.overall.occupancy.calendarUnavailableRate;
      const t3 = performance.now();
      days.push({
        ms: { run: t1 - t0, market: t2 - t1, truth: t3 - t2 },
        day: today,
        spent,
        ledger,
        reserved,
        estimate: shown.estimate.totalCreditsPerDay,
        tracked: tracked.length,
        deferred: items.filter((x) => x.outcome === 'deferred').length,
        rate: rate.value,
        sampleSize: rate.sampleSize,
        listings: rate.listings,
        truth: nights === 0 ? 0 : closed / nights,
        coverage: market.coverage,
      });
    }
    return { maxCreditsPerDay, days };
  } finally {
    await app.stop();
  }
}

/** A fresh store knows no listing of the area: what covering the world's listings there would cost a day, from the sandbox world itself. */
async function fullCost(o: MonthOptions): Promise<number> {
  const { metropolisTruth } = await import('../../src/sources/sandbox/metropolis.js');
  const { discoveryEstimate, listingPassCost } = await import('../../src/core/collections/pass-plan.js');
  const [w, s, e, n] = o.bbox.split(',').map(Number) as [number, number, number, number];
  const members = o.platforms.split(',').flatMap((platform) =>
    metropolisTruth(platform as Parameters<typeof metropolisTruth>[0])
      .filter((t) => t.lng >= w && t.lng < e && t.lat >= s && t.lat < n)
      .map((t) => ({ platform, listingId: t.id, bedrooms: null })),
  );
  return members.reduce((sum, m) => sum + listingPassCost(m.platform, { horizonNights: o.horizonNights, rates: 'auto' }), 0) + discoveryEstimate(members);
}
