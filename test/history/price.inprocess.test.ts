// GET /v1/history/price (issue 26, item 3): the quotes live calls observed for a listing and stay,
// a row per change, cursor-paged, free; the sandbox's fixed synthetic history; typed errors for bad
// input, never a 500. Through the app in-process on the SQLite store with the simulated upstream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { expectError } from '../helpers/assert.js';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';

const MIN = 60_000;
const clock = manualClock(Date.UTC(2026, 10, 26, 12));
let t: TestApp;
let a: TestAccount;
beforeAll(async () => {
  t = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0' }, { clock });
  a = await t.account({ credits: 100_000, rpm: 100_000 });
});
afterAll(async () => {
  await t?.stop();
});

const get = async (path: string, key = a.liveKey) => {
  const r = await t.req(path, { key, headers: { prefer: 'wait=30' } });
  return { status: r.status, body: JSON.parse(await r.text()) as { data: Record<string, unknown>[]; meta: Record<string, unknown> } };
};
const STAY = 'checkIn=2027-03-01&checkOut=2027-03-04&adults=2';

describe('GET /v1/history/price', () => {
  it('live: the quotes observed for the stay, one row per value, extended while unchanged; free', async () => {
    const found = await get('/v1/search?location=Faro&platforms=airbnb');
    const id = (found.body.data[0] as { platformListingId: string }).platformListingId;
    // Nothing quoted yet for that stay: an empty series (the listing itself was seen in the search).
    const empty = await get(`/v1/history/price?platform=airbnb&listingId=${id}&${STAY}`);
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual([]);
    const quote = await get(`/v1/price?platform=airbnb&listingId=${id}&${STAY}`);
    expect(quote.status).toBe(200);
    clock.advance(61 * MIN); // past the price cache's hour: the upstream is asked again, same world
    await get(`/v1/price?platform=airbnb&listingId=${id}&${STAY}`);
    const h = await get(`/v1/history/price?platform=airbnb&listingId=stays_airbnb_${id}&${STAY}`);
    expect(h.status).toBe(200);
    const q = quote.body.data as unknown as { nightlyPrice: number; totalPrice: number; currency: string };
    expect(h.body.data).toEqual([
      {
        observedAt: new Date(Date.UTC(2026, 10, 26, 12)).toISOString(),
        firstSeen: new Date(Date.UTC(2026, 10, 26, 12)).toISOString(),
        lastSeen: new Date(Date.UTC(2026, 10, 26, 13, 1)).toISOString(),
        timesSeen: 2,
        nightlyPrice: q.nightlyPrice,
        totalPrice: q.totalPrice,
        currency: q.currency,
        source: 'simulated',
      },
    ]);
    expect(h.body.meta).toMatchObject({ creditsCharged: 0, platforms: ['airbnb'], pagination: { hasMore: false, nextCursor: null } });
    // A window that ends before it was seen: nothing.
    expect((await get(`/v1/history/price?platform=airbnb&listingId=${id}&${STAY}&to=2026-11-25`)).body.data).toEqual([]);
  });

  it('sandbox: a fixed synthetic history (the same on any day asked), paged by cursor without gaps or repeats', async () => {
    const path = `/v1/history/price?platform=vrbo&listingId=321&${STAY}&from=2026-12-01&to=2027-03-01`;
    const all = await get(path, a.sandboxKey);
    expect(all.status).toBe(200);
    expect(all.body.data.length).toBeGreaterThan(3);
    expect(all.body.data.every((r) => r.source === 'sandbox')).toBe(true);
    // Rows are changes: no two neighbours hold the same price; their sightings add up to the days.
    const prices = all.body.data.map((r) => r.totalPrice);
    expect(prices.every((p, i) => i === 0 || p !== prices[i - 1])).toBe(true);
    expect(all.body.data.reduce((n, r) => n + (r.timesSeen as number), 0)).toBe(60);
    // The last week is the sandbox's own quote for the stay.
    const quote = await get(`/v1/price?platform=vrbo&listingId=321&${STAY}`, a.sandboxKey);
    expect(all.body.data.at(-1)!.totalPrice).toBe((quote.body.data as unknown as { totalPrice: number }).totalPrice);
    clock.advance(3 * 86_400_000);
    expect((await get(path, a.sandboxKey)).body.data).toEqual(all.body.data);
    const pages: Record<string, unknown>[] = [];
    let cursor: string | null = null;
    do {
      const p = await get(`${path}&limit=2${cursor ? `&cursor=${cursor}` : ''}`, a.sandboxKey);
      pages.push(...p.body.data);
      cursor = (p.body.meta.pagination as { nextCursor: string | null }).nextCursor;
    } while (cursor);
    expect(pages).toEqual(all.body.data);
  });

  it('bad input: typed errors, free, never a 500', async () => {
    const cases: [string, string, string][] = [
      [`platform=airbnb&listingId=999999999&${STAY}`, 'listing_not_found', 'listingId'],
      [`platform=airbnb&listingId=1&checkIn=2027-03-04&checkOut=2027-03-01`, 'invalid_date_range', 'checkOut'],
      [`platform=airbnb&listingId=1&checkIn=2027-03-01&checkOut=2027-08-01`, 'stay_too_long', 'checkOut'],
      [`platform=airbnb&listingId=1&${STAY}&from=2027-01-02&to=2027-01-01`, 'invalid_date_range', 'from'],
      [`platform=airbnb&listingId=1&${STAY}&from=2025-01-01&to=2027-01-01`, 'window_too_long', 'from'],
      [`platform=airbnb&listingId=1&${STAY}&from=yesterday`, 'invalid_parameter', 'from'],
      [`platform=airbnb&${STAY}`, 'missing_parameter', 'listingId'],
      [`platform=expedia&listingId=1&${STAY}`, 'platform_not_enabled', 'platform'],
      [`platform=airbnb&listingId=1&${STAY}&cursor=abc`, 'invalid_cursor', 'cursor'],
      [`platform=airbnb&listingId=1&${STAY}&limit=0`, 'limit_out_of_range', 'limit'],
    ];
    const balance = async () => (await t.admin<{ credits: { balance: number } }>('account', 'show', a.id)).credits.balance;
    const before = await balance();
    for (const [query, code, param] of cases) {
      const r = await t.req(`/v1/history/price?${query}`, { key: a.liveKey });
      await expectError(r, code === 'listing_not_found' ? 404 : 400, code, param);
    }
    expect(await balance()).toBe(before);
  });
});
