// Reviews dated by a listing's observed review count (src/core/analytics/review-series.ts): each
// rise past the most seen is that many reviews, dated between the two observations; rows without a
// count are passed over; nothing is dated where the count was not followed over the calendar's
// observation.
import { describe, expect, it } from 'vitest';
import { inferWindow } from '../../src/core/analytics/bookings.js';
import { reviewInstants } from '../../src/core/analytics/review-series.js';
import type { ObservationRow } from '../../src/core/ports/store/observations.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2027, 0, 1, 9);
let id = 0;
const rating = (count: number | null, from: number, to = from): ObservationRow<'rating'> => ({
  id: ++id,
  platform: 'airbnb',
  listingId: '1',
  kind: 'rating',
  key: '',
  currency: null,
  value: { guestRating: 4.8, ratingScale: 5, reviewCount: count },
  source: 'simulated',
  firstSeen: T0 + from * DAY,
  lastSeen: T0 + to * DAY,
  timesSeen: to - from + 1,
});
/** Calendar rows first and last seen on these days. */
const seen = (from: number, to: number) => [{ firstSeen: T0 + from * DAY, lastSeen: T0 + to * DAY }];
const at = (day: number) => new Date(T0 + day * DAY).toISOString();

describe('reviews dated by the review count', () => {
  it('dates each rise between the two observations, as many as it rose', () => {
    const rows = [rating(10, 0, 4), rating(11, 5, 9), rating(13, 10, 20)];
    expect(reviewInstants(rows, seen(0, 20))).toEqual([at(4.5), at(9.5), at(9.5)]);
  });

  it('passes over rows without a count, and dates nothing twice when a count falls and comes back', () => {
    const rows = [rating(10, 0, 2), rating(null, 3, 3), rating(11, 4, 6), rating(10, 7, 7), rating(11, 8, 8), rating(12, 9, 20)];
    expect(reviewInstants(rows, seen(0, 20))).toEqual([at(3), at(8.5)]);
  });

  it('reads no review where the count was not followed over the calendar', () => {
    // Followed from day 5 only, or up to day 10 of 20, or never with a count: undefined.
    expect(reviewInstants([rating(10, 5, 20)], seen(0, 20))).toBeUndefined();
    expect(reviewInstants([rating(10, 0, 10)], seen(0, 20))).toBeUndefined();
    expect(reviewInstants([rating(null, 0, 20)], seen(0, 20))).toBeUndefined();
    // Followed throughout, nothing written: an empty list (read, none).
    expect(reviewInstants([rating(10, 0, 20)], seen(0, 20))).toEqual([]);
  });

  it('is read by calendar-diff/2 only, and said in the sample', () => {
    const days = [
      {
        platform: 'airbnb',
        listingId: '1',
        kind: 'day' as const,
        key: '2027-01-20',
        currency: null,
        value: { available: true, minNights: 1, checkIn: true, checkOut: true, bookable: true },
        source: 's',
        id: 1,
        firstSeen: T0,
        lastSeen: T0 + 20 * DAY,
        timesSeen: 21,
      },
    ];
    const ratings = [rating(10, 0, 4), rating(11, 5, 20)];
    const o = { days, prices: [], span: { from: '2027-01-20', to: '2027-01-20' }, ratings };
    expect(inferWindow(o, '2027-01-20', '2027-01-21', 'calendar-diff/2').sample.reviews).toBe(1);
    expect(inferWindow(o, '2027-01-20', '2027-01-21', 'calendar-diff/1').sample.reviews).toBeNull();
    expect(inferWindow({ ...o, ratings: [] }, '2027-01-20', '2027-01-21', 'calendar-diff/2').sample.reviews).toBeNull();
  });
});
