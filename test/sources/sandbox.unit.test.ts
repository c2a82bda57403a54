// The deterministic sandbox world (D21), tested directly: schema validity of every answer,
// determinism, native rating scales, the documented triggers, calendars, prices and reviews.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ServiceError } from '../../src/core/errors.js';
import { parseListingId, parseListingUrl } from '../../src/core/listing-ref.js';
import { ENABLED_PLATFORMS, type EnabledPlatform, RATING_SCALE } from '../../src/core/platforms.js';
import { AvailabilitySchema, OfferSchema, PriceSchema, PropertySchema, ReviewSchema } from '../../src/core/schemas/resources.js';
import type { SandboxWorld, StayQuery } from '../../src/sources/sandbox/types.js';
import { createSandboxWorld } from '../../src/sources/sandbox/world.js';
import { caught } from '../helpers/caught.js';

const w = createSandboxWorld();
const stay: StayQuery = { checkIn: '2026-07-10', checkOut: '2026-07-14', adults: 2, children: 1, childAges: [6], currency: 'EUR' };
const usd: StayQuery = { ...stay, currency: 'USD' };
const SAMPLE_ID: Record<EnabledPlatform, string> = { airbnb: '12345678', vrbo: '4886746', booking: 'pt/casa-azul', google: 'ChIJabcDEF1234567890' };
const magicId = (p: EnabledPlatform, m: string) => (p === 'booking' ? `us/${m}` : m);

/** Every answer of one world for a fixed set of calls, as one JSON string. */
function transcript(world: SandboxWorld, reverse = false): string {
  const calls: (() => unknown)[] = [];
  for (const p of ENABLED_PLATFORMS) {
    const id = SAMPLE_ID[p];
    calls.push(
      () => world.searchPlatform(p, 'Lisbon', { currency: 'EUR', rooms: 2, stay }),
      () => world.searchPlatform(p, 'Springfield, IL', { currency: 'USD', rooms: 1 }),
      () => world.listing(p, id, { currency: 'EUR', requestedId: id, stay }),
      () => world.price(p, id, stay),
      () => world.availability(p, id, '2026-06-01', '2026-09-01'),
      () => world.reviews(p, id),
    );
  }
  calls.push(() => world.compareGoogle({ name: 'Hotel Aurora', location: 'Lisbon' }, stay));
  const order = reverse ? [...calls.keys()].reverse() : [...calls.keys()];
  const out: unknown[] = [];
  for (const i of order) out[i] = calls[i]!();
  return JSON.stringify(out);
}

describe('schema validity', () => {
  it.each(ENABLED_PLATFORMS)('%s: every method answers in the resource schemas', (p) => {
    const id = SAMPLE_ID[p];
    for (const loc of ['Lisbon', 'new york', 'Springfield, IL', '38.72,-9.14', '0,-140', 'Kyoto, Japan']) {
      z.array(PropertySchema).parse(w.searchPlatform(p, loc, { currency: 'USD', rooms: 1 }));
      z.array(PropertySchema).parse(w.searchPlatform(p, loc, { currency: 'JPY', rooms: 3, stay: { ...stay, currency: 'JPY' } }));
    }
    PropertySchema.parse(w.listing(p, id, { currency: 'EUR', requestedId: id }));
    PropertySchema.parse(w.listing(p, id, { currency: 'EUR', requestedId: id, stay }));
    PriceSchema.parse(w.price(p, id, stay));
    AvailabilitySchema.parse(w.availability(p, id, '2026-01-01', '2026-12-31'));
    z.array(ReviewSchema).parse(w.reviews(p, id));
  });

  it('search rows of every platform parse for many places, and their ids survive the real id parser', () => {
    for (const p of ENABLED_PLATFORMS) {
      for (const loc of ['Paris', 'Tokyo', 'Cartagena', 'Reykjavik', 'Nowhere Town']) {
        for (const row of w.searchPlatform(p, loc, { currency: 'USD', rooms: 1 })) {
          expect(parseListingId(p, row.platformListingId, { param: 'id' })).toBe(row.platformListingId);
          expect(parseListingUrl(p, row.url, { param: 'url' })).toBe(row.platformListingId);
          const detail = w.listing(p, row.platformListingId, { currency: 'USD', requestedId: row.id });
          PropertySchema.parse(detail);
        }
      }
    }
  });

  it('compareGoogle offers parse', () => {
    for (const q of [{ name: 'Hotel Aurora', location: 'Lisbon' }, { location: 'Paris' }, { googleHotelId: SAMPLE_ID.google }, { name: 'Ryokan 京都' }]) {
      const g = w.compareGoogle(q, stay);
      expect(g.property.length).toBeGreaterThan(0);
      z.array(OfferSchema).parse(g.offers);
    }
  });
});

