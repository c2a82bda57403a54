// GET /v1/history/listings (issue 26, item 3): the listings live searches of a place showed, with
// first and last seen, and whether the latest search still shows them (supply over time); the
// sandbox's fixed synthetic year; typed errors, free. In-process on SQLite; the search rows are
// written into the store as the live path records them (src/core/observe.ts), so the test chooses
// who appeared and who left, and when.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observeSearch } from '../../src/core/observe.js';
import type { Property } from '../../src/core/schemas/resources.js';
import { expectError } from '../helpers/assert.js';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 9, 1);
let t: TestApp;
let a: TestAccount;
beforeAll(async () => {
  t = await startApp({});
  a = await t.account({ credits: 1000, rpm: 100_000 });
});
afterAll(async () => {
  await t?.stop();
});

const row = (platform: string, id: string, price: number) =>
  ({ platform, platformListingId: id, name: `${platform} ${id}`, price: { currency: 'EUR', nightlyPrice: price, totalPrice: price * 3 }, guestRating: null, reviewCount: null }) as unknown as Property;
const search = (location: string, rows: Property[], at: number, stay?: { checkIn: string; checkOut: string }) =>
  t.runtime.store.recordObservations(observeSearch(location, stay ? { ...stay, adults: 2, children: 0, childAges: [], currency: 'EUR' } : undefined)(rows), 'simulated', at);
const get = async (query: string, key = a.liveKey) => {
  const r = await t.req(`/v1/history/listings?${query}`, { key });
  return { status: r.status, body: JSON.parse(await r.text()) as { data: Record<string, unknown>[]; meta: Record<string, unknown> } };
};

describe('GET /v1/history/listings', () => {
  it('live: each listing once, first and last seen over every search of the place (dated or not); gone ones say so', async () => {
    await search('Nice', [row('airbnb', '1', 100), row('airbnb', '2', 80)], T0);
    await search(' nice ', [row('airbnb', '1', 100), row('airbnb', '2', 90), row('vrbo', '9', 70)], T0 + DAY); // 2's price changed: another row of its series
    await search('NICE', [row('airbnb', '1', 110), row('airbnb', '3', 60)], T0 + 2 * DAY, { checkIn: '2027-05-01', checkOut: '2027-05-04' });
    await search('Cannes', [row('airbnb', '4', 50)], T0 + 2 * DAY);
    const h = await get('location=Nice&from=2026-09-01');
    expect(h.status).toBe(200);
    const at = (d: number) => new Date(T0 + d * DAY).toISOString();
    expect(h.body.data.map((l) => [l.platform, l.listingId, l.firstSeen, l.lastSeen, l.timesSeen, l.inLatestSearch])).toEqual([
      ['airbnb', '1', at(0), at(2), 3, true],
      ['airbnb', '2', at(0), at(1), 2, false],
      ['vrbo', '9', at(1), at(1), 1, true],
      ['airbnb', '3', at(2), at(2), 1, true],
    ]);
    expect(h.body.data[0]!.name).toBe('airbnb 1');
    expect(h.body.meta).toMatchObject({ creditsCharged: 0, platforms: ['vrbo', 'booking', 'airbnb', 'google'] });
    // One platform; a window that ends before the third search.
    expect((await get('location=nice&platforms=vrbo&from=2026-09-01')).body.data.map((l) => l.listingId)).toEqual(['9']);
    expect((await get(`location=nice&from=2026-09-01&to=${at(0)}`)).body.data.map((l) => l.listingId)).toEqual(['1', '2']);
    // Never searched: empty, not an error.
    expect((await get('location=Antibes')).body.data).toEqual([]);
    // Paged one at a time: the same list.
    const pages: unknown[] = [];
    let cursor: string | null = null;
    do {
      const p = await get(`location=Nice&from=2026-09-01&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      pages.push(...p.body.data);
      cursor = (p.body.meta.pagination as { nextCursor: string | null }).nextCursor;
    } while (cursor);
    expect(pages).toEqual(h.body.data);
  });

  it('sandbox: a fixed synthetic year of the sandbox location, the same whenever asked', async () => {
    const h = await get('location=Lisbon&platforms=airbnb,vrbo&from=2026-01-01&to=2026-12-31T23:59:59Z', a.sandboxKey);
    expect(h.status).toBe(200);
    expect(h.body.data.length).toBeGreaterThan(10);
    const gone = h.body.data.filter((l) => !l.inLatestSearch);
    expect(gone.length).toBeGreaterThan(0);
    expect(gone.length).toBeLessThan(h.body.data.length);
    for (const l of h.body.data) expect(String(l.firstSeen) <= String(l.lastSeen)).toBe(true);
    expect((await get('location=Lisbon&platforms=airbnb,vrbo&from=2026-01-01&to=2026-12-31T23:59:59Z', a.sandboxKey)).body.data).toEqual(h.body.data);
  });

  it('bad input: typed errors, free, never a 500', async () => {
    const cases: [string, string, string][] = [
      ['platforms=airbnb', 'missing_parameter', 'location'],
      ['location=Nice&platforms=expedia', 'platform_not_enabled', 'platforms'],
      ['location=Nice&from=2027-01-02&to=2027-01-01', 'invalid_date_range', 'from'],
      ['location=Nice&from=2025-01-01&to=2027-01-01', 'window_too_long', 'from'],
      ['location=Nice&cursor=!!', 'invalid_cursor', 'cursor'],
    ];
    for (const [query, code, param] of cases) await expectError(await t.req(`/v1/history/listings?${query}`, { key: a.liveKey }), 400, code, param);
  });
});
