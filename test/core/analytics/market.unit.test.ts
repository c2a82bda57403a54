// The market's pure parts (issue 34): a listing's kept summary (summarizeListing: a letter a
// night, each night's rows counted with their first and last seen, the bookings as numbers) and the
// tally of a group over a window (prepare, Tally), on hand-built calendar rows whose answers are
// worked out here night by night.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { inferWindow } from '../../../src/core/analytics/bookings.js';
import { seenWithin, summarizeListing } from '../../../src/core/analytics/listing-summary.js';
import { dayNumber } from '../../../src/core/clock.js';
import { Tally, prepare, summarize } from '../../../src/core/analytics/market.js';
import type { WindowPrice } from '../../../src/core/ports/history.js';
import type { ObservationRow } from '../../../src/core/ports/store.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2030, 0, 1);
const date = (d: number) => new Date(Date.UTC(2030, 2, 1) + d * DAY).toISOString().slice(0, 10);

let id = 0;
/** A night seen free from T0, and (when `takenAt` is given) taken from then on; last seen at T0 + 40 days. */
function night(d: number, takenAt?: number, minNights = 1): ObservationRow<'day'>[] {
  const free = { available: true, minNights, checkIn: true, checkOut: true, bookable: true };
  const end = T0 + 40 * DAY;
  const row = (value: ObservationRow<'day'>['value'], first: number, last: number): ObservationRow<'day'> => ({
    id: ++id,
    platform: 'airbnb',
    listingId: '1',
    kind: 'day',
    key: date(d),
    currency: null,
    value,
    source: 'test',
    firstSeen: first,
    lastSeen: last,
    timesSeen: 1,
  });
  if (takenAt === undefined) return [row(free, T0, end)];
  return [row(free, T0, takenAt - DAY), row({ ...free, available: false, checkIn: false, bookable: false }, takenAt, end)];
}

/** Nights 0-9 of March 2030: 2-4 booked (taken 20 days ahead, priced 100 EUR), the rest free. */
function calendar() {
  const taken = T0 + 30 * DAY;
  const days = [0, 1, 5, 6, 7, 8, 9].flatMap((d) => night(d)).concat([2, 3, 4].flatMap((d) => night(d, taken)));
  const quote: ObservationRow<'quote'> = {
    id: ++id,
    platform: 'airbnb',
    listingId: '1',
    kind: 'quote',
    key: `${date(2)}/${date(5)}/2`,
    currency: 'EUR',
    value: { nightlyPrice: 100, totalPrice: 300, fees: null },
    source: 'test',
    firstSeen: T0,
    lastSeen: taken - DAY,
    timesSeen: 1,
  };
  return { days, prices: [quote], taken };
}