describe('determinism (D21)', () => {
  it('the same call twice gives identical output', () => {
    expect(transcript(w)).toBe(transcript(w));
  });

  it('two separately created worlds agree, whatever order they are called in', () => {
    expect(transcript(createSandboxWorld(), true)).toBe(transcript(createSandboxWorld()));
  });

  it('the location is matched case-insensitively and trimmed', () => {
    const a = w.searchPlatform('airbnb', 'Lisbon', { currency: 'USD', rooms: 1 });
    expect(w.searchPlatform('airbnb', '  lisbon ', { currency: 'USD', rooms: 1 })).toEqual(a);
  });
});

describe('search', () => {
  it.each(ENABLED_PLATFORMS)('%s: the candidates read row by row are the full set, whatever is read first', (p) => {
    for (const [location, o] of [
      ['Lisbon', { currency: 'EUR', rooms: 2, stay }],
      ['Springfield, IL', { currency: 'USD', rooms: 1 }],
    ] as const) {
      const full = createSandboxWorld().searchPlatform(p, location, o);
      // A fresh world: its set makes rows only as they are read (a page reads a prefix).
      const lazy = createSandboxWorld().searchCandidates(p, location, o);
      expect(lazy.at(2)).toEqual(full[2]);
      expect(lazy.at(0)).toEqual(full[0]);
      expect(lazy.at(60)).toBeUndefined();
      expect(JSON.stringify(lazy)).toBe(JSON.stringify(full));
      expect(lazy.all()).toEqual(full);
    }
  });

  it.each(ENABLED_PLATFORMS)('%s: 60 candidates with unique native ids in the platform format', (p) => {
    const rows = w.searchPlatform(p, 'Lisbon', { currency: 'USD', rooms: 1 });
    expect(rows).toHaveLength(60);
    expect(new Set(rows.map((r) => r.platformListingId)).size).toBe(60);
    const format = { airbnb: /^[1-9]\d{7,8}$/, vrbo: /^[1-9]\d{6,7}$/, booking: /^pt\/[a-z0-9-]+$/, google: /^ChIJ[A-Za-z0-9]{14,20}$/ }[p];
    for (const r of rows) {
      expect(r.platformListingId).toMatch(format);
      expect(r.id).toBe(`stays_${p}_${r.platformListingId}`);
      expect(r.price).toBeNull();
      expect(r.images).toHaveLength(1);
      expect(r.location).toMatchObject({ city: 'Lisbon', country: 'PT' });
      // scattered within ~5 km of the centre (38.7223, -9.1393)
      expect(Math.abs(r.location.lat! - 38.7223)).toBeLessThan(0.05);
      expect(Math.abs(r.location.lng! + 9.1393)).toBeLessThan(0.07);
      if (p === 'airbnb' || p === 'vrbo') {
        expect(r.host).not.toBeNull();
        expect(r.starRating).toBeNull();
      } else if (r.propertyType === 'hotel') {
        expect(r.host).toBeNull();
        expect(r.starRating).toBeGreaterThanOrEqual(1);
        expect(r.starRating).toBeLessThanOrEqual(5);
      }
    }
  });

  it('hotels dominate booking and google; homes airbnb and vrbo', () => {
    const share = (p: EnabledPlatform) => w.searchPlatform(p, 'Paris', { currency: 'USD', rooms: 1 }).filter((r) => r.propertyType === 'hotel').length / 60;
    expect(share('booking')).toBeGreaterThan(0.5);
    expect(share('google')).toBeGreaterThan(0.6);
    expect(share('airbnb')).toBe(0);
    expect(share('vrbo')).toBe(0);
  });

  it('a search row and the listing detail of its id agree on the id-derived facts and the price', () => {
    for (const p of ENABLED_PLATFORMS) {
      for (const row of w.searchPlatform(p, 'Rome', { currency: 'EUR', rooms: 1, stay }).slice(0, 15)) {
        const d = w.listing(p, row.platformListingId, { currency: 'EUR', requestedId: row.platformListingId, stay });
        for (const k of ['id', 'platform', 'url', 'propertyType', 'guestRating', 'reviewCount', 'starRating', 'amenities', 'price'] as const) expect(d[k]).toEqual(row[k]);
        expect(d.images[0]).toBe(row.images[0]);
      }
    }
  });

  it('a lat,lng location reads as the city it is in, with rows around the point', () => {
    const rows = w.searchPlatform('airbnb', '38.72,-9.14', { currency: 'USD', rooms: 1 });
    for (const r of rows) {
      expect(r.location.city).toBe('Lisbon');
      expect(r.location.country).toBe('PT');
      expect(Math.abs(r.location.lat! - 38.72)).toBeLessThan(0.05);
    }
    // Far from every known city: the point in words; no name quotes raw coordinates.
    for (const p of ENABLED_PLATFORMS) {
      for (const r of w.searchPlatform(p, '0,-140', { currency: 'USD', rooms: 1 })) {
        expect(r.location.city).toBe('near 0.00, -140.00');
        expect(r.name).not.toMatch(/\d\.\d\d|near 0/i);
      }
    }
    for (const r of w.searchPlatform('vrbo', '38.72,-9.14', { currency: 'USD', rooms: 1 })) expect(r.name).not.toMatch(/\d\.\d\d/);
  });

  it('dated rows carry a price; a booking price covers every room', () => {
    const one = w.searchPlatform('booking', 'Madrid', { currency: 'USD', rooms: 1, stay: { ...usd, children: 0, childAges: [] } });
    const two = w.searchPlatform('booking', 'Madrid', { currency: 'USD', rooms: 2, stay: { ...usd, children: 0, childAges: [] } });
    two.forEach((r, i) => {
      PriceSchema.parse(r.price);
      expect(r.price!.nightlyPrice).toBeCloseTo(2 * one[i]!.price!.nightlyPrice, 1);
    });
  });

  it('triggers: empty, partial, fail, timeout, blocked', () => {
    for (const p of ENABLED_PLATFORMS) expect(w.searchPlatform(p, ' Empty ', { currency: 'USD', rooms: 1 })).toEqual([]);
    const failed = ENABLED_PLATFORMS.filter((p) => {
      try {
        w.searchPlatform(p, 'partial', { currency: 'USD', rooms: 1 });
        return false;
      } catch (e) {
        expect((e as ServiceError).code).toBe('all_actors_failed');
        return true;
      }
    });
    expect(failed).toEqual(['google']);
    for (const [loc, code] of [
      ['fail', 'all_actors_failed'],
      ['TIMEOUT', 'actor_timeout'],
      [' blocked', 'actor_blocked'],
    ] as const) {
      for (const p of ENABLED_PLATFORMS) {
        const e = caught(() => w.searchPlatform(p, loc, { currency: 'USD', rooms: 1 }));
        expect(e.code).toBe(code);
        expect(e.message).toMatch(/^Sandbox trigger/);
      }
    }
  });
});

