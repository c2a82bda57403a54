// One analytic request never stops the server (issue 34, item 3): `stays serve` on a SQLite store of
// a city of 4,000 listings (each with 120 nights of calendar observed daily for 60 days, about 1.2
// million rows: bench/analyst.mjs writes them), GET /v1/market over the whole city for 90 nights,
// the heaviest analytic read (the first, which classifies every listing), and meanwhile
// /v1/health probed every 10 ms over real HTTP answers within 100 ms at the 99th percentile. The
// market read goes a bounded batch of listings at a time and yields the event loop between batches
// (src/store/sql/history.ts, src/core/ops/market.ts); before, one such read held every other
// request for its whole length (31.5 s measured).
//
// On a busy machine (CI runs this beside other suites) every request is slower, with or without
// the read: the probes are also taken for two seconds with no read, before it and after it, and
// the bound is 100 ms or three times the larger baseline p99, whichever is larger, times how many
// runnable processes share each core when that is more than one (the load average: a step of the
// read is CPU work, stretched by the sharing, which a baseline of tiny requests does not show). A
// read that held the loop for its steps' length fails either way: the old one held it for seconds.
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a JavaScript module of the benches, without types.
import { fillSqlite } from '../../bench/analyst.mjs';
import { type Stays, type TestAccount, startStays, tempDir } from '../helpers/stays.js';

const LISTINGS = 4000;
let s: Stays;
let a: TestAccount;

beforeAll(async () => {
  const dataDir = tempDir();
  // A first server makes the store (its migrations) and the account; the city is written while none runs.
  const first = await startStays({}, dataDir);
  a = await first.account({ credits: 1000, rpm: 1_000_000 });
  await first.stop('SIGTERM', { keepData: true });
  (fillSqlite as (file: string, n: number) => number)(join(dataDir, 'stays.db'), LISTINGS);
  // A budget that a slow machine's first read cannot pass: the test is about the server's other requests.
  s = await startStays({ STAYS_NOW: '2027-03-05T00:00:00Z', STAYS_ANALYTICS_BUDGET_MS: '600000' }, dataDir);
}, 180_000);
afterAll(async () => {
  await s?.stop();
});

describe('GET /v1/market on a city of 4,000 listings', () => {
  it('/v1/health answers within 100 ms (p99) while the read runs', async () => {
    const p99 = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(0.99 * (xs.length - 1))]!;
    /** Probes /v1/health every 10 ms until `until` settles; their latencies. */
    const probe = async (until: Promise<unknown>) => {
      const times: number[] = [];
      let done = false;
      const stop = () => {
        done = true;
      };
      until.then(stop, stop);
      while (!done) {
        const t0 = performance.now();
        const res = await s.req('/v1/health');
        await res.text();
        expect(res.status).toBe(200);
        times.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 10));
      }
      return times;
    };
    const baseline = await probe(new Promise((r) => setTimeout(r, 2000)));
    // How many runnable processes share each core (the 1-minute load average), the most seen.
    const cores = availableParallelism();
    let crowding = loadavg()[0]! / cores;
    const read = (async () => {
      for (let i = 0; i < 2; i++) {
        const res = await s.req('/v1/market?location=lisbon&from=2027-02-01&to=2027-05-02', { key: a.liveKey });
        const body = (await res.json()) as { data: { overall: { activeListings: { value: number } } } };
        expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
        expect(body.data.overall.activeListings.value).toBe(LISTINGS);
      }
    })();
    const during = await probe(read);
    await read;
    // The machine's load may change while the read runs: its baseline is taken again after it, and the larger counts.
    const after = await probe(new Promise((r) => setTimeout(r, 2000)));
    crowding = Math.max(crowding, loadavg()[0]! / cores);
    // Enough probes that the 99th percentile is not the slowest one or two.
    expect(during.length).toBeGreaterThan(100);
    // 100 ms, or three times the larger baseline on a loaded machine (a suite beside two others on two
    // cores once measured 151 ms against baselines of 59 and 32): a read that held the loop for its
    // steps (seconds, as before issue 34) fails either way.
    // A step of the read is CPU work: with more runnable processes than cores it takes that many
    // times longer, which the baselines (requests too short to be preempted) do not show. Two CI
    // runs at load 5-6 on two cores measured 191 and 193 ms against baselines of 51 and 42.
    const bound = Math.max(100, 3 * Math.max(p99(baseline), p99(after))) * Math.max(1, crowding);
    const slowest = [...during].sort((x, y) => x - y).slice(-5);
    expect(
      p99(during),
      `health p99 ${p99(during).toFixed(1)} ms over ${during.length} probes (baseline p99 ${p99(baseline).toFixed(1)} ms before, ${p99(after).toFixed(1)} ms after; load ${(crowding * cores).toFixed(1)} on ${cores} cores); slowest ${slowest.map((x) => x.toFixed(0))}`,
    ).toBeLessThan(bound);
  }, 180_000);
});
