// Reviews dated by a listing's observed review count (src/core/analytics/review-series.ts): each
// rise past the most seen is that many reviews, dated between the two observations; rows without a
// count are passed over; nothing is dated where the count was not followed over the calendar's
// observation.
import { describe, expect, it } from 'vitest';
import { inferWindow } from '../../src/core/analytics/bookings.js';
import { summarizeListing } from '../../src/core/analytics/listing-summary.js';
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

  it("turns a hold the rules call the host's into a guest stay when a review follows it, in history bookings and the market alike", () => {
    // Nights 0 to 40 from 1 January observed daily for 30 days; nights 20-22 taken on day 10, three
    // nights where five is the minimum (a host's hold by the rules); the review count rises
    // between days 26 and 27, four days after their check-out.
    const date = (d: number) => new Date(Date.UTC(2027, 0, 1) + d * DAY).toISOString().slice(0, 10);
    const free = { available: true, minNights: 5, checkIn: true, checkOut: true, bookable: true };
    const taken = { available: false, minNights: 5, checkIn: false, checkOut: true, bookable: false };
    let n = 0;
    const row = (night: number, value: typeof free, from: number, to: number): ObservationRow<'day'> => ({
      id: ++n,
      platform: 'airbnb',
      listingId: '1',
      kind: 'day',
      key: date(night),
      currency: null,
      value,
      source: 'simulated',
      firstSeen: T0 + from * DAY,
      lastSeen: T0 + to * DAY,
      timesSeen: to - from + 1,
    });
    const days = Array.from({ length: 41 }, (_, night) =>
      night >= 20 && night < 23 ? [row(night, free, 0, 9), row(night, taken, 10, Math.min(30, night))] : [row(night, free, 0, Math.min(30, night))],
    ).flat();
    const ratings = [rating(10, 0, 26), rating(11, 27, 30)];
    const o = { days, prices: [], span: { from: date(0), to: date(40) } };
    const stateOf = (x: { nights: { date: string; state: string }[] }) => x.nights.find((night) => night.date === date(21))!.state;
    expect(stateOf(inferWindow(o, date(15), date(28), 'calendar-diff/2'))).toBe('blocked');
    expect(stateOf(inferWindow({ ...o, ratings }, date(15), date(28), 'calendar-diff/2'))).toBe('booked');
    expect(stateOf(inferWindow({ ...o, ratings }, date(15), date(28), 'calendar-diff/1'))).toBe('blocked');
    // The market's summary (listing-summary.ts): a letter a night from the span's first.
    expect(summarizeListing(days, [], undefined, 'calendar-diff/2').states[21]).toBe('k');
    expect(summarizeListing(days, [], undefined, 'calendar-diff/2', ratings).states[21]).toBe('b');
  });
});