describe('ratings on native scales', () => {
  it.each(ENABLED_PLATFORMS)('%s', (p) => {
    const scale = RATING_SCALE[p];
    const [lo, hi] = { airbnb: [4.3, 5], vrbo: [4, 5], booking: [6.8, 9.7], google: [3.6, 4.9] }[p];
    for (const r of w.searchPlatform(p, 'Berlin', { currency: 'USD', rooms: 1 })) {
      expect(r.ratingScale).toBe(scale);
      if (r.guestRating === null) expect(r.reviewCount).toBeLessThan(5);
      else {
        expect(r.guestRating).toBeGreaterThanOrEqual(lo!);
        expect(r.guestRating).toBeLessThanOrEqual(hi!);
        expect(Math.round(r.guestRating * 10) / 10).toBe(r.guestRating);
      }
    }
    for (const rv of w.reviews(p, SAMPLE_ID[p])) {
      expect(rv.ratingScale).toBe(scale);
      expect(rv.rating).toBeGreaterThanOrEqual(1);
      expect(rv.rating).toBeLessThanOrEqual(scale);
    }
  });
});

describe('magic listing ids', () => {
  const everywhere = [
    ['404', 'listing_not_found'],
    ['409', 'identity_mismatch'],
    ['502', 'actor_blocked'],
    ['503', 'all_actors_failed'],
    ['504', 'actor_timeout'],
  ] as const;
  it.each(ENABLED_PLATFORMS)('%s: every method throws the documented code', (p) => {
    for (const [m, code] of everywhere) {
      const id = magicId(p, m);
      const calls = [() => w.listing(p, id, { currency: 'USD', requestedId: id }), () => w.price(p, id, stay), () => w.availability(p, id, '2026-07-01', '2026-07-08'), () => w.reviews(p, id)];
      for (const call of calls) {
        const e = caught(call);
        expect(e.code).toBe(code);
        expect(e.message).toMatch(new RegExp(`^Sandbox trigger: listing ${m} .*\\(${code}\\)\\.$`));
      }
    }
  });

  it.each(ENABLED_PLATFORMS)('%s: 410 and 411 fail price() only; listing with dates has a null price', (p) => {
    for (const [m, code] of [
      ['410', 'no_availability'],
      ['411', 'price_not_found'],
    ] as const) {
      const id = magicId(p, m);
      expect(caught(() => w.price(p, id, stay)).code).toBe(code);
      expect(w.listing(p, id, { currency: 'USD', requestedId: id, stay }).price).toBeNull();
      expect(w.listing(p, id, { currency: 'USD', requestedId: id }).images.length).toBeGreaterThan(0);
      expect(w.reviews(p, id).length).toBeGreaterThanOrEqual(0);
      const cal = w.availability(p, id, '2026-07-01', '2026-07-31');
      expect(cal.dates).toHaveLength(30);
      if (m === '410') expect(cal.dates.every((d) => !d.available)).toBe(true);
    }
  });

  it('the last path segment decides: booking us/404 and a non-magic neighbour', () => {
    expect(caught(() => w.listing('booking', 'gb/404', { currency: 'USD', requestedId: 'gb/404' })).code).toBe('listing_not_found');
    expect(() => w.listing('booking', 'us/hotel-404', { currency: 'USD', requestedId: 'x' })).not.toThrow();
    expect(() => w.price('airbnb', '4040', stay)).not.toThrow();
  });
});

