// Round trip of the simulated upstream: for many sandbox locations, listings and stays per
// platform, normalize(emit(x)) equals x (deeply, and byte-for-byte as JSON) for search rows,
// listing bodies, quotes, calendars, reviews and google offers, and every output passes the
// resource schemas. Then the simulated upstream as a whole answers exactly what the sandbox does.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ServiceError } from '../../src/core/errors.js';
import { ENABLED_PLATFORMS, type EnabledPlatform } from '../../src/core/platforms.js';
import { AvailabilitySchema, OfferSchema, PriceSchema, PropertySchema, ReviewSchema } from '../../src/core/schemas/resources.js';
import type { StayQuery, Upstream } from '../../src/core/upstream.js';
import { LANES, offersLane } from '../../src/sources/raw/emit.js';
import { sandboxUpstream } from '../../src/sources/sandbox/upstream.js';
import { createSandboxWorld } from '../../src/sources/sandbox/world.js';
import { simulatedUpstream } from '../../src/sources/simulated.js';

const world = createSandboxWorld();
const MAGIC = new Set(['404', '409', '410', '411', '502', '503', '504']);

/** Deep equality and identical JSON (same key order), so a simulated answer serializes like the world's. */
function same<T>(back: T, x: T): void {
  expect(back).toStrictEqual(x);
  expect(JSON.stringify(back)).toBe(JSON.stringify(x));
}

/** A world call, or null for the documented triggers (failing locations, magic ids). */
function attempt<T>(f: () => T): T | null {
  try {
    return f();
  } catch (e) {
    if (e instanceof ServiceError) return null;
    throw e;
  }
}

const day = fc.integer({ min: 0, max: 900 }).map((n) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString().slice(0, 10));
const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

const stayArb: fc.Arbitrary<StayQuery> = fc
  .record({
    checkIn: day,
    nights: fc.integer({ min: 1, max: 21 }),
    adults: fc.integer({ min: 1, max: 8 }),
    childAges: fc.array(fc.integer({ min: 0, max: 17 }), { maxLength: 3 }),
    currency: fc.constantFrom('USD', 'EUR', 'GBP', 'JPY', 'KRW', 'CHF', 'BRL', 'XAF'),
  })
  .map(({ checkIn, nights, adults, childAges, currency }) => ({ checkIn, checkOut: addDays(checkIn, nights), adults, children: childAges.length, childAges, currency }));

// Any text, "constructor" and "__proto__" included (the trigger tables are read with Object.hasOwn).
const textArb = (maxLength: number) => fc.oneof(fc.string({ minLength: 1, maxLength }), fc.constantFrom('constructor', '__proto__', 'toString', ' hasOwnProperty '));

const locationArb = fc.oneof(
  fc.constantFrom('Lisbon', 'Paris', 'London', 'Tokyo', 'new york', 'Kyoto, Japan', 'Springfield, IL', 'Reykjavik', 'Cartagena', 'Rio de Janeiro', 'Nowhere Town'),
  fc.tuple(fc.double({ min: -89, max: 89, noNaN: true }), fc.double({ min: -179, max: 179, noNaN: true })).map(([a, b]) => `${a.toFixed(3)},${b.toFixed(3)}`),
  textArb(24),
);

/** Canonical native ids a user could ask for directly (not only the ones search shows). */
const idArb: Record<EnabledPlatform, fc.Arbitrary<string>> = {
  airbnb: fc.bigInt({ min: 1n, max: 10n ** 19n }).map(String),
  vrbo: fc.bigInt({ min: 1n, max: 10n ** 12n }).map(String),
  booking: fc.tuple(fc.constantFrom('pt', 'fr', 'us', 'gb', 'jp', 'de', 'it'), fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,30}$/)).map(([cc, slug]) => `${cc}/${slug}`),
  // Not all dots: "." and ".." are path segments a URL resolves away, so they cannot ride in one.
  google: fc.stringMatching(/^[A-Za-z0-9_\-:.]{1,40}$/).filter((s) => !/^\.+$/.test(s)),
};

function checkListing(p: EnabledPlatform, id: string, stay: StayQuery): void {
  const full = attempt(() => world.listing(p, id, { currency: stay.currency, requestedId: id }));
  if (!full) return;
  const { price: _price, identity: _identity, ...body } = full;
  const back = LANES[p].listing(body);
  same(back, body);
  PropertySchema.parse(back);
  const quote = attempt(() => world.price(p, id, stay));
  if (quote) {
    const q = LANES[p].price(quote, stay);
    same(q, quote);
    PriceSchema.parse(q);
  }
}

function checkCalendarAndReviews(p: EnabledPlatform, id: string, start: string, days: number): void {
  const end = addDays(start, days);
  const cal = attempt(() => world.availability(p, id, start, end));
  if (cal) {
    const back = LANES[p].availability(cal, { startDate: start, endDate: end });
    same(back, cal);
    AvailabilitySchema.parse(back);
  }
  const reviews = attempt(() => world.reviews(p, id));
  const back = reviews && LANES[p].reviews(reviews, id);
  if (reviews && back) {
    same(back, reviews);
    z.array(ReviewSchema).parse(back);
  } else if (reviews) {
    expect(p).toBe('google'); // the only platform without a reviews normalizer
  }
}