describe('a listing summary', () => {
  it('classifies every night observed, counts each night’s rows, and keeps the bookings as numbers', () => {
    const { days, prices, taken } = calendar();
    const s = summarizeListing(days, prices);
    expect(s.first).toBe(date(0));
    expect(s.states).toBe('aabbbaaaaa');
    // One booking: check-in on night 2 (2 nights after the first), 3 nights, priced 100 EUR.
    expect(s.currencies).toEqual(['EUR']);
    expect(s.bookings.slice(0, 2)).toEqual([2, 3]);
    expect(s.bookings.slice(3)).toEqual([100, 0]);
    // Nights 1-3: one row, then two, then two; first seen T0, last seen T0 + 40 days.
    expect(seenWithin(s, 1, 4)).toEqual({ rows: 5, first: T0, last: T0 + 40 * DAY });
    expect(seenWithin(s, 0, 0)).toEqual({ rows: 0, first: Number.POSITIVE_INFINITY, last: Number.NEGATIVE_INFINITY });
    expect(taken).toBeGreaterThan(T0);
  });

  it('a window asked of the summary reads the same nights whatever window asks (within classifies those nights only)', () => {
    const { days, prices } = calendar();
    const whole = summarizeListing(days, prices);
    const within = summarizeListing(days, prices, { from: date(1), to: date(5) });
    expect(within.first).toBe(date(1));
    expect(within.states).toBe(whole.states.slice(1, 6));
  });

  it('any window’s rows, first and last seen equal those counted from the rows themselves, however many distinct instants', () => {
    fc.assert(
      fc.property(
        // Nights 0-79, each with 0-3 rows seen at any of 2,000 instants: up to 160 distinct, whose indexes take 1 or 2 characters.
        fc.array(fc.array(fc.tuple(fc.integer({ min: 0, max: 1999 }), fc.integer({ min: 0, max: 1999 })), { maxLength: 3, size: 'max' }), { minLength: 1, maxLength: 80, size: 'max' }),
        fc.integer({ min: -3, max: 82 }),
        fc.integer({ min: 0, max: 60 }),
        (nights, a, len) => {
          const free = { available: true, minNights: 1, checkIn: true, checkOut: true, bookable: true };
          const days: ObservationRow<'day'>[] = nights.flatMap((rows, d) =>
            rows.map(([x, y]) => ({
              id: ++id,
              platform: 'airbnb',
              listingId: '1',
              kind: 'day' as const,
              key: date(d),
              currency: null,
              value: free,
              source: 'test',
              firstSeen: T0 + Math.min(x, y) * 60_000 + 7,
              lastSeen: T0 + Math.max(x, y) * 60_000 + 7,
              timesSeen: 1,
            })),
          );
          const s = summarizeListing(days, []);
          if (s.first === null) {
            expect(days).toEqual([]);
            return;
          }
          const f = dayNumber(s.first);
          const inWindow = days.filter((r) => dayNumber(r.key) - f >= a && dayNumber(r.key) - f < a + len);
          expect(seenWithin(s, a, a + len)).toEqual({
            rows: inWindow.length,
            first: inWindow.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...inWindow.map((r) => r.firstSeen)),
            last: inWindow.length === 0 ? Number.NEGATIVE_INFINITY : Math.max(...inWindow.map((r) => r.lastSeen)),
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('the market tally', () => {
  const { days, prices } = calendar();
  const summary = summarizeListing(days, prices);
  const windowPrices: WindowPrice[] = [
    { checkIn: date(2), currency: 'EUR', nightly: 100, firstSeen: T0, lastSeen: T0 + 10 * DAY },
    { checkIn: date(6), currency: 'USD', nightly: 90, firstSeen: T0, lastSeen: T0 + 10 * DAY },
    { checkIn: date(20), currency: 'EUR', nightly: 120, firstSeen: T0, lastSeen: T0 + 10 * DAY },
  ];
  const listing = { platform: 'airbnb', listingId: '1', bedrooms: 2, summary, prices: windowPrices };

  it('counts a window’s nights, its bookings by check-in, and its prices in the answer’s currency', () => {
    const p = prepare(listing, date(0), date(10), 'EUR');
    // Ten nights of one or two rows (3 taken nights have two), and one price in EUR within the window.
    expect(p.window).toEqual({ observations: 13 + 1, first: T0, last: T0 + 40 * DAY });
    expect(p.windowPrices).toEqual([{ checkIn: date(2), nightly: 100 }]);
    const t = new Tally(date(0), date(10), 'EUR');
    t.add(p);
    const m = t.metrics();
    expect(m.activeListings.value).toBe(1);
    expect(m.occupancy.calendarUnavailableRate).toMatchObject({ value: 0.3, sampleSize: 10 });
    expect(m.occupancy.inferredBookedRate).toMatchObject({ value: 0.3, sampleSize: 10 });
    expect(m.adr).toMatchObject({ value: 100, sampleSize: 3 });
    expect(m.lengthOfStayNights).toMatchObject({ value: 3, sampleSize: 1 });
    expect(m.bookingWindowDays.sampleSize).toBe(1);
    expect(m.pricePercentiles).toMatchObject({ p50: 100, sampleSize: 1 });
  });

  it('the booked rate keeps its value and gains an interval from the night confidences (issue 37, item 3), by either method', () => {
    for (const method of ['calendar-diff/1', 'calendar-diff/2'] as const) {
      const s = summarizeListing(days, prices, undefined, method);
      const t = new Tally(date(0), date(10), 'EUR', method);
      t.add(prepare({ ...listing, summary: s }, date(0), date(10), 'EUR'));
      const m = t.metrics();
      expect(m.occupancy.inferredBookedRate).toMatchObject({ value: 0.3, sampleSize: 10 });
      // The band from the classification's own confidences (kept in twentieths): low counts each
      // booked night's doubt as for rent, high each for-rent night's doubt as booked.
      const nights = inferWindow({ days, prices, span: { from: date(0), to: date(9) } }, date(0), date(10), method).nights;
      const twentieths = (c: number) => Math.round(c * 20) / 20;
      const booked = nights.filter((n) => n.state === 'booked');
      const forRent = nights.filter((n) => n.state === 'available' || n.state === 'unbookable');
      const low = booked.reduce((x, n) => x + twentieths(n.confidence), 0) / 10;
      const high = (3 + forRent.reduce((x, n) => x + 1 - twentieths(n.confidence), 0)) / 10;
      const band = m.occupancy.inferredBookedRateInterval;
      expect(band.low).toBeCloseTo(low, 4);
      expect(band.high).toBeCloseTo(high, 4);
      // The interval holds the value (a booked night of confidence 0.975 or more, kept as 1, widens it by nothing).
      expect(band.low!).toBeLessThanOrEqual(0.3);
      expect(band.high!).toBeGreaterThan(0.3);
      expect(band.method).toBe(`confidence-band/1 (${method})`);
    }
    // No sample, no interval.
    expect(new Tally(date(0), date(10), 'EUR').metrics().occupancy.inferredBookedRateInterval).toMatchObject({ low: null, high: null });
  });

  it('a window that cuts a booking counts only its nights inside, and its check-in only where it falls', () => {
    const t = new Tally(date(3), date(10), 'EUR');
    t.add(prepare(listing, date(3), date(10), 'EUR'));
    const m = t.metrics();
    // Nights 3 and 4 of the booking are inside: booked 2 of 7 nights; ADR over those 2; no check-in inside.
    expect(m.occupancy.inferredBookedRate).toMatchObject({ value: Math.round((2 / 7) * 10_000) / 10_000, sampleSize: 7 });
    expect(m.adr).toMatchObject({ value: 100, sampleSize: 2 });
    expect(m.lengthOfStayNights).toMatchObject({ value: null, sampleSize: 0 });
  });

  it('prices in another currency are neither ADR nor percentiles', () => {
    const t = new Tally(date(0), date(10), 'USD');
    t.add(prepare(listing, date(0), date(10), 'USD'));
    const m = t.metrics();
    expect(m.adr).toMatchObject({ value: null, sampleSize: 0 });
    expect(m.pricePercentiles).toMatchObject({ p50: 90, sampleSize: 1 });
  });

  it('ADR prices a booked night only by a stay that includes it (issue 36, item 2), and counts the nights it priced', () => {
    const { days, taken } = calendar();
    const quote = (key: string, nightly: number): ObservationRow<'quote'> => ({
      id: ++id,
      platform: 'airbnb',
      listingId: '1',
      kind: 'quote',
      key,
      currency: 'EUR',
      value: { nightlyPrice: nightly, totalPrice: nightly * 2, fees: null },
      source: 'test',
      firstSeen: T0,
      lastSeen: taken - DAY,
      timesSeen: 1,
    });
    // Booked nights 2-4. A stay after them (nights 6-7) prices none; one of nights 3-4 prices those two; one seen after the booking none.
    const after = { ...quote(`${date(2)}/${date(5)}/2`, 500), firstSeen: taken + DAY, lastSeen: taken + 2 * DAY };
    const s = summarizeListing(days, [quote(`${date(6)}/${date(8)}/2`, 300), quote(`${date(3)}/${date(5)}/2`, 80), after]);
    const t = new Tally(date(0), date(10), 'EUR');
    t.add(prepare({ ...listing, summary: s, prices: [] }, date(0), date(10), 'EUR'));
    expect(t.metrics().adr).toMatchObject({ value: 80, sampleSize: 2 });
    // Nothing priced for any of them: no ADR, never another stay's price.
    const none = summarizeListing(days, [quote(`${date(6)}/${date(8)}/2`, 300)]);
    const u = new Tally(date(0), date(10), 'EUR');
    u.add(prepare({ ...listing, summary: none, prices: [] }, date(0), date(10), 'EUR'));
    expect(u.metrics().adr).toMatchObject({ value: null, sampleSize: 0 });
  });

  it('market ADR’s sample over any window is the priced booked nights the same listing’s history bookings report there', () => {
    const { days, prices } = calendar();
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 12 }), fc.integer({ min: 1, max: 15 }), (a, len) => {
        const from = date(a);
        const to = date(a + len);
        const t = new Tally(from, to, 'EUR');
        t.add(prepare({ ...listing, summary, prices: [] }, from, to, 'EUR'));
        const w = inferWindow({ days, prices, span: { from: date(0), to: date(9) } }, from, to);
        const priced = w.priceRuns.reduce((n, r) => n + Math.max(0, Math.min(r.from + r.nights, dayNumber(to)) - Math.max(r.from, dayNumber(from))), 0);
        expect(t.metrics().adr.sampleSize).toBe(priced);
        // Every night a booking of the window priced is one of them.
        expect(w.bookings.reduce((n, b) => n + b.pricedNights, 0)).toBeGreaterThanOrEqual(priced);
      }),
      { numRuns: 200 },
    );
  });

  it('every figure names the listings it rests on, and the summary states the coverage (issue 36, item 9)', () => {
    const t = new Tally(date(0), date(10), 'EUR');
    // One listing with a calendar and a price; three seen only with a price (supply without calendars).
    t.add(prepare(listing, date(0), date(10), 'EUR'));
    for (const id of ['2', '3', '4']) t.add(prepare({ ...listing, listingId: id, summary: null, prices: [windowPrices[0]!] }, date(0), date(10), 'EUR'));
    const m = t.metrics();
    expect(m.activeListings).toMatchObject({ value: 4, listings: 4 });
    expect(m.occupancy.calendarUnavailableRate).toMatchObject({ sampleSize: 10, listings: 1 });
    expect(m.occupancy.inferredBookedRate.listings).toBe(1);
    expect(m.adr).toMatchObject({ sampleSize: 3, listings: 1 });
    expect(m.lengthOfStayNights.listings).toBe(1);
    expect(m.pricePercentiles).toMatchObject({ sampleSize: 4, listings: 4 });
    const text = summarize(m, 'EUR', 'Lisbon', date(0), date(10), { observations: 1, first: T0, last: T0 });
    expect(text).toContain('observed listing-nights, over 1 of 4 active listings, 25 %');
    // No sample, no listings.
    expect(new Tally(date(0), date(10), 'EUR').metrics().adr).toMatchObject({ value: null, sampleSize: 0, listings: 0 });
  });

  it('market and history bookings agree night for night over random calendars and windows (issue 36, item 1)', () => {
    fc.assert(
      fc.property(
        // 40 nights, each free or taken at one of four instants (runs taken at one instant are one hold), minimum stay 1-3.
        fc.array(fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }), { minLength: 40, maxLength: 40 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: -5, max: 40 }),
        fc.integer({ min: 1, max: 30 }),
        (taken, minNights, a, len) => {
          const days = taken.flatMap((k, d) => night(d, k === undefined ? undefined : T0 + k * 7 * DAY, minNights));
          const s = summarizeListing(days, []);
          const [from, to] = [date(a), date(a + len)];
          const t = new Tally(from, to, 'EUR');
          t.add(prepare({ ...listing, summary: s, prices: [] }, from, to, 'EUR'));
          const m = t.metrics();
          const w = inferWindow({ days, prices: [], span: { from: date(0), to: date(39) } }, from, to);
          const c = w.counts;
          // The same nights in the same states.
          expect(m.occupancy.calendarUnavailableRate.sampleSize).toBe(c.available + c.booked + c.blocked + c.unbookable);
          expect(m.occupancy.inferredBookedRate.sampleSize).toBe(c.booked + c.available + c.unbookable);
          if (c.booked + c.available + c.unbookable > 0) expect(m.occupancy.inferredBookedRate.value).toBe(Math.round((c.booked / (c.booked + c.available + c.unbookable)) * 10_000) / 10_000);
          // The same bookings checking in within the window, whole (not cut at its edges).
          const checkingIn = w.bookings.filter((b) => b.checkIn >= from && b.checkIn < to);
          expect(m.lengthOfStayNights.sampleSize).toBe(checkingIn.length);
          if (checkingIn.length > 0) expect(m.lengthOfStayNights.value).toBe(Math.round((checkingIn.reduce((n, b) => n + b.nights, 0) / checkingIn.length) * 100) / 100);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('day numbers are UTC days', () => {
    expect(dayNumber('1970-01-02')).toBe(1);
    expect(dayNumber(date(0)) + 9).toBe(dayNumber(date(9)));
  });
});