describe('listing', () => {
  it.each(ENABLED_PLATFORMS)('%s: images, identity echo and an embedded price equal to price()', (p) => {
    const id = SAMPLE_ID[p];
    const d = w.listing(p, id, { currency: 'EUR', requestedId: `stays_${p}_${id}`, stay });
    expect(d.images.length).toBeGreaterThanOrEqual(3);
    expect(d.images.length).toBeLessThanOrEqual(8);
    expect(d.identity).toEqual({ requestedId: `stays_${p}_${id}`, resolvedId: id, canonicalUrl: d.url });
    expect(d.price).toEqual(w.price(p, id, stay));
    expect(w.listing(p, id, { currency: 'EUR', requestedId: id }).price).toBeNull();
  });

  it('a booking id names the listing and places it in its country', () => {
    const d = w.listing('booking', 'pt/hotel-aurora-lisboa', { currency: 'USD', requestedId: 'x' });
    expect(d).toMatchObject({ name: 'Hotel Aurora Lisboa', propertyType: 'hotel', url: 'https://www.booking.com/hotel/pt/hotel-aurora-lisboa.html' });
    expect(d.location).toMatchObject({ city: 'Lisbon', country: 'PT' });
    expect(w.listing('booking', 'co/casa-de-alba', { currency: 'USD', requestedId: 'x' }).location.country).toBe('CO');
  });
});

