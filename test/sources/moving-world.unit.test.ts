// The moving world (issue 26, item 2; src/sources/sandbox/moving.ts): the simulated upstream's
// world at the clock's instant. Deterministic per instant; prices move in steps; calendars fill
// with bookings and host blocks made before their nights; listings come and go; worldTruth reads
// back exactly what the world answers. The fixed world (sandbox keys) stays as it was.
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import type { EnabledPlatform } from '../../src/core/platforms.js';
import { createSandboxWorld } from '../../src/sources/sandbox/world.js';
import { HOUR_MS, worldTruth } from '../../src/sources/sandbox/moving.js';
import type { StayQuery } from '../../src/sources/sandbox/types.js';

const T0 = Date.UTC(2027, 0, 1);
const SIX_HOURS = 6 * HOUR_MS;
const DAY = 24 * HOUR_MS;
const stay = (checkIn: string, checkOut: string): StayQuery => ({ checkIn, checkOut, adults: 2, children: 0, childAges: [], currency: 'USD' });
const STAY = stay('2027-02-12', '2027-02-15');
const instants = Array.from({ length: 120 }, (_v, i) => T0 + i * SIX_HOURS);

/** The world as the simulated upstream reads it, at a settable instant. */
function worldAt(t: number) {
  const clock = manualClock(t);
  return { world: createSandboxWorld({ clock }), clock };
}

