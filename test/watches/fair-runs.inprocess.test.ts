// Fair watch runs (issue 35, item 4): due watches run concurrently, at most WATCH_RUN_SLOTS at once
// and WATCH_RUNS_PER_ACCOUNT of one account, each claim taking one watch of each account not at its
// bound, so one account's many slow watches do not hold back another account's first run (20 slow
// watches of one account delayed another's first run by 126 s when they ran one after another).
// The server's runner (startWatchRunner, what `stays serve` starts) over the app in-process, on the
// simulated upstream made slow for airbnb (STAYS_SIM_LATENCY_MS), the real clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WatchRunReport } from '../../src/core/ops/watch-runs.js';
import { WATCH_RUNS_PER_ACCOUNT } from '../../src/core/schemas/watches.js';
import { startWatchRunner } from '../../src/jobs/watches.js';
import { type TestApp, startApp } from '../helpers/app.js';

const LATENCY_MS = 1_000;
const SLOW = 12;
let t: TestApp;
beforeAll(async () => {
  t = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: `airbnb=${LATENCY_MS},booking=0,vrbo=0,google=0` }, { deliver: false });
});
afterAll(async () => {
  await t?.stop();
});

const post = async (key: string, body: unknown) => {
  const res = await t.req('/v1/watches', { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { data: { id: string } }).data.id;
};

describe("one account's slow watches and another's first run", () => {
  it("the other account's first run ends long before the slow ones could have run one after another", async () => {
    const slow = await t.account({ credits: 100_000, rpm: 1_000_000 });
    const other = await t.account({ rpm: 1_000_000 });
    const found = (await (await t.req('/v1/search?location=Faro&platforms=airbnb&limit=1', { key: slow.liveKey, headers: { prefer: 'wait=30' } })).json()) as {
      data: { platformListingId: string }[];
    };
    const listingId = found.data[0]!.platformListingId;
    // Each a different stay (no two calls coalesce into one job), each taking LATENCY_MS upstream.
    for (let i = 0; i < SLOW; i++) {
      const day = String(i + 1).padStart(2, '0');
      await post(slow.liveKey, {
        call: { type: 'price', params: { platform: 'airbnb', listingId, checkIn: `2027-05-${day}`, checkOut: `2027-05-${String(i + 4).padStart(2, '0')}` } },
        rules: [{ type: 'price_drop', percent: 50 }],
      });
    }
    // Made last, so due last: one after another, it would run after every slow one.
    const first = await post(other.sandboxKey, { call: { type: 'search', params: { location: 'Lisbon' } }, rules: [{ type: 'new_listings' }] });
    const ended = new Map<string, number>();
    const start = Date.now();
    const runner = startWatchRunner(t.runtime, {
      tickMs: 50,
      onError: (e) => {
        throw e;
      },
      onRuns: (reports: WatchRunReport[]) => {
        for (const r of reports) ended.set(r.watchId, Date.now() - start);
      },
    });
    try {
      // The documented bound: a due watch of an account with none running starts at the next claim
      // (a tick, or a run ending), whatever another account has due: well within the slow ones' serial time.
      const bound = (SLOW * LATENCY_MS) / 2;
      while (!ended.has(first) && Date.now() - start < SLOW * LATENCY_MS * 3) await new Promise((r) => setTimeout(r, 20));
      expect(ended.get(first), 'the other account’s first run').toBeLessThan(bound);
      // The slow account's runs still all end, at most WATCH_RUNS_PER_ACCOUNT at a time.
      while (ended.size < SLOW + 1 && Date.now() - start < SLOW * LATENCY_MS * 3) await new Promise((r) => setTimeout(r, 50));
      expect(ended.size).toBe(SLOW + 1);
      expect(Math.max(...ended.values())).toBeGreaterThanOrEqual((SLOW / WATCH_RUNS_PER_ACCOUNT) * LATENCY_MS * 0.9);
    } finally {
      await runner.stop();
    }
  }, 60_000);
});