describe('price', () => {
  it.each(ENABLED_PLATFORMS)('%s: echoes listing and stay; total = nightly × nights + stated fees', (p) => {
    const id = SAMPLE_ID[p];
    const q = w.price(p, id, stay);
    expect(q).toMatchObject({ platform: p, listingId: id, currency: 'EUR', nights: 4, source: p, occupancy: { adults: 2, children: 1, childAges: [6] } });
    const fees = (q.fees.cleaning ?? 0) + (q.fees.service ?? 0) + (q.fees.taxes ?? 0);
    expect(Math.abs(q.totalPrice - (q.nightlyPrice * q.nights + fees))).toBeLessThan(0.011);
    const stated = Object.entries(q.fees)
      .filter(([, v]) => v !== null)
      .map(([k]) => k);
    expect(stated).toEqual({ airbnb: ['cleaning', 'service', 'taxes'], booking: ['taxes'], vrbo: [], google: [] }[p]);
    for (const n of [q.nightlyPrice, q.totalPrice, ...Object.values(q.fees)]) if (n !== null) expect(Math.round(n * 100) / 100).toBe(n);
  });

  it('converts with the fixed rate table; unknown currencies use rate 1; JPY has no decimals', () => {
    const u = w.price('vrbo', '4886746', usd);
    expect(w.price('vrbo', '4886746', { ...stay, currency: 'EUR' }).nightlyPrice).toBeCloseTo(u.nightlyPrice * 0.92, 1);
    expect(w.price('vrbo', '4886746', { ...stay, currency: 'XYZ' }).nightlyPrice).toBe(u.nightlyPrice);
    const y = w.price('airbnb', '12345678', { ...stay, currency: 'JPY' });
    for (const n of [y.nightlyPrice, y.totalPrice, y.fees.cleaning, y.fees.service, y.fees.taxes]) expect(Number.isInteger(n)).toBe(true);
  });

  it('nights are counted in UTC across month ends and leap days', () => {
    expect(w.price('airbnb', '12345678', { ...stay, checkIn: '2028-02-27', checkOut: '2028-03-02' }).nights).toBe(4);
    expect(w.price('airbnb', '12345678', { ...stay, checkIn: '2026-12-30', checkOut: '2027-01-02' }).nights).toBe(3);
  });
});

describe('availability', () => {
  it.each(ENABLED_PLATFORMS)('%s: one entry per day and the platform nullness rules', (p) => {
    const cal = w.availability(p, SAMPLE_ID[p], '2028-02-20', '2028-03-10');
    expect(cal).toMatchObject({ platform: p, listingId: SAMPLE_ID[p] });
    expect(cal.dates).toHaveLength(19);
    expect(cal.dates[0]!.date).toBe('2028-02-20');
    expect(cal.dates.map((d) => d.date)).toContain('2028-02-29');
    expect(cal.dates.at(-1)!.date).toBe('2028-03-09');
    for (const d of cal.dates) {
      if (p === 'google') expect(d).toMatchObject({ minNights: null, checkIn: null, checkOut: null, bookable: null });
      if (p === 'booking') expect(d).toMatchObject({ minNights: null, checkIn: null, checkOut: null, bookable: d.available });
      if (p === 'airbnb' || p === 'vrbo') {
        expect(d.minNights).toBeGreaterThanOrEqual(1);
        expect(d.minNights).toBeLessThanOrEqual(7);
        expect(typeof d.checkIn).toBe('boolean');
        expect(typeof d.checkOut).toBe('boolean');
        expect(d.bookable).toBe(d.available && d.checkIn !== false);
      }
    }
  });

  it('about 70% of days are available, in runs, and overlapping windows agree', () => {
    let free = 0;
    let total = 0;
    let changes = 0;
    for (let i = 0; i < 40; i++) {
      const dates = w.availability('airbnb', String(20_000_000 + i), '2026-01-01', '2027-01-01').dates;
      total += dates.length;
      free += dates.filter((d) => d.available).length;
      for (let k = 1; k < dates.length; k++) if (dates[k]!.available !== dates[k - 1]!.available) changes++;
    }
    expect(free / total).toBeGreaterThan(0.6);
    expect(free / total).toBeLessThan(0.8);
    expect(changes / total).toBeLessThan(0.2); // runs, not coin flips
    const whole = w.availability('vrbo', '4886746', '2026-03-01', '2026-05-01').dates;
    const part = w.availability('vrbo', '4886746', '2026-04-01', '2026-04-15').dates;
    expect(part).toEqual(whole.slice(31, 45));
  });

  it('an empty window has no days', () => {
    expect(w.availability('airbnb', '12345678', '2026-07-01', '2026-07-01').dates).toEqual([]);
  });
});

