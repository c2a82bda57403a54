// calendar-diff/2 against calendar-diff/1 on the calendar families (issue 37, items 1 and 2): on
// the development seeds, each behaviour /2 reads (an advance notice, a rolling booking window,
// preparation time, owner stays, long-lead bookings) costs /1 nights that /2 names right; on the
// moving world /2 stays about as right as /1. Deterministic: the worlds are pure functions of
// their seeds. The published figures (held-out seeds) are bench/analytics.mjs's.
import { describe, expect, it } from 'vitest';
import { simulateBookings } from '../helpers/booking-sim.js';
import {
  addResult,
  CALIBRATION_CHECK_SEEDS,
  DEVELOPMENT_SEEDS,
  emptyResult,
  type FamilySimOptions,
  HELD_OUT_FAMILIES,
  HELD_OUT_SEEDS,
  type WorldName,
  simulateFamilies,
} from '../helpers/family-sim.js';

const START = Date.UTC(2027, 0, 1);
const run = (world: WorldName, method: FamilySimOptions['method'], everyHours = 24) =>
  simulateFamilies({ world, seed: DEVELOPMENT_SEEDS[0]!, listings: 16, days: 90, everyHours, horizonDays: 150, start: START, method, development: true });
const right = (r: ReturnType<typeof run>) => r.correct / r.nights;

describe('calendar-diff/2 on the calendar families', () => {
  it.each(['notice', 'window', 'prep', 'owner', 'longLead'] as const)('%s: names more nights right than calendar-diff/1, and the booked rate closer to the truth', (world) => {
    const one = run(world, 'calendar-diff/1');
    const two = run(world, 'calendar-diff/2');
    expect(right(two)).toBeGreaterThan(right(one) + 0.02);
    const gap = (r: typeof one) => Math.abs(r.rateInferred.booked / r.rateInferred.forRent - r.rateTruth.booked / r.rateTruth.forRent);
    expect(gap(two)).toBeLessThan(gap(one));
  });

  it('advance notice: the nights it closed are free (available or unbookable) for /2, taken for /1', () => {
    const one = run('notice', 'calendar-diff/1');
    const two = run('notice', 'calendar-diff/2');
    const free = (r: typeof one) => r.matrix.available.available + r.matrix.unbookable.unbookable;
    const taken = (r: typeof one) => r.matrix.available.booked + r.matrix.available.blocked;
    expect(taken(one)).toBeGreaterThan(10 * Math.max(1, taken(two)) - 1);
    expect(free(two)).toBeGreaterThan(free(one));
  });

  it('preparation time: more of the bookings found exactly (check-in and check-out) by /2', () => {
    const one = run('prep', 'calendar-diff/1');
    const two = run('prep', 'calendar-diff/2');
    expect(two.bookingsMatched).toBeGreaterThan(2 * one.bookingsMatched);
  });

  it('preparation time read from few holds: with weekly rentals and closed check-in days (stays whose edges the rules refuse whole), most bookings found exactly', () => {
    const o = {
      world: 'plain' as const,
      families: ['prep', 'weekly'] as const,
      seed: DEVELOPMENT_SEEDS[0]!,
      listings: 16,
      days: 90,
      everyHours: 24,
      horizonDays: 150,
      start: START,
      development: true,
    };
    const one = simulateFamilies({ ...o, method: 'calendar-diff/1' });
    const two = simulateFamilies({ ...o, method: 'calendar-diff/2' });
    expect(two.bookingsMatched).toBeGreaterThan(0.5 * two.bookingsTruth);
    expect(two.bookedBoth / two.bookedTruth).toBeGreaterThan(0.85);
    expect(two.bookedBoth / two.bookedInferred).toBeGreaterThan(0.85);
    expect(right(two)).toBeGreaterThan(right(one) + 0.15);
  });

  it('reviews read beside the calendars: more booked nights found, none lost, and the holds a review named a guest stay right more often than not', () => {
    const o = { world: 'all' as const, seed: DEVELOPMENT_SEEDS[0]!, listings: 40, days: 90, everyHours: 24, horizonDays: 150, start: START, method: 'calendar-diff/2' as const, development: true };
    const without = simulateFamilies(o);
    const withReviews = simulateFamilies({ ...o, reviews: true });
    expect(withReviews.bookedBoth).toBeGreaterThan(without.bookedBoth);
    expect(withReviews.correct).toBeGreaterThan(without.correct);
    const reviewed = Object.entries(withReviews.basis).filter(([k]) => k.startsWith('bookedReviewed|'));
    const nights = reviewed.reduce((n, [, v]) => n + v.count, 0);
    expect(nights).toBeGreaterThan(0);
    expect(reviewed.reduce((n, [, v]) => n + v.right, 0) / nights).toBeGreaterThan(0.5);
    // Without reviews no night rests on them.
    expect(Object.keys(without.basis).every((k) => k.split('|')[2] === '-')).toBe(true);
  });

  it('names each night with the confidence it earned: the surest decile is right more often than the least sure', () => {
    const r = run('all', 'calendar-diff/2');
    const used = r.deciles.filter((d) => d.count > 50);
    expect(used.length).toBeGreaterThan(1);
    const acc = (d: (typeof used)[number]) => d.right / d.count;
    expect(acc(used.at(-1)!)).toBeGreaterThan(acc(used[0]!));
  });

  it.each([24, 168])(
    'the mixed world observed every %i hours, on seeds the confidences were not fitted on: each decile right within 5 points of its confidence, and the booked rate inside its band',
    (everyHours) => {
      const r = emptyResult();
      for (const seed of CALIBRATION_CHECK_SEEDS)
        addResult(r, simulateFamilies({ world: 'all', seed, listings: 40, days: 90, everyHours, horizonDays: 150, start: START, method: 'calendar-diff/2', development: true }));
      const used = r.deciles.filter((d) => d.count >= 500);
      expect(used.length).toBeGreaterThan(2);
      for (const d of used) expect(Math.abs(d.right - d.confidence) / d.count).toBeLessThan(0.05);
      // The band as the market computes it (market.ts, confidence-band/1).
      const n = r.rateInferred.forRent;
      const truth = r.rateTruth.booked / r.rateTruth.forRent;
      expect(truth).toBeGreaterThanOrEqual(r.band.bookedSure / n);
      expect(truth).toBeLessThanOrEqual((r.rateInferred.booked + r.band.forRentDoubt + r.band.blockedDoubt) / (n + r.band.blockedDoubt));
    },
  );

  it('the moving world: about as right as calendar-diff/1 (within half a point)', () => {
    const o = { listings: 16, days: 90, everyHours: 24, horizonDays: 150, start: START };
    const one = simulateBookings({ ...o, method: 'calendar-diff/1' });
    const two = simulateBookings({ ...o, method: 'calendar-diff/2' });
    expect(two.correct / two.nights).toBeGreaterThan(one.correct / one.nights - 0.005);
  });

  it('the held-out protocol: development and held-out seeds are apart, and held-out families are never in a development world', () => {
    expect(DEVELOPMENT_SEEDS.some((s) => HELD_OUT_SEEDS.includes(s))).toBe(false);
    for (const f of HELD_OUT_FAMILIES) expect(() => run(f, 'calendar-diff/2')).toThrow(/held out/);
  });
});