describe('normalize(emit(x)) = x', () => {
  it.each(ENABLED_PLATFORMS)('%s: search rows, listing bodies and quotes over many locations and stays', (p) => {
    fc.assert(
      fc.property(locationArb, fc.option(stayArb, { nil: undefined }), stayArb, fc.integer({ min: 1, max: 4 }), (location, searchStay, quoteStay, rooms) => {
        const rows = attempt(() => world.searchPlatform(p, location, { currency: searchStay?.currency ?? 'USD', rooms, stay: searchStay }));
        for (const x of rows ?? []) {
          const back = LANES[p].search(x, searchStay);
          same(back, x);
          PropertySchema.parse(back);
        }
        for (const x of (rows ?? []).slice(0, 12)) checkListing(p, x.platformListingId, quoteStay);
      }),
      { numRuns: 40 },
    );
  });

  it.each(ENABLED_PLATFORMS)('%s: listings by any canonical id, with calendars and reviews', (p) => {
    fc.assert(
      fc.property(
        idArb[p].filter((id) => !MAGIC.has(id.split('/').pop()!)),
        stayArb,
        day,
        fc.integer({ min: 1, max: 90 }),
        (id, stay, start, days) => {
          checkListing(p, id, stay);
          checkCalendarAndReviews(p, id, start, days);
        },
      ),
      { numRuns: 60 },
    );
  });

  it.each(ENABLED_PLATFORMS)('%s: calendars and reviews of search results', (p) => {
    fc.assert(
      fc.property(locationArb, day, fc.integer({ min: 1, max: 120 }), fc.nat(59), (location, start, days, pick) => {
        const rows = attempt(() => world.searchPlatform(p, location, { currency: 'USD', rooms: 1 })) ?? [];
        const x = rows[pick % Math.max(1, rows.length)];
        if (x) checkCalendarAndReviews(p, x.platformListingId, start, days);
      }),
      { numRuns: 30 },
    );
  });

  it('google offers (prices[] as "$139" text and numbers) for any comparison query', () => {
    const query = fc.oneof(
      fc.record({ name: textArb(30), location: fc.option(locationArb, { nil: undefined }) }),
      locationArb.map((location) => ({ location })),
      idArb.google.map((googleHotelId) => ({ googleHotelId })),
      fc.constantFrom({ name: 'single' }, { name: 'empty' }, { name: 'Hotel Aurora', location: 'Lisbon' }),
    );
    fc.assert(
      fc.property(query, stayArb, (q, stay) => {
        const g = attempt(() => world.compareGoogle(q, stay));
        if (!g) return;
        const back = offersLane(g, stay);
        same(back, g);
        z.array(OfferSchema).parse(back.offers);
      }),
      { numRuns: 150 },
    );
  });
});

describe('the simulated upstream', () => {
  const sim = simulatedUpstream(world, { latencyMs: { airbnb: 0, booking: 0, vrbo: 0, google: 0 }, fail: {}, sleep: async () => {} });
  const sandbox = sandboxUpstream(world);
  const stay: StayQuery = { checkIn: '2026-07-10', checkOut: '2026-07-14', adults: 2, children: 1, childAges: [6], currency: 'EUR' };
  const ID: Record<EnabledPlatform, string> = { airbnb: '12345678', vrbo: '4886746', booking: 'pt/casa-azul', google: 'ChIJabcDEF1234567890' };

  async function outcome<T>(f: (u: Upstream) => Promise<T>): Promise<{ sim: unknown; sandbox: unknown }> {
    const run = (u: Upstream) =>
      f(u).then(
        (v) => ({ ok: v }),
        (e: unknown) => ({ code: e instanceof ServiceError ? e.code : String(e) }),
      );
    return { sim: await run(sim), sandbox: await run(sandbox) };
  }

  it.each(ENABLED_PLATFORMS)('%s: answers exactly what the sandbox answers, errors included', async (p) => {
    const calls: ((u: Upstream) => Promise<unknown>)[] = [];
    const ids = [ID[p], ...['404', '409', '410', '411', '502', '503', '504'].map((m) => (p === 'booking' ? `us/${m}` : m))];
    for (const location of ['Lisbon', 'Tokyo', 'empty', 'partial', 'fail', 'timeout', 'blocked']) {
      calls.push(
        (u) => u.searchPlatform(p, location, { currency: 'EUR', rooms: 2, stay }),
        (u) => u.searchPlatform(p, location, { currency: 'USD', rooms: 1 }),
      );
    }
    for (const id of ids) {
      calls.push(
        (u) => u.listing(p, id, { currency: 'EUR' }),
        (u) => u.price(p, id, stay),
        (u) => u.availability(p, id, '2026-06-01', '2026-09-01'),
        (u) => u.reviews(p, id),
      );
    }
    for (const call of calls) {
      const o = await outcome(call);
      expect(o.sim).toStrictEqual(o.sandbox);
    }
  });

  it('compares google offers exactly as the sandbox does', async () => {
    for (const q of [{ name: 'Hotel Aurora', location: 'Lisbon' }, { location: 'Paris' }, { googleHotelId: ID.google }, { name: 'single' }, { name: 'empty' }, { name: 'fail' }]) {
      const o = await outcome((u) => u.compareGoogle(q, stay));
      expect(o.sim).toStrictEqual(o.sandbox);
    }
  });
});
