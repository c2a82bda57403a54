// Issue 26, item 2 through the app in-process: the simulated upstream answers from the moving
// world at the services' clock, so calls six hours apart (a manual clock advanced) observe a
// changed price or calendar, and the recorded history is the world's truth: one price row per run
// of equal values, a night's change observed when its booking was made.
import { afterAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { HOUR_MS, worldTruth } from '../../src/sources/sandbox/moving.js';
import type { StayQuery } from '../../src/sources/sandbox/types.js';
import { type TestApp, startApp } from '../helpers/app.js';

const T0 = Date.UTC(2027, 0, 1);
const SIX_HOURS = 6 * HOUR_MS;
const apps: TestApp[] = [];
afterAll(async () => {
  for (const a of apps) await a.stop();
});

async function app(start: number) {
  const clock = manualClock(start);
  const t = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0' }, { clock });
  apps.push(t);
  const a = await t.account({ credits: 100_000, rpm: 100_000 });
  const get = async <T>(path: string): Promise<T> => {
    const r = await t.req(path, { key: a.liveKey, headers: { prefer: 'wait=30' } });
    const text = await r.text();
    expect(r.status, text).toBe(200);
    return (JSON.parse(text) as { data: T }).data;
  };
  return { clock, get };
}

describe('the simulated upstream moves with the clock', () => {
  it('a price asked six-hourly for ten days follows the truth, and its history has one row per run of equal values', async () => {
    const { clock, get } = await app(T0);
    const id = '4242';
    const stay: StayQuery = { checkIn: '2027-01-20', checkOut: '2027-01-23', adults: 2, children: 0, childAges: [], currency: 'USD' };
    const path = `/v1/price?platform=airbnb&listingId=${id}&checkIn=${stay.checkIn}&checkOut=${stay.checkOut}&adults=2`;
    const truth: number[] = [];
    const instants: number[] = [];
    for (let i = 0; i < 40; i++) {
      if (i > 0) clock.advance(SIX_HOURS);
      instants.push(clock.now());
      const quoted = await get<{ nightlyPrice: number; totalPrice: number }>(path);
      const expected = worldTruth.priceAt('airbnb', id, stay, clock.now());
      expect(quoted.nightlyPrice).toBe(expected.nightlyPrice);
      expect(quoted.totalPrice).toBe(expected.totalPrice);
      truth.push(expected.nightlyPrice);
    }
    const runs = truth.filter((v, i) => i === 0 || v !== truth[i - 1]);
    // The world moved in these ten days, and not at every step.
    expect(runs.length).toBeGreaterThan(1);
    expect(runs.length).toBeLessThan(truth.length);
    const history = await get<{ firstSeen: string; lastSeen: string; timesSeen: number; nightlyPrice: number; totalPrice: number }[]>(
      `/v1/history/price?platform=airbnb&listingId=${id}&checkIn=${stay.checkIn}&checkOut=${stay.checkOut}&adults=2&from=2026-12-31`,
    );
    expect(history.map((r) => r.nightlyPrice)).toEqual(runs);
    // Row for row what the truth says these instants saw: first and last sighting, how many.
    expect(history.map(({ firstSeen, lastSeen, timesSeen, nightlyPrice, totalPrice }) => ({ firstSeen, lastSeen, timesSeen, nightlyPrice, totalPrice }))).toEqual(
      worldTruth.priceRuns('airbnb', id, stay, instants),
    );
  });

  it('listings come and go: a month of daily searches sees each candidate exactly while the world lists it', async () => {
    const DAY = 24 * HOUR_MS;
    const { clock, get } = await app(T0);
    const days = Array.from({ length: 31 }, (_v, d) => T0 + d * DAY);
    for (const t of days) {
      clock.set(t);
      await get('/v1/search?location=Lisbon&platforms=airbnb');
    }
    const truth = worldTruth.listings('airbnb', 'Lisbon', T0, T0 + 31 * DAY);
    const listedAt = (l: (typeof truth)[number], t: number) => l.intervals.some((i) => Date.parse(i.listedAt) <= t && t < Date.parse(i.delistedAt));
    const expected = truth
      .map((l) => ({ l, seen: days.filter((t) => listedAt(l, t)) }))
      .filter((x) => x.seen.length > 0)
      .map(({ l, seen }) => ({
        listingId: l.id,
        firstSeen: new Date(seen[0]!).toISOString(),
        lastSeen: new Date(seen.at(-1)!).toISOString(),
        timesSeen: seen.length,
        inLatestSearch: listedAt(l, days.at(-1)!),
      }));
    // The month saw the market change: a listing appeared or left.
    expect(expected.some((x) => x.timesSeen < days.length)).toBe(true);
    const seen = await get<{ listingId: string; firstSeen: string; lastSeen: string; timesSeen: number; inLatestSearch: boolean }[]>(
      '/v1/history/listings?location=Lisbon&platforms=airbnb&from=2026-12-31&limit=1000',
    );
    const byId = (a: { listingId: string }, b: { listingId: string }) => a.listingId.localeCompare(b.listingId);
    expect(seen.map(({ listingId, firstSeen, lastSeen, timesSeen, inLatestSearch }) => ({ listingId, firstSeen, lastSeen, timesSeen, inLatestSearch })).sort(byId)).toEqual(expected.sort(byId));
  });

  it('a night booked between two calls six hours apart shows free, then booked, and the history records the change', async () => {
    // The first booking of this listing made after T0: observe it an hour before and five after.
    const id = '777001';
    const hold = worldTruth.holds('airbnb', id, '2027-01-10', '2027-04-01').find((h) => h.atMs > T0 + HOUR_MS)!;
    expect(hold).toBeDefined();
    const { clock, get } = await app(hold.atMs - HOUR_MS);
    const q = `platform=airbnb&listingId=${id}&startDate=${hold.checkIn}&endDate=${hold.checkOut}`;
    type Cal = { dates: { date: string; available: boolean }[] }[];
    const before = (await get<Cal>(`/v1/availability?${q}`))[0]!;
    expect(before.dates.map((d) => d.available)).toEqual(Array(hold.nights).fill(true));
    clock.advance(SIX_HOURS);
    const after = (await get<Cal>(`/v1/availability?${q}`))[0]!;
    expect(after.dates.map((d) => d.available)).toEqual(Array(hold.nights).fill(false));
    const changes = await get<{ changes: { date: string; observedAt: string; available: { from: boolean | null; to: boolean } }[] }>(
      `/v1/history/availability?${q}&from=${new Date(hold.atMs - 2 * HOUR_MS).toISOString()}`,
    );
    const flips = changes.changes.filter((c) => c.available.from === true);
    expect(flips.map((c) => [c.date, c.available.to, Date.parse(c.observedAt)])).toEqual(after.dates.map((d) => [d.date, false, hold.atMs + 5 * HOUR_MS]));
  });
});
