// Tenants do not read each other's queries (issue 35, item 5). Account A makes live calls whose
// parameters are its own business (a search for "acme corp offsite rua augusta" with its dates and
// party, a quote for its stay, a listing's calendar); account B, with its own live key on the same
// deployment, then reads every history and analytics surface. Shared by the SQLite and PostgreSQL
// tests (tenancy.test.ts, tenancy.pg.test.ts), each a `stays serve` reached over loopback.
//
// - account scope (the default): B reads nothing of A's: no observation, no listing shown in A's
//   search, no quote, no calendar, no booking, no market listing, no match subject; A's repeat of
//   its own search is a cache hit and B's is not (a cached answer would tell B what A asked).
// - deployment scope (STAYS_HISTORY_SCOPE=deployment): calendars, listing facts and ratings are
//   pooled, so B reads A's listing's calendar and bookings, but never A's searches or quotes: no
//   key of A's query appears in anything B reads, and B's read of A's place or stay finds nothing.
// - sandbox keys read the sandbox world's history in either scope, never a live account's.
import { expect } from 'vitest';
import { type Api, day } from '../helpers/stays.js';

const SECRET = 'acme corp offsite rua augusta';

interface Read {
  status: number;
  text: string;
  body: { data?: unknown; meta?: { cached?: boolean; creditsCharged?: number }; error?: { code: string } };
}