describe('reviews', () => {
  it.each(ENABLED_PLATFORMS)('%s: newest first, unique ids, count = reviewCount, platform fields', (p) => {
    const id = SAMPLE_ID[p];
    const all = w.reviews(p, id);
    expect(all.length).toBe(w.listing(p, id, { currency: 'USD', requestedId: id }).reviewCount);
    expect(new Set(all.map((r) => r.reviewId)).size).toBe(all.length);
    const dates = all.map((r) => r.date);
    expect(dates).toEqual([...dates].sort().reverse());
    for (const r of all) {
      expect(r.date >= '2023-01-01' && r.date <= '2026-06-30').toBe(true);
      expect(['en', 'pt', 'fr', 'de', 'es']).toContain(r.language);
      expect(r.listingId).toBe(id);
      if (p === 'booking') expect(r.liked).not.toBeNull();
      else expect([r.liked, r.disliked]).toEqual([null, null]);
    }
  });

  it('counts vary by id within 0..150, and 12345678 has a healthy number', () => {
    const counts = Array.from({ length: 60 }, (_v, i) => w.reviews('airbnb', String(30_000_000 + i)).length);
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...counts)).toBeLessThanOrEqual(150);
    expect(new Set(counts).size).toBeGreaterThan(20);
    for (const p of ['airbnb', 'vrbo', 'booking'] as const) expect(w.reviews(p, p === 'booking' ? 'pt/12345678' : '12345678').length).toBeGreaterThan(30);
  });
});

describe('compareGoogle', () => {
  it('3–6 sellers, cheapest first, in the stay currency', () => {
    const g = w.compareGoogle({ name: 'Hotel Aurora', location: 'Lisbon' }, stay);
    expect(g.property).toBe('Hotel Aurora');
    expect(g.offers.length).toBeGreaterThanOrEqual(3);
    expect(g.offers.length).toBeLessThanOrEqual(6);
    const totals = g.offers.map((o) => o.totalPrice);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
    for (const o of g.offers) {
      expect(o.currency).toBe('EUR');
      expect(['Booking.com', 'Expedia', 'Hotels.com', 'Agoda', 'Trip.com', 'Hotel Aurora (official site)']).toContain(o.ota);
    }
  });

  it('a googleHotelId names the property as listing detail does; 404 is listing_not_found', () => {
    const id = SAMPLE_ID.google;
    expect(w.compareGoogle({ googleHotelId: id }, stay).property).toBe(w.listing('google', id, { currency: 'USD', requestedId: id }).name);
    expect(caught(() => w.compareGoogle({ googleHotelId: '404' }, stay)).code).toBe('listing_not_found');
  });

  it('name "single" gives exactly the lowest offer; location triggers apply', () => {
    const one = w.compareGoogle({ name: 'single', location: 'Lisbon' }, stay);
    expect(one.offers).toHaveLength(1);
    expect(w.compareGoogle({ name: 'empty' }, stay).offers).toEqual([]);
    expect(caught(() => w.compareGoogle({ location: 'timeout' }, stay)).code).toBe('actor_timeout');
  });
});
