// calendar-diff/1 measured against the moving world's truth (issue 27, item 1): a smaller run of
// the simulation bench/analytics.mjs publishes (docs/analytics.md). Deterministic: the world is a
// pure function of the instant, so the figures are the same on every run and every machine.
import { describe, expect, it } from 'vitest';
import { simulateBookings } from '../helpers/booking-sim.js';

const START = Date.UTC(2027, 0, 1);

describe('booking inference accuracy on the moving world', () => {
  it('names at least 95 % of nights right when observed six-hourly, and more than when observed weekly', () => {
    const six = simulateBookings({ listings: 16, days: 90, everyHours: 6, horizonDays: 150, start: START });
    const weekly = simulateBookings({ listings: 16, days: 90, everyHours: 168, horizonDays: 150, start: START });
    expect(six.nights).toBe(16 * 180);
    expect(six.correct / six.nights).toBeGreaterThanOrEqual(0.95);
    // The nights taken (booked or blocked) are the hard part: most of them right too.
    expect(six.taken).toBeGreaterThan(0);
    expect(six.takenCorrect / six.taken).toBeGreaterThanOrEqual(0.9);
    // Every state the truth holds occurs, and the method names each of them somewhere.
    for (const s of ['available', 'booked', 'blocked', 'unbookable'] as const) expect(six.matrix[s][s], s).toBeGreaterThan(0);
    expect(weekly.correct / weekly.nights).toBeLessThan(six.correct / six.nights);
  });
});
