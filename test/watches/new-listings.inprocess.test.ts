// new_listings (issue 36, item 4): a search watch's run compares every listing its legs fetched
// that matched (not only the page it answered) with every listing the place's searches had shown
// before its previous run (the history port), so it neither alerts on a listing the store had seen
// (one that re-entered the first page) nor misses one beyond the page. Over the app in-process, a
// live key on the simulated upstream, whose listings are delisted and listed again as its clock
// moves (sources/sandbox/moving.ts): daily runs on a manual clock, the events against what
// GET /v1/history/listings says each listing was first seen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2027, 0, 10, 6);
const clock = manualClock(T0);
let t: TestApp;
let a: TestAccount;
beforeAll(async () => {
  t = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0' }, { clock, deliver: false });
  a = await t.account({ credits: 1_000_000, rpm: 1_000_000 });
});
afterAll(async () => {
  await t?.stop();
});

type Listing = { platform: string; listingId: string };
type Seen = Listing & { firstSeen: string };
const json = async <T>(res: Response): Promise<T> => {
  const text = await res.text();
  expect(res.status, text).toBeLessThan(300);
  return JSON.parse(text) as T;
};

describe('a new_listings watch', () => {
  it('raises exactly the listings new to the place since its first run, each on the run that first saw it, beyond the page too', async () => {
    await json<{ data: { id: string } }>(
      await t.req('/v1/watches', {
        method: 'POST',
        key: a.liveKey,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ call: { type: 'search', params: { location: 'Lisbon', platforms: 'airbnb,vrbo,booking', limit: 1 } }, rules: [{ type: 'new_listings' }], intervalMinutes: 1440 }),
      }),
    );
    const raised = new Map<string, number>();
    for (let day = 0; day < 60; day++) {
      clock.set(T0 + day * DAY);
      const run = await json<{ data: { outcome: string; events: { changes: Listing[] }[] }[] }>(
        await t.req('/v1/watches/run', { method: 'POST', key: a.liveKey, headers: { 'content-type': 'application/json' }, body: '{}' }),
      );
      expect(run.data.map((r) => r.outcome)).toEqual(['ok']);
      for (const e of run.data[0]!.events) {
        for (const l of e.changes) {
          const key = `${l.platform}:${l.listingId}`;
          expect(raised.has(key), `${key} raised twice`).toBe(false);
          raised.set(key, day);
        }
      }
    }
    // What the store says: listings of the place first seen after the first run.
    const shown: Seen[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: Seen[]; meta: { pagination: { nextCursor: string | null } } } = await json(
        await t.req(`/v1/history/listings?location=Lisbon&platforms=airbnb,vrbo,booking&limit=1000${cursor ? `&cursor=${cursor}` : ''}`, { key: a.liveKey }),
      );
      shown.push(...page.data);
      cursor = page.meta.pagination.nextCursor;
    } while (cursor);
    const fresh = new Map(shown.filter((l) => Date.parse(l.firstSeen) > T0).map((l) => [`${l.platform}:${l.listingId}`, Math.round((Date.parse(l.firstSeen) - T0) / DAY)]));
    // The world listed some again over these months (else this test shows nothing).
    expect(fresh.size).toBeGreaterThan(0);
    expect(Object.fromEntries([...raised].sort())).toEqual(Object.fromEntries([...fresh].sort()));
  }, 120_000);
});