describe('the moving world', () => {
  it('is a pure function of the instant: two worlds agree, and the truth is what they answer', () => {
    const a = worldAt(T0 + 5 * DAY + 3 * HOUR_MS).world;
    const b = worldAt(T0 + 5 * DAY + 3 * HOUR_MS).world;
    for (const [p, id] of [
      ['airbnb', '4242'],
      ['vrbo', '3311224'],
      ['booking', 'fr/hotel-lumiere'],
    ] as [EnabledPlatform, string][]) {
      expect(a.price(p, id, STAY)).toEqual(b.price(p, id, STAY));
      expect(a.price(p, id, STAY)).toEqual(worldTruth.priceAt(p, id, STAY, T0 + 5 * DAY + 3 * HOUR_MS));
      expect(a.availability(p, id, '2027-01-01', '2027-03-01')).toEqual(b.availability(p, id, '2027-01-01', '2027-03-01'));
    }
    expect(a.searchPlatform('airbnb', 'Lisbon', { currency: 'EUR', rooms: 1, stay: STAY })).toEqual(b.searchPlatform('airbnb', 'Lisbon', { currency: 'EUR', rooms: 1, stay: STAY }));
  });

  it('leaves the fixed world as it was: without a clock, answers do not depend on any instant', () => {
    const fixed = createSandboxWorld();
    const moving = worldAt(T0).world;
    // The fixed calendar is the moving one at the end of time: every hold made.
    const late = worldAt(Date.UTC(2100, 0, 1)).world;
    expect(late.availability('airbnb', '4242', '2027-01-01', '2027-04-01')).toEqual(fixed.availability('airbnb', '4242', '2027-01-01', '2027-04-01'));
    expect(fixed.price('airbnb', '4242', STAY)).toEqual(createSandboxWorld().price('airbnb', '4242', STAY));
    // And the moving one differs somewhere: its price moved, or a hold is not made yet.
    const same = [...Array(20).keys()].every((i) => JSON.stringify(moving.price('airbnb', String(4242 + i), STAY)) === JSON.stringify(fixed.price('airbnb', String(4242 + i), STAY)));
    expect(same).toBe(false);
  });

  it('moves prices in steps: over 120 six-hourly instants some changes and long runs without one', () => {
    for (const id of ['4242', '777001', '12345678', '99887766', '51515151']) {
      const series = instants.map((t) => worldTruth.priceAt('airbnb', id, STAY, t).nightlyPrice);
      const distinct = new Set(series).size;
      expect(distinct).toBeGreaterThan(1);
      expect(distinct).toBeLessThan(120);
      let longest = 1;
      for (let i = 1, run = 1; i < series.length; i++) {
        run = series[i] === series[i - 1] ? run + 1 : 1;
        longest = Math.max(longest, run);
      }
      // The level holds a 12-hour step at the least: every value lasts two instants or more.
      expect(longest).toBeGreaterThanOrEqual(4);
      const changes = series.filter((v, i) => i > 0 && v !== series[i - 1]).length;
      expect(changes).toBeLessThan(60);
    }
  });

  it('charges by lead time: a stay days ahead costs other than the same stay months ahead, at the same level', () => {
    // Same instant, so the same price level: the two stays differ by lead only, and by their nights.
    const near = stay('2027-01-03', '2027-01-04');
    const far = stay('2027-05-02', '2027-05-03');
    const fixed = createSandboxWorld();
    const ratio = (s: StayQuery) => worldTruth.priceAt('airbnb', '4242', s, T0).nightlyPrice / fixed.price('airbnb', '4242', s).nightlyPrice;
    expect(Math.abs(ratio(near) - ratio(far))).toBeGreaterThan(0.02);
  });

  it('fills calendars: each hold is made before its nights, its nights free before and booked after', () => {
    const p: EnabledPlatform = 'airbnb';
    let bookings = 0;
    let blocks = 0;
    for (const id of ['4242', '777001', '12345678']) {
      const holds = worldTruth.holds(p, id, '2027-01-15', '2027-04-15');
      expect(holds.length).toBeGreaterThan(3);
      for (const h of holds) {
        const firstNight = Date.parse(`${h.checkIn}T00:00:00Z`);
        expect(h.atMs).toBeLessThan(firstNight);
        expect(firstNight - h.atMs).toBeLessThanOrEqual(121 * DAY);
        expect(h.nights).toBeGreaterThanOrEqual(1);
        expect(h.nights).toBeLessThanOrEqual(8);
        const before = worldAt(h.atMs - HOUR_MS).world.availability(p, id, h.checkIn, h.checkOut).dates;
        const after = worldAt(h.atMs).world.availability(p, id, h.checkIn, h.checkOut).dates;
        expect(before.every((d) => d.available)).toBe(true);
        expect(after.every((d) => !d.available)).toBe(true);
        // Past nights stay as they were: long after, still booked.
        expect(
          worldAt(firstNight + 200 * DAY)
            .world.availability(p, id, h.checkIn, h.checkOut)
            .dates.every((d) => !d.available),
        ).toBe(true);
        if (h.kind === 'booking') {
          bookings++;
          expect(h.nightlyPrice).toBe(worldTruth.priceAt(p, id, stay(h.checkIn, h.checkOut), h.atMs).nightlyPrice);
        } else {
          blocks++;
          expect(h.nightlyPrice).toBeNull();
        }
      }
    }
    expect(bookings).toBeGreaterThan(blocks);
    expect(blocks).toBeGreaterThan(0);
  });

  it('keeps stay rules consistent with what is booked at the instant', () => {
    for (const t of [T0, T0 + 10 * DAY, T0 + 40 * DAY]) {
      const { dates } = worldAt(t).world.availability('airbnb', '777001', '2027-01-01', '2027-06-01');
      dates.forEach((d, i) => {
        expect(d.available).toBe(!worldTruth.isBooked('airbnb', '777001', d.date, t));
        // A check-in day starts a free run of at least the minimum stay.
        if (d.checkIn) for (let k = 0; k < d.minNights! && i + k < dates.length; k++) expect(dates[i + k]!.available).toBe(true);
        // Check-out is allowed after any night that is not booked (the morning after a stay).
        if (i > 0) expect(d.checkOut).toBe(dates[i - 1]!.available);
      });
    }
  });

  it('lists and delists search candidates: a 30-day window of a city search sees some, and a search shows those listed', () => {
    for (const [p, location] of [
      ['airbnb', 'Lisbon'],
      ['booking', 'Paris'],
      ['vrbo', 'Austin, TX'],
    ] as [EnabledPlatform, string][]) {
      const to = T0 + 30 * DAY;
      const truth = worldTruth.listings(p, location, T0, to);
      expect(truth).toHaveLength(60);
      const events = truth.flatMap((l) => l.intervals.flatMap((i) => [Date.parse(i.listedAt), Date.parse(i.delistedAt)])).filter((e) => e >= T0 && e < to);
      expect(events.length).toBeGreaterThan(0);
      for (const t of [T0, T0 + 15 * DAY, to - HOUR_MS]) {
        const listed = truth.filter((l) => l.intervals.some((i) => Date.parse(i.listedAt) <= t && t < Date.parse(i.delistedAt))).map((l) => l.id);
        const rows = worldAt(t).world.searchPlatform(p, location, { currency: 'USD', rooms: 1 });
        expect(rows.map((r) => r.platformListingId)).toEqual(listed);
        expect(rows.length).toBeGreaterThan(45);
      }
      // Across the window the shown set changes: some candidate is shown at one instant, not at another.
      const shown = (t: number) =>
        worldAt(t)
          .world.searchPlatform(p, location, { currency: 'USD', rooms: 1 })
          .map((r) => r.platformListingId)
          .join();
      expect(new Set(Array.from({ length: 31 }, (_v, d) => shown(T0 + d * DAY))).size).toBeGreaterThan(1);
    }
  });

  it('prices search rows as price() does at the same instant', () => {
    const { world, clock } = worldAt(T0 + 3 * DAY);
    for (const t of [0, 13 * HOUR_MS, 5 * DAY]) {
      clock.set(T0 + 3 * DAY + t);
      for (const row of world.searchPlatform('vrbo', 'Lisbon', { currency: 'EUR', rooms: 1, stay: { ...STAY, currency: 'EUR' } }).slice(0, 8)) {
        expect(row.price).toEqual(world.price('vrbo', row.platformListingId, { ...STAY, currency: 'EUR' }));
        expect(row.price).toEqual(worldTruth.priceAt('vrbo', row.platformListingId, { ...STAY, currency: 'EUR' }, clock.now()));
      }
    }
  });
});