export async function tenancy(api: Api, scope: 'account' | 'deployment'): Promise<void> {
  const a = await api.account({ credits: 100_000, rpm: 100_000 });
  const b = await api.account({ credits: 100_000, rpm: 100_000 });
  const call = async (key: string, path: string): Promise<Read> => {
    const res = await api.req(path, { key, headers: { prefer: 'wait=60' } });
    const text = await res.text();
    return { status: res.status, text, body: JSON.parse(text) as Read['body'] };
  };
  const ok = async (key: string, path: string) => {
    const r = await call(key, path);
    expect(r.status, `${path}: ${r.text}`).toBe(200);
    return r;
  };
  const checkIn = day(40);
  const checkOut = day(43);
  const stay = `checkIn=${checkIn}&checkOut=${checkOut}&adults=3`;
  const searchPath = `/v1/search?location=${encodeURIComponent(SECRET)}&platforms=airbnb&${stay}&limit=5`;

  // A's calls: a dated search, a quote of a listing it showed, that listing's calendar and facts.
  const found = (await ok(a.liveKey, searchPath)).body.data as { platformListingId: string; location: { lat: number; lng: number } | null }[];
  expect(found.length).toBeGreaterThan(0);
  const id = found[0]!.platformListingId;
  await ok(a.liveKey, `/v1/price?platform=airbnb&listingId=${id}&${stay}`);
  await ok(a.liveKey, `/v1/availability?platform=airbnb&listingId=${id}&startDate=${day(1)}&endDate=${day(60)}`);
  await ok(a.liveKey, `/v1/listing/airbnb/${id}`);

  const place = `location=${encodeURIComponent(SECRET)}`;
  const reads = {
    observations: '/v1/history/observations?since=2000-01-01&limit=1000',
    listings: `/v1/history/listings?${place}`,
    price: `/v1/history/price?platform=airbnb&listingId=${id}&${stay}`,
    availability: `/v1/history/availability?platform=airbnb&listingId=${id}&startDate=${day(1)}&endDate=${day(60)}`,
    bookings: `/v1/history/bookings?platform=airbnb&listingId=${id}&from=${day(1)}&to=${day(60)}`,
    marketPlace: `/v1/market?${place}&from=${day(1)}&to=${day(30)}`,
    marketBox: `/v1/market?bbox=-180,-85,180,85&platforms=airbnb&from=${day(1)}&to=${day(30)}`,
    matches: `/v1/matches?platform=airbnb&listingId=${id}`,
  };

  // A reads its own history: everything above is there (so B's empty reads below can fail).
  const own = (await ok(a.liveKey, reads.observations)).body.data as { kind: string; key: string }[];
  expect(own.some((o) => o.kind === 'search' && o.key.startsWith(SECRET))).toBe(true);
  expect(own.some((o) => o.kind === 'quote')).toBe(true);
  expect(own.some((o) => o.kind === 'day')).toBe(true);
  expect(((await ok(a.liveKey, reads.listings)).body.data as unknown[]).length).toBeGreaterThan(0);
  expect(((await ok(a.liveKey, reads.price)).body.data as unknown[]).length).toBe(1);
  await ok(a.liveKey, reads.availability);
  await ok(a.liveKey, reads.bookings);
  const listingsIn = (r: Read) => (r.status === 200 ? (r.body.data as { observationWindow: { listings: number } }).observationWindow.listings : 0);
  expect(listingsIn(await ok(a.liveKey, reads.marketBox))).toBeGreaterThan(0);
  expect(listingsIn(await ok(a.liveKey, reads.marketPlace))).toBeGreaterThan(0);

  // Whatever B reads, in either scope: never A's query (its place, its stay) and never its cache.
  // (Answers to B's reads that name A's place or stay themselves may echo B's own parameters.)
  const seenByB: string[] = [];
  const byB = async (path: string) => {
    const r = await call(b.liveKey, path);
    expect(r.status, `${path}: ${r.text}`).toBeLessThan(500);
    if (!path.includes(encodeURIComponent(SECRET)) && !path.includes(checkIn)) seenByB.push(r.text);
    return r;
  };
  const exported = (await byB(reads.observations)).body.data as { kind: string; key: string; listingId: string }[];
  expect(exported.filter((o) => o.kind === 'search' || o.kind === 'quote')).toEqual([]);
  expect((await byB(reads.listings)).body.data).toEqual([]);
  // Nothing of the stay: 404 when the listing is unknown to B, else no quote.
  const price = await byB(reads.price);
  expect(price.status === 404 ? price.body.error?.code : price.body.data).toEqual(price.status === 404 ? 'listing_not_found' : []);
  const availability = await byB(reads.availability);
  const bookings = await byB(reads.bookings);
  const marketPlace = await byB(reads.marketPlace);
  const marketBox = await byB(reads.marketBox);
  const matches = await byB(reads.matches);
  // B's own search of A's exact query is charged as new: no cached answer tells B that A asked it.
  const repeatA = await call(a.liveKey, searchPath);
  expect(repeatA.body.meta?.cached).toBe(true);

  if (scope === 'account') {
    expect(exported).toEqual([]);
    expect(availability.status, availability.text).toBe(404);
    expect(bookings.status, bookings.text).toBe(404);
    expect(matches.status, matches.text).toBe(404);
    expect(listingsIn(marketPlace)).toBe(0);
    expect(listingsIn(marketBox)).toBe(0);
    const repeatB = await byB(searchPath);
    expect(repeatB.status).toBe(200);
    expect(repeatB.body.meta?.cached).toBe(false);
  } else {
    // Pooled: the listing's calendar and what is inferred of it are B's to read; A's queries are not.
    expect(exported.some((o) => o.kind === 'day' && o.listingId === id)).toBe(true);
    expect(availability.status, availability.text).toBe(200);
    expect(bookings.status, bookings.text).toBe(200);
    expect(listingsIn(marketBox)).toBeGreaterThan(0);
    // The place B never searched has no listings for B, even though A searched it.
    expect(listingsIn(marketPlace)).toBe(0);
    expect(matches.status).toBeLessThan(500);
  }
  for (const text of seenByB) {
    expect(text.toLowerCase()).not.toContain('acme');
    expect(text).not.toContain(`${checkIn}/${checkOut}`);
  }

  // Sandbox keys read the sandbox world, never a live account's observations.
  expect((await ok(b.sandboxKey, reads.observations)).body.data).toEqual([]);
  expect((await ok(a.sandboxKey, reads.observations)).body.data).toEqual([]);
}
