// inferBookings (issue 27, item 1: calendar-diff/1) on hand-built observation sequences: a
// calendar observed at a few instants, recorded as the store records it (a row per run of equal
// values), and each state the method can name.
import { describe, expect, it } from 'vitest';
import { BOOKING_METHOD, inferBookings } from '../../src/core/analytics/bookings.js';
import type { ObservationRow } from '../../src/core/ports/store/observations.js';

const DAY = 86_400_000;
const dayMs = (date: string) => Date.parse(`${date}T00:00:00Z`);
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const addDays = (date: string, n: number) => dateOf(dayMs(date) + n * DAY);

interface Day {
  available: boolean;
  minNights: number | null;
  checkIn: boolean | null;
  checkOut: boolean | null;
  bookable: boolean | null;
}

/**
 * A calendar as the sandbox states it for airbnb: `taken` nights unavailable, check-in where a
 * free run of the minimum stay starts (and the weekday is not closed), check-out after a free night.
 */
function calendar(from: string, nights: number, taken: ReadonlySet<string>, opts: { minNights?: number; closedWeekday?: number } = {}): Map<string, Day> {
  const min = opts.minNights ?? 2;
  const free = (d: string) => !taken.has(d);
  const out = new Map<string, Day>();
  for (let i = 0; i < nights; i++) {
    const d = addDays(from, i);
    let run = 0;
    while (run < min && free(addDays(d, run))) run++;
    const checkIn = free(d) && run >= min && new Date(dayMs(d)).getUTCDay() !== opts.closedWeekday;
    out.set(d, { available: free(d), minNights: min, checkIn, checkOut: free(addDays(d, -1)), bookable: free(d) && checkIn });
  }
  return out;
}

/** Records snapshots as the store does: a value equal to its series' latest extends that row. */
function record(snapshots: readonly { at: number; days: Map<string, Day> }[]): ObservationRow<'day'>[] {
  const rows: ObservationRow<'day'>[] = [];
  const latest = new Map<string, ObservationRow<'day'>>();
  let id = 0;
  for (const s of snapshots) {
    for (const [date, v] of s.days) {
      const prev = latest.get(date);
      if (prev && JSON.stringify(prev.value) === JSON.stringify(v)) {
        prev.lastSeen = s.at;
        prev.timesSeen++;
        continue;
      }
      const row: ObservationRow<'day'> = {
        id: ++id,
        platform: 'airbnb',
        listingId: '1',
        kind: 'day',
        key: date,
        currency: null,
        value: v,
        source: 'test',
        firstSeen: s.at,
        lastSeen: s.at,
        timesSeen: 1,
      };
      rows.push(row);
      latest.set(date, row);
    }
  }
  return rows;
}

const range = (from: string, n: number) => [...Array(n).keys()].map((i) => addDays(from, i));
const FROM = '2030-03-01';
const T0 = dayMs('2030-01-01');

describe('inferBookings (calendar-diff/1)', () => {
  it('names a stay booked between two observations a booking: check-in, length, lead time, last price seen', () => {
    const stay = new Set(range('2030-03-10', 4));
    const before = calendar(FROM, 31, new Set());
    const after = calendar(FROM, 31, stay);
    const days = record([
      { at: T0, days: before },
      { at: T0 + 6 * 3_600_000, days: before },
      { at: T0 + 12 * 3_600_000, days: after },
    ]);
    const price = (nightly: number, at: number): ObservationRow<'quote'> => ({
      id: 1000 + nightly,
      platform: 'airbnb',
      listingId: '1',
      kind: 'quote',
      key: '2030-03-10/2030-03-14/2',
      currency: 'EUR',
      value: { nightlyPrice: nightly, totalPrice: nightly * 4, fees: null },
      source: 'test',
      firstSeen: at,
      lastSeen: at,
      timesSeen: 1,
    });
    const r = inferBookings({ days, prices: [price(100, T0 - DAY), price(120, T0 + 3_600_000), price(999, T0 + DAY)], from: FROM, to: '2030-04-01' });
    expect(r.method).toBe(BOOKING_METHOD);
    expect(r.nights).toHaveLength(31);
    expect(r.counts.booked).toBe(4);
    expect(r.nights.filter((n) => n.state === 'booked').map((n) => n.date)).toEqual([...stay]);
    expect(r.bookings).toEqual([
      {
        checkIn: '2030-03-10',
        checkOut: '2030-03-14',
        nights: 4,
        bookedAfter: new Date(T0 + 6 * 3_600_000).toISOString(),
        bookedBefore: new Date(T0 + 12 * 3_600_000).toISOString(),
        leadTimeDays: 67,
        lastPriceSeen: 120,
        currency: 'EUR',
        confidence: 0.9,
        pricedNights: 4,
        meanNightlyPriceSeen: 120,
      },
    ]);
    expect(r.sample).toEqual({ observations: days.length + 3, nights: 31, firstObserved: new Date(T0).toISOString(), lastObserved: new Date(T0 + 12 * 3_600_000).toISOString() });
  });

  it('names a run shorter than the minimum stay a host block', () => {
    const hold = new Set(range('2030-03-10', 2));
    const days = record([
      { at: T0, days: calendar(FROM, 31, new Set(), { minNights: 4 }) },
      { at: T0 + DAY, days: calendar(FROM, 31, hold, { minNights: 4 }) },
    ]);
    const r = inferBookings({ days, from: FROM, to: '2030-04-01' });
    expect(r.nights.filter((n) => n.state === 'blocked').map((n) => n.date)).toEqual([...hold]);
    expect(r.bookings).toEqual([]);
  });

  it('names a run starting on a day guests may not check in on a host block', () => {
    // 2030-03-10 is a Sunday (weekday 0): closed for check-in.
    const hold = new Set(range('2030-03-10', 5));
    const days = record([
      { at: T0, days: calendar(FROM, 31, new Set(), { closedWeekday: 0 }) },
      { at: T0 + DAY, days: calendar(FROM, 31, hold, { closedWeekday: 0 }) },
    ]);
    const r = inferBookings({ days, from: FROM, to: '2030-04-01' });
    expect(r.counts.blocked).toBe(5);
    expect(r.counts.booked).toBe(0);
  });

  it('names a run taken further ahead than guests book a host block', () => {
    const hold = new Set(range('2030-03-10', 5));
    const early = dayMs('2029-11-01');
    const days = record([
      { at: early, days: calendar(FROM, 31, new Set()) },
      { at: early + DAY, days: calendar(FROM, 31, hold) },
    ]);
    const r = inferBookings({ days, from: FROM, to: '2030-04-01' });
    expect(r.counts.blocked).toBe(5);
  });

  it('names a free night no stay can include unbookable: a gap shorter than the minimum stay', () => {
    // Taken 03-05..03-07 and 03-09..03-12: 03-08 is free but a 3-night minimum cannot fit in it.
    const taken = new Set([...range('2030-03-05', 3), ...range('2030-03-09', 4)]);
    const days = record([{ at: T0, days: calendar(FROM, 31, taken, { minNights: 3 }) }]);
    const r = inferBookings({ days, from: FROM, to: '2030-04-01' });
    expect(r.nights.find((n) => n.date === '2030-03-08')?.state).toBe('unbookable');
    expect(r.nights.find((n) => n.date === '2030-03-13')?.state).toBe('available');
    // Taken since the first observation: booked, less surely than a change seen.
    expect(r.nights.find((n) => n.date === '2030-03-05')).toEqual({ date: '2030-03-05', state: 'booked', confidence: 0.75 });
  });

  it('names a run whose first night was no check-in day just before it was taken a host block', () => {
    // Minimum 3: before the hold, 03-10 is free but 03-12 is already taken, so 03-10 is no check-in day (a run of 2 fits).
    const early = new Set(['2030-03-12', '2030-03-13', '2030-03-14']);
    const hold = new Set([...early, '2030-03-10', '2030-03-11']);
    const days = record([
      { at: T0, days: calendar(FROM, 31, early, { minNights: 3 }) },
      { at: T0 + DAY, days: calendar(FROM, 31, hold, { minNights: 3 }) },
    ]);
    const r = inferBookings({ days, from: FROM, to: '2030-04-01' });
    expect(r.nights.filter((n) => n.state === 'blocked').map((n) => n.date)).toEqual(['2030-03-10', '2030-03-11']);
    // The run taken before the first observation: a booking, less sure.
    expect(r.nights.find((n) => n.date === '2030-03-12')).toEqual({ date: '2030-03-12', state: 'booked', confidence: 0.75 });
  });

  it('reads a night freed again as free, and a stay may run past the last night observed', () => {
    const stay = new Set(range('2030-03-10', 3));
    const days = record([
      { at: T0, days: calendar(FROM, 31, new Set()) },
      { at: T0 + DAY, days: calendar(FROM, 31, stay) },
      // Cancelled.
      { at: T0 + 2 * DAY, days: calendar(FROM, 31, new Set()) },
    ]);
    const r = inferBookings({ days, from: FROM, to: '2030-04-01' });
    expect(r.counts).toMatchObject({ booked: 0, blocked: 0, available: 31 });
    expect(r.bookings).toEqual([]);
    // The last observed night (03-31) opens a 2-night stay into nights not read: available.
    expect(r.nights.at(-1)).toEqual({ date: '2030-03-31', state: 'available', confidence: 0.95 });
  });

  it('names nights without any observation unknown, and says what it read', () => {
    const days = record([{ at: T0, days: calendar(FROM, 10, new Set()) }]);
    const r = inferBookings({ days, from: FROM, to: '2030-03-15' });
    expect(r.counts).toEqual({ available: 10, booked: 0, blocked: 0, unbookable: 0, unknown: 4 });
    expect(r.nights.at(-1)).toEqual({ date: '2030-03-14', state: 'unknown', confidence: 0 });
    expect(r.sample.nights).toBe(10);
    const none = inferBookings({ days: [], from: FROM, to: '2030-03-15' });
    expect(none.sample).toEqual({ observations: 0, nights: 0, firstObserved: null, lastObserved: null });
  });

  it('judges a night’s rules from what was seen before its day: a past day allowing no check-out leaves a night before it for sale (issue 36, item 5)', () => {
    const from = '2030-03-01';
    // Night 03-03 free between taken 03-02 and 03-04, minimum stay 1: the stay 03-03 -> 03-04 fits.
    const before = calendar(from, 8, new Set(['2030-03-02', '2030-03-04']), { minNights: 1 });
    // Observed again on 03-04 itself: a day already begun allows no check-out (nor check-in on the night past).
    const onTheDay = new Map(before);
    onTheDay.set('2030-03-04', { ...before.get('2030-03-04')!, checkOut: false });
    onTheDay.set('2030-03-03', { ...before.get('2030-03-03')!, checkIn: false, bookable: false });
    const days = record([
      { at: dayMs('2030-02-20'), days: before },
      { at: dayMs('2030-03-04') + 10 * 3_600_000, days: onTheDay },
    ]);
    const r = inferBookings({ days, from, to: addDays(from, 8) });
    expect(r.nights.find((n) => n.date === '2030-03-03')?.state).toBe('available');
    // Observed only before it, the same night reads the same.
    const early = inferBookings({ days: record([{ at: dayMs('2030-02-20'), days: before }]), from, to: addDays(from, 8) });
    expect(early.nights.find((n) => n.date === '2030-03-03')?.state).toBe('available');
  });
});

describe('inferBookings (calendar-diff/2) reads reviews', () => {
  // Observed daily at noon from 2030-02-20 to 2030-04-10, the nights from today on, Wednesday
  // never a check-in day; an 8-night hold from Wednesday 2030-03-06 (minimum stay 2) taken before
  // observation began, never seen free.
  const hold = new Set(range('2030-03-06', 8));
  const snapshots = [...Array(50).keys()].map((i) => {
    const at = dayMs('2030-02-20') + i * DAY + 12 * 3_600_000;
    const today = dateOf(at);
    return { at, days: new Map([...calendar('2030-02-20', 80, hold, { closedWeekday: 3 })].filter(([d]) => d >= today)) };
  });
  const days = record(snapshots);
  const stateOf = (r: ReturnType<typeof inferBookings>, date: string) => r.nights.find((n) => n.date === date)!.state;

  it('a review within 14 days after a hold ends names it a guest stay; without reviews it is a host hold (no check-in on its first day)', () => {
    const without = inferBookings({ days, from: '2030-03-01', to: '2030-04-01', method: 'calendar-diff/2' });
    expect(stateOf(without, '2030-03-10')).toBe('blocked');
    const reviewed = inferBookings({ days, from: '2030-03-01', to: '2030-04-01', method: 'calendar-diff/2', reviews: ['2030-03-18T10:00:00Z'] });
    expect(stateOf(reviewed, '2030-03-10')).toBe('booked');
    expect(reviewed.bookings.map((b) => [b.checkIn, b.checkOut])).toEqual([['2030-03-06', '2030-03-14']]);
    expect(reviewed.basis!.find((b) => b.startsWith('bookedReviewed'))).toContain('|r+|');
  });

  it('a review long after says nothing of it; one within it names it guest stays run together (a guest checked out inside it); no review once the window closed is weak evidence, its confidence apart', () => {
    const late = inferBookings({ days, from: '2030-03-01', to: '2030-04-01', method: 'calendar-diff/2', reviews: ['2030-04-20T10:00:00Z'] });
    expect(stateOf(late, '2030-03-10')).toBe('blocked');
    const within = inferBookings({ days, from: '2030-03-01', to: '2030-04-01', method: 'calendar-diff/2', reviews: ['2030-03-12T10:00:00Z'] });
    expect(stateOf(within, '2030-03-10')).toBe('booked');
    const none = inferBookings({ days, from: '2030-03-01', to: '2030-04-01', method: 'calendar-diff/2', reviews: [] });
    expect(stateOf(none, '2030-03-10')).toBe('blocked');
    expect(none.basis![9]).toContain('|r-|');
    // calendar-diff/1 reads no reviews.
    const one = inferBookings({ days, from: '2030-03-01', to: '2030-04-01', reviews: ['2030-03-18T10:00:00Z'] });
    expect(one.basis).toBeUndefined();
  });
});

describe('inferBookings (calendar-diff/2) on a calendar observed weekly', () => {
  // Observed weekly at noon from 2030-02-20, the nights from today on, minimum stay 4: a stay of
  // 2030-03-08 to 2030-03-16 taken between the observations of 2030-03-06 and 2030-03-13, so that
  // its first five nights passed unseen and three were seen taken.
  const hold = new Set(range('2030-03-08', 8));
  const snapshots = [...Array(8).keys()].map((i) => {
    const at = dayMs('2030-02-20') + i * 7 * DAY + 12 * 3_600_000;
    const today = dateOf(at);
    return { at, days: new Map([...calendar('2030-02-20', 80, at > dayMs('2030-03-07') ? hold : new Set(), { minNights: 4 })].filter(([d]) => d >= today)) };
  });
  const days = record(snapshots);

  it('a hold whose free neighbour before it passed before the hold was seen has an unknown start: not shorter than its minimum stay by what is left of it', () => {
    const seen = range('2030-03-13', 3);
    const two = inferBookings({ days, from: '2030-03-01', to: '2030-04-01', method: 'calendar-diff/2' });
    expect(two.nights.filter((n) => n.state === 'booked').map((n) => n.date)).toEqual(seen);
    // calendar-diff/1 judges it by its rules: three nights, shorter than the minimum stay.
    const one = inferBookings({ days, from: '2030-03-01', to: '2030-04-01' });
    expect(one.nights.filter((n) => n.state === 'blocked').map((n) => n.date)).toEqual(seen);
  });
});

describe('inferBookings (calendar-diff/2) and a booking window, observed weekly', () => {
  // Observed weekly at noon from 2030-01-01, 100 nights ahead, a 30-day rolling window (nights 30
  // days ahead or more closed), minimum stay 2: a stay of 2030-03-06 to 2030-03-14 taken on
  // 2030-02-12 in the morning, once its last night was inside the window. Its first night was seen
  // free on 2030-02-05, the others closed by the window then, and all taken on 2030-02-12: for
  // each of those, one row across the window's edge (closed past the window and taken read alike).
  const hold = new Set(range('2030-03-06', 8));
  const snapshots = [...Array(12).keys()].map((i) => {
    const at = dayMs('2030-01-01') + i * 7 * DAY + 12 * 3_600_000;
    const today = dateOf(at);
    const shut = addDays(today, 30);
    const days = calendar('2030-01-01', 200, at > dayMs('2030-02-12') ? hold : new Set());
    return {
      at,
      days: new Map(
        [...days].filter(([d]) => d >= today && d < addDays(today, 100)).map(([d, v]) => [d, d >= shut ? { ...v, available: false, checkIn: false, checkOut: false, bookable: false } : v]),
      ),
    };
  });
  const days = record(snapshots);

  it('a stay whose nights opened and were taken between two observations is one hold, taken between them', () => {
    const r = inferBookings({ days, from: '2030-03-01', to: '2030-04-01', method: 'calendar-diff/2' });
    expect(r.nights.filter((n) => n.state === 'booked').map((n) => n.date)).toEqual([...hold]);
    expect(r.bookings.map((b) => [b.checkIn, b.checkOut, b.bookedAfter, b.bookedBefore])).toEqual([['2030-03-06', '2030-03-14', '2030-02-05T12:00:00.000Z', '2030-02-12T12:00:00.000Z']]);
  });
});

describe('inferBookings (calendar-diff/2) and a booking window, answered days after the last observation', () => {
  // Observed weekly at noon from 2030-01-01 for 12 weeks (the last on 2030-03-19), 100 nights ahead,
  // a 30-day rolling window (nights 30 days ahead or more closed), minimum stay 2, nothing booked.
  const snapshots = [...Array(12).keys()].map((i) => {
    const at = dayMs('2030-01-01') + i * 7 * DAY + 12 * 3_600_000;
    const today = dateOf(at);
    const shut = addDays(today, 30);
    const days = calendar('2030-01-01', 200, new Set());
    return {
      at,
      days: new Map(
        [...days].filter(([d]) => d >= today && d < addDays(today, 100)).map(([d, v]) => [d, d >= shut ? { ...v, available: false, checkIn: false, checkOut: false, bookable: false } : v]),
      ),
    };
  });
  const days = record(snapshots);
  const stateOf = (r: ReturnType<typeof inferBookings>) => new Map(r.nights.map((n) => [n.date, n.state]));

  it('a night the window closed at the last observation is unbookable as of then, and available once the window moved to the day asked about reaches it', () => {
    const then = stateOf(inferBookings({ days, from: '2030-04-10', to: '2030-05-01', method: 'calendar-diff/2' }));
    expect(then.get('2030-04-16')).toBe('available');
    expect(then.get('2030-04-17')).toBe('unbookable');
    expect(then.get('2030-04-18')).toBe('unbookable');
    // Five days on: the window reaches 2030-04-22.
    const now = stateOf(inferBookings({ days, from: '2030-04-10', to: '2030-05-01', method: 'calendar-diff/2', asOf: dayMs('2030-03-24') + 12 * 3_600_000 }));
    expect(range('2030-04-18', 5).map((d) => now.get(d))).toEqual(Array(5).fill('available'));
    expect(now.get('2030-04-23')).toBe('unbookable');
  });
});

describe('inferBookings (calendar-diff/2) and preparation nights on a listing with a closed check-in day', () => {
  // Observed daily at noon from 2030-02-01, 60 nights ahead, minimum stay 2, no check-in on
  // Mondays, check-out any day: two guests' stays from a Tuesday (2030-03-05 for 4 nights, 2030-03-19 for 3), each
  // taken with a preparation night on either side (so each hold starts on a Monday), taken on
  // 2030-02-10 and 2030-02-15. Two holds are too few to read the listing's preparation time.
  const first = { stay: range('2030-03-05', 4), hold: range('2030-03-04', 6), at: dayMs('2030-02-10') };
  const second = { stay: range('2030-03-19', 3), hold: range('2030-03-18', 5), at: dayMs('2030-02-15') };
  const observe = (holds: (typeof first)[]) =>
    record(
      [...Array(40).keys()].map((i) => {
        const at = dayMs('2030-02-01') + i * DAY + 12 * 3_600_000;
        const taken = new Set(holds.filter((h) => at > h.at).flatMap((h) => h.hold));
        const today = dateOf(at);
        // Its rules by weekday alone (as calendar-families states them): a hold changes no neighbour's row.
        const days = new Map(
          range(today, 60).map((d): [string, Day] => {
            const free = !taken.has(d);
            const checkIn = free && new Date(dayMs(d)).getUTCDay() !== 1;
            return [d, { available: free, minNights: 2, checkIn, checkOut: true, bookable: checkIn }];
          }),
        );
        return { at, days };
      }),
    );

  it('holds starting on the closed day whose stays a night in start on a check-in day are stays with their preparation nights', () => {
    const r = inferBookings({ days: observe([first, second]), from: '2030-03-01', to: '2030-04-01', method: 'calendar-diff/2' });
    expect(r.nights.filter((n) => n.state === 'booked').map((n) => n.date)).toEqual([...first.stay, ...second.stay]);
    const prep = [first, second].flatMap((h) => h.hold.filter((d) => !h.stay.includes(d)));
    expect(r.nights.filter((n) => n.state === 'blocked').map((n) => n.date)).toEqual(prep);
    expect(r.bookings.map((b) => [b.checkIn, b.checkOut])).toEqual([
      ['2030-03-05', '2030-03-09'],
      ['2030-03-19', '2030-03-22'],
    ]);
    // calendar-diff/1 refuses both for their check-in day.
    const one = inferBookings({ days: observe([first, second]), from: '2030-03-01', to: '2030-04-01' });
    expect(one.nights.filter((n) => n.state === 'booked')).toEqual([]);
  });

  it('a hold taken before observation began that starts on the closed day is read so too, as the holds seen taken show', () => {
    // A third guest's stay from Tuesday 2030-03-26 for 3 nights, with its preparation nights, booked
    // before the first observation: its nights were never seen free.
    const early = { stay: range('2030-03-26', 3), hold: range('2030-03-25', 5), at: dayMs('2030-01-20') };
    const r = inferBookings({ days: observe([first, second, early]), from: '2030-03-01', to: '2030-04-01', method: 'calendar-diff/2' });
    expect(r.nights.filter((n) => n.state === 'booked').map((n) => n.date)).toEqual([...first.stay, ...second.stay, ...early.stay]);
    expect(r.bookings.at(-1)).toMatchObject({ checkIn: '2030-03-26', checkOut: '2030-03-29', bookedAfter: null });
    expect(r.nights.filter((n) => n.date === '2030-03-25' || n.date === '2030-03-29').map((n) => n.state)).toEqual(['blocked', 'blocked']);
  });

  it('one such hold alone is the host’s: a listing shows its preparation time on more than one', () => {
    const r = inferBookings({ days: observe([first]), from: '2030-03-01', to: '2030-04-01', method: 'calendar-diff/2' });
    expect(r.nights.filter((n) => n.state === 'blocked').map((n) => n.date)).toEqual(first.hold);
  });
});

/** A hold: a stay and the preparation nights taken with it, taken at `at` (epoch ms); a host's hold has none. */
type PrepHold = { stay: string[]; prep: string[]; at: number; host?: true };

const atHour = (date: string, hour: number) => dayMs(date) + hour * 3_600_000;

/**
 * `count` guests' stays ten nights apart from the night `first`, of `length(i)` nights, each with
 * `prep` preparation nights on either side, the i-th taken at 18:00 on `takenFrom` + i days.
 */
function guestHolds(count: number, o: { first: string; length: (i: number) => number; prep: number; takenFrom: string }): PrepHold[] {
  return [...Array(count).keys()].map((i) => {
    const start = addDays(o.first, 10 * i);
    const stay = range(start, o.length(i));
    const prep = [...range(addDays(start, -o.prep), o.prep), ...range(addDays(start, stay.length), o.prep)];
    return { stay, prep, at: atHour(addDays(o.takenFrom, i), 18) };
  });
}

/** The host's holds of `nights` nights from each of `starts` (no preparation nights), the i-th taken at 18:00 on 2030-03-01 + i days. */
function hostHolds(starts: readonly string[], nights: number): PrepHold[] {
  return starts.map((d, i) => ({ stay: range(d, nights), prep: [], at: atHour(addDays('2030-03-01', i), 18), host: true }));
}

/** calendar-diff/2 on these holds observed (observePrepHolds), over March to July 2030: the answer and each night's state. */
function inferPrepHolds(holds: readonly PrepHold[], minNights: number) {
  const r = inferBookings({ days: observePrepHolds(holds, minNights), from: '2030-03-01', to: '2030-08-01', method: 'calendar-diff/2' });
  return { r, states: new Map(r.nights.map((n) => [n.date, n.state])) };
}

/** Each guest's stay booked and its preparation nights blocked, night by night (the night named in a failure). */
function expectStays(states: ReadonlyMap<string, string>, holds: readonly PrepHold[]): void {
  for (const h of holds) {
    for (const d of h.stay) expect([d, states.get(d)]).toEqual([d, 'booked']);
    for (const d of h.prep) expect([d, states.get(d)]).toEqual([d, 'blocked']);
  }
}

/**
 * A listing observed daily at noon from 2030-02-01 for 40 days, 200 nights ahead, with these holds
 * taken by then; every free night (or, given `checkInWeekday`, every free night on that weekday
 * only) may start a stay of at least `minNights`, and any may end one.
 */
function observePrepHolds(holds: readonly PrepHold[], minNights: number, checkInWeekday?: number): ObservationRow<'day'>[] {
  return record(
    [...Array(40).keys()].map((i) => {
      const t = atHour(addDays('2030-02-01', i), 12);
      const taken = new Set(holds.filter((h) => h.at < t).flatMap((h) => [...h.stay, ...h.prep]));
      return {
        at: t,
        days: new Map(
          range(dateOf(t), 200).map((d): [string, Day] => {
            const free = !taken.has(d);
            const checkIn = free && (checkInWeekday === undefined || new Date(dayMs(d)).getUTCDay() === checkInWeekday);
            return [d, { available: free, minNights, checkIn, checkOut: true, bookable: checkIn }];
          }),
        ),
      };
    }),
  );
}

/**
 * A listing behind a 30-day rolling window (nights 30 days ahead or more closed), observed at noon
 * `count` times `every` days apart from `first`, `ahead` nights ahead, minimum stay `minNights`,
 * check-in on any free day: the holds taken by each observation.
 */
function observeWindowed(holds: readonly PrepHold[], o: { first: string; every: number; count: number; ahead: number; minNights: number }): ObservationRow<'day'>[] {
  return record(
    [...Array(o.count).keys()].map((i) => {
      const at = atHour(addDays(o.first, o.every * i), 12);
      const today = dateOf(at);
      const taken = new Set(holds.filter((h) => h.at < at).flatMap((h) => [...h.stay, ...h.prep]));
      return {
        at,
        days: new Map(
          range(today, o.ahead).map((d): [string, Day] => {
            const free = !taken.has(d) && d < addDays(today, 30);
            return [d, { available: free, minNights: o.minNights, checkIn: free, checkOut: true, bookable: free }];
          }),
        ),
      };
    }),
  );
}

/**
 * A listing observed daily at noon from 2030-01-01 for 30 days, 200 nights ahead, no booking
 * window, minimum stay `minNights`, check-out any day and check-in on every free day (or those
 * `checkInOn` allows): the nights `stay` taken before observation began.
 */
function observeAhead(stay: readonly string[], minNights: number, checkInOn: (d: string) => boolean = () => true): ObservationRow<'day'>[] {
  return record(
    [...Array(30).keys()].map((i) => {
      const at = atHour(addDays('2030-01-01', i), 12);
      return {
        at,
        days: new Map(
          range(dateOf(at), 200).map((d): [string, Day] => {
            const free = !stay.includes(d);
            const checkIn = free && checkInOn(d);
            return [d, { available: free, minNights, checkIn, checkOut: true, bookable: checkIn }];
          }),
        ),
      };
    }),
  );
}

describe('inferBookings (calendar-diff/2): preparation nights read from the shortest holds, beside a taken neighbour, and a neighbour gone', () => {
  // Observed daily at noon from 2030-02-01 for 40 days, 200 nights ahead, minimum stay 2, check-in
  // and check-out any free day; the platform blocks one preparation night on each side of every
  // guest's booking (those its neighbour had not taken yet). Fourteen guests' stays of 2 or 3
  // nights from 2030-03-13, ten nights apart, each taken on its own day with both sides free. Two
  // host's holds of 2 nights (direct bookings: no preparation nights) right after two of those
  // holds: one side taken, and p = 1 off the free side leaves no stay; with them the holds agreeing
  // on p are too few for the strict reading, and none the rules refuse whole. A guest's stay X
  // starts two nights after the sixth stay's preparation night: its own preparation night between
  // them, its left neighbour taken before it was. A last-minute guest L books 2030-03-05 for two
  // nights on the evening of 2030-03-04, when the night before its stay is today (no preparation
  // night is blocked on a night that passed): its left neighbour was seen free, and is gone from
  // the calendar when the hold is first seen taken.
  const d0 = '2030-03-01';
  const holds = guestHolds(14, { first: '2030-03-13', length: (i) => 2 + (i % 2), prep: 1, takenFrom: '2030-02-01' });
  for (const i of [3, 9]) {
    const after = holds[i]!;
    holds.push({ stay: range(addDays(after.prep[1]!, 1), 2), prep: [], at: atHour(addDays('2030-02-01', 20 + i), 18), host: true });
  }
  const sixth = holds[6]!;
  const x: PrepHold = { stay: range(addDays(sixth.prep[1]!, 2), 3), prep: [addDays(sixth.prep[1]!, 1), addDays(sixth.prep[1]!, 5)], at: atHour('2030-02-25', 18) };
  const last: PrepHold = { stay: range('2030-03-05', 2), prep: ['2030-03-07'], at: atHour('2030-03-04', 18) };
  holds.push(x, last);
  const days = observePrepHolds(holds, 2);
  const r = inferBookings({ days, from: d0, to: '2030-08-01', method: 'calendar-diff/2' });
  const states = new Map(r.nights.map((n) => [n.date, n.state]));

  it('reads the preparation time from many short holds none of which it breaks, and tells each stay from its preparation nights', () => {
    // A host's hold of two nights beside a guest's carries no preparation night on its free side:
    // that night off leaves a night, shorter than the minimum stay, and it is the host's.
    const guests = holds.filter((h) => !h.host);
    expectStays(states, guests);
    for (const d of holds.filter((h) => h.host).flatMap((h) => h.stay)) expect([d, states.get(d)]).toEqual([d, 'blocked']);
    expect(r.bookings.filter((b) => guests.some((h) => h.stay[0] === b.checkIn)).map((b) => [b.checkIn, b.checkOut])).toEqual(
      guests.map((h) => [h.stay[0], addDays(h.stay.at(-1)!, 1)]).sort((a, b) => a[0]!.localeCompare(b[0]!)),
    );
  });

  it('a hold beside a neighbour taken before it keeps its own preparation night out of the stay', () => {
    expect(r.bookings.find((b) => b.checkIn === x.stay[0])?.checkOut).toBe(addDays(x.stay.at(-1)!, 1));
    expect(states.get(x.prep[0]!)).toBe('blocked');
  });

  it('a hold whose free neighbour had passed when it was seen taken keeps its first night: no preparation night was blocked on a past night', () => {
    expect(r.bookings.find((b) => b.checkIn === '2030-03-05')?.checkOut).toBe('2030-03-07');
    expect(states.get('2030-03-05')).toBe('booked');
  });
});

describe('inferBookings (calendar-diff/2): two preparation nights told from one by the shortest stays', () => {
  // Observed daily at noon from 2030-02-01 for 40 days, 200 nights ahead, minimum stay 1, check-in
  // and check-out any free day; the platform blocks two preparation nights on each side of every
  // guest's booking. Eight guests' stays of 1 or 2 nights (the minimum or a night more, as guests
  // often book) from 2030-03-06, ten nights apart, each taken on its own day from 2030-02-20 with
  // both sides free: holds of 5 or 6 nights. Two host's holds of 3 nights right after two of those holds'
  // preparation nights (one side taken before them, the other free). Two nights off a free side
  // leave no more than two of the three, which the strict reading counts against two preparation
  // nights, and one night off each side of the guests' holds leaves stays of 3 or 4 nights: no
  // stay of the minimum or a night more, which two nights off each side leave on every one.
  const d0 = '2030-03-01';
  const holds = guestHolds(8, { first: '2030-03-06', length: (i) => 1 + (i % 2), prep: 2, takenFrom: '2030-02-20' });
  for (const i of [2, 5]) holds.push({ stay: range(addDays(holds[i]!.prep[3]!, 1), 3), prep: [], at: atHour(addDays('2030-02-20', 10 + i), 18), host: true });
  const days = observePrepHolds(holds, 1);

  it('reads two preparation nights, not one: each guest stay booked exactly, its two nights on each side blocked', () => {
    const r = inferBookings({ days, from: d0, to: '2030-06-01', method: 'calendar-diff/2' });
    const states = new Map(r.nights.map((n) => [n.date, n.state]));
    const guests = holds.filter((h) => !h.host);
    expectStays(states, guests);
    expect(r.bookings.filter((b) => guests.some((h) => h.stay[0] === b.checkIn)).map((b) => [b.checkIn, b.checkOut])).toEqual(guests.map((h) => [h.stay[0], addDays(h.stay.at(-1)!, 1)]));
  });
});

describe('inferBookings (calendar-diff/2): one preparation night read from a few holds it breaks none of', () => {
  // Observed daily at noon from 2030-02-01 for 40 days, 200 nights ahead, minimum stay 2, check-in
  // and check-out any free day; the platform blocks one preparation night on each side of every
  // guest's booking. Five guests' stays of 2 or 3 nights (the minimum or a night more) from
  // 2030-03-06, ten nights apart, each with both sides free: the first two taken before
  // observation began (never seen free), the other three seen taken. Too few seen taken for the
  // strict reading or the free sides, none the rules refuse whole, fewer than ten holds: only that
  // p = 1 breaks none of them, five with both sides free, reads it.
  const d0 = '2030-03-01';
  const holds = guestHolds(5, { first: '2030-03-06', length: (i) => 2 + (i % 2), prep: 1, takenFrom: '2030-01-30' });
  const days = observePrepHolds(holds, 2);

  it('reads one preparation night: each stay booked exactly, the night on each side blocked', () => {
    const r = inferBookings({ days, from: d0, to: '2030-05-01', method: 'calendar-diff/2' });
    const states = new Map(r.nights.map((n) => [n.date, n.state]));
    expectStays(states, holds);
    expect(r.bookings.map((b) => [b.checkIn, b.checkOut])).toEqual(holds.map((h) => [h.stay[0], addDays(h.stay.at(-1)!, 1)]));
    expect(r.basis!.find((b) => b.startsWith('prep'))).toContain('|p1|');
  });
});

describe('inferBookings (calendar-diff/2): a weekly rental’s hold running past the first night observed', () => {
  // Observed daily at noon from Friday 2030-02-01 for 40 days, 200 nights ahead, minimum stay 7,
  // check-in on Saturdays only, check-out any day; the platform blocks one preparation night on
  // each side of every guest's booking. Four guests' weeks from Saturdays two weeks apart from
  // 2030-03-02, each taken on its own day from 2030-02-05 with both sides free (holds from a Friday
  // to a Saturday). A fifth guest's week from Saturday 2030-02-02 was booked before observation
  // began: its hold runs from the first night observed, its preparation night, to 2030-02-09.
  const week = (start: string, at: number): PrepHold => ({ stay: range(start, 7), prep: [addDays(start, -1), addDays(start, 7)], at });
  const holds = [0, 1, 2, 3].map((i) => week(addDays('2030-03-02', 14 * i), atHour(addDays('2030-02-05', i), 18)));
  const early = week('2030-02-02', atHour('2030-01-20', 18));
  const days = observePrepHolds([...holds, early], 7, 6);

  it('the night before its check-in Saturday is its preparation night, not a guest’s', () => {
    const r = inferBookings({ days, from: '2030-02-01', to: '2030-05-01', method: 'calendar-diff/2' });
    const states = new Map(r.nights.map((n) => [n.date, n.state]));
    expectStays(states, [early, ...holds]);
    expect(r.bookings[0]).toMatchObject({ checkIn: '2030-02-02', checkOut: '2030-02-09', bookedAfter: null });
  });
});

describe('inferBookings (calendar-diff/2): preparation nights read beside a booking window, observed weekly', () => {
  // Observed weekly at noon from 2030-01-01 for 16 weeks, 100 nights ahead, a 30-day rolling window
  // (nights 30 days ahead or more closed, check-in refused on them as on every closed night),
  // minimum stay 2, check-in any free day; the platform blocks one preparation night on each side
  // of every guest's booking. Three guests' stays of 3 nights taken while their nights were inside
  // the window and seen free; four of 2 or 3 nights taken in the week their nights opened, so that
  // none of theirs was seen free: what the calendar stated of them before was the window's refusal,
  // no rule of theirs. Read as refusing check-in, those four would be no evidence, and three holds
  // too few to read the listing's preparation time.
  const open: PrepHold[] = [0, 1, 2].map((i) => {
    const start = addDays('2030-02-21', 7 * i);
    return { stay: range(start, 3), prep: [addDays(start, -1), addDays(start, 3)], at: atHour('2030-02-13', 18) };
  });
  // Observation k (k = 6 … 9) on 2030-01-01 + 7k: a hold from 30 days after it, taken 6 days later.
  const edge: PrepHold[] = [6, 7, 8, 9].map((k) => {
    const seen = addDays('2030-01-01', 7 * k);
    const start = addDays(seen, 31);
    const stay = range(start, 2 + (k % 2));
    return { stay, prep: [addDays(start, -1), addDays(start, stay.length)], at: atHour(addDays(seen, 6), 6) };
  });
  const holds = [...open, ...edge];
  const days = observeWindowed(holds, { first: '2030-01-01', every: 7, count: 16, ahead: 100, minNights: 2 });

  it('the holds taken as their nights opened count toward the preparation time: the stays seen free are read without their preparation nights', () => {
    const r = inferBookings({ days, from: '2030-02-01', to: '2030-05-01', method: 'calendar-diff/2' });
    const states = new Map(r.nights.map((n) => [n.date, n.state]));
    expectStays(states, open);
    expect(r.basis!.find((b) => b.startsWith('prep'))).toContain('|p1|');
  });
});

/**
 * A listing observed daily at noon from 2030-02-20 for 40 days, the nights from today on,
 * minimum stay 4: the nights `cut` taken before observation began, each hold taken at its instant.
 */
type Hold = { nights: string[]; at: number };
function observeCut(cut: readonly string[], holds: readonly Hold[]): ObservationRow<'day'>[] {
  return record(
    [...Array(40).keys()].map((i) => {
      const at = atHour(addDays('2030-02-20', i), 12);
      const today = dateOf(at);
      const taken = new Set([...cut, ...holds.filter((h) => h.at <= at).flatMap((h) => h.nights)]);
      return { at, days: new Map([...calendar('2030-02-20', 80, taken, { minNights: 4 })].filter(([d]) => d >= today)) };
    }),
  );
}

describe('inferBookings (calendar-diff/2): a hold running past the first night observed that the rules refuse as seen', () => {
  // Observed daily at noon from 2030-02-20 for 40 days, the nights from today on, minimum stay 4.
  // Its first two nights were taken before observation began (a hold cut at the first night
  // observed, shorter than the minimum stay as seen). While observed, two guests' five-night stays
  // are taken, and on one listing two two-night holds beside them (the host blocks nights).
  const cut = range('2030-02-20', 2);
  const guests = [
    { nights: range('2030-03-14', 5), at: atHour('2030-02-23', 18) },
    { nights: range('2030-04-02', 5), at: atHour('2030-03-05', 18) },
  ];
  const host = [
    { nights: range('2030-03-10', 2), at: atHour('2030-02-25', 18) },
    { nights: range('2030-03-24', 2), at: atHour('2030-03-01', 18) },
  ];
  const observe = (holds: readonly Hold[]) => observeCut(cut, holds);
  const stateOf = (days: ObservationRow<'day'>[], date: string) => inferBookings({ days, from: '2030-02-20', to: '2030-05-01', method: 'calendar-diff/2' }).nights.find((n) => n.date === date)!.state;

  it('is the host’s on a listing whose holds seen taken show the host blocking nights, a guest’s stay begun before otherwise', () => {
    const blocks = observe([...guests, ...host]);
    for (const d of cut) expect([d, stateOf(blocks, d)]).toEqual([d, 'blocked']);
    for (const d of host.flatMap((h) => h.nights)) expect([d, stateOf(blocks, d)]).toEqual([d, 'blocked']);
    for (const d of guests.flatMap((h) => h.nights)) expect([d, stateOf(blocks, d)]).toEqual([d, 'booked']);
    const rents = observe(guests);
    for (const d of cut) expect([d, stateOf(rents, d)]).toEqual([d, 'booked']);
  });
});

describe('inferBookings (calendar-diff/2): a long hold running past the first night observed', () => {
  // Observed daily at noon from 2030-02-20 for 40 days, the nights from today on, minimum stay 4.
  // Its first 20 nights were taken before observation began (guests' stays run together, or the
  // owner's stay). While observed, two guests' five-night stays are taken, and on one listing an
  // owner's 20-night stay, on another two two-night holds (the host blocks nights).
  const cut = range('2030-02-20', 20);
  const guests = [
    { nights: range('2030-03-14', 5), at: atHour('2030-02-23', 18) },
    { nights: range('2030-04-02', 5), at: atHour('2030-03-05', 18) },
  ];
  const owner = [{ nights: range('2030-04-10', 20), at: atHour('2030-03-02', 18) }];
  const blocks = [
    { nights: range('2030-03-21', 2), at: atHour('2030-02-25', 18) },
    { nights: range('2030-03-26', 2), at: atHour('2030-03-01', 18) },
  ];
  const observe = (holds: readonly Hold[]) => observeCut(cut, holds);
  const statesOf = (days: ObservationRow<'day'>[], dates: readonly string[]) => {
    const r = inferBookings({ days, from: '2030-02-20', to: '2030-05-01', method: 'calendar-diff/2' });
    return [...new Set(dates.map((d) => r.nights.find((n) => n.date === d)!.state))];
  };

  it('is the owner’s on a listing whose holds seen taken show the host taking its own nights, guests’ stays otherwise', () => {
    expect(statesOf(observe([...guests, ...owner]), cut)).toEqual(['blocked']);
    expect(statesOf(observe([...guests, ...blocks]), cut)).toEqual(['blocked']);
    expect(
      statesOf(
        observe([...guests, ...blocks]),
        guests.flatMap((h) => h.nights),
      ),
    ).toEqual(['booked']);
    expect(statesOf(observe(guests), cut)).toEqual(['booked']);
  });
});

describe('inferBookings (calendar-diff/2): a long hold running past the first night observed, beside guests’ long stays with their preparation nights', () => {
  // As above (one preparation night read from five short guests' stays, minimum stay 2), and a
  // guest's 14-night stay seen taken with its preparation nights (16 nights taken: 14 over the
  // minimum, but its stay 12), and 17 nights from the first night observed taken before
  // observation began (guests' stays run together, their last preparation night after them).
  const holds = guestHolds(5, { first: '2030-03-06', length: (i) => 2 + (i % 2), prep: 1, takenFrom: '2030-01-30' });
  const long = { stay: range('2030-04-25', 14), prep: ['2030-04-24', '2030-05-09'], at: atHour('2030-02-10', 18) };
  const cut = { stay: range('2030-02-01', 16), prep: ['2030-02-17'], at: atHour('2030-01-20', 18) };
  const days = observePrepHolds([...holds, long, cut], 2);

  it('a guest’s long stay seen taken, its preparation nights off, is no owner’s: the hold is guests’ stays', () => {
    const r = inferBookings({ days, from: '2030-02-01', to: '2030-06-01', method: 'calendar-diff/2' });
    const states = new Map(r.nights.map((n) => [n.date, n.state]));
    expect(r.basis!.find((b) => b.startsWith('prep'))).toContain('|p1|');
    for (const d of [...cut.stay, ...long.stay]) expect([d, states.get(d)]).toEqual([d, 'booked']);
  });
});

describe('inferBookings (calendar-diff/2): two preparation nights read from the holds seen taken with both sides free, 4 or 5 nights over the minimum', () => {
  // Observed daily at noon from 2030-02-01 for 40 days, minimum stay 2; the platform blocks two
  // preparation nights on each side of every guest's booking. Eight guests' stays of 2 or 3 nights
  // from 2030-03-13, ten nights apart, each taken on its own day with both sides free: holds of 6
  // or 7 nights, 4 or 5 over the minimum. Two host's holds of 5 nights (3 over: no preparation
  // nights), taken with both sides free too. Two nights off each side break those two (a fifth of
  // the holds), so neither the strict reading nor the shortest holds read 2, and one night off each
  // side leaves a stay of the minimum or a night more for them (shortestAtTwo reads nothing); one
  // night breaks none, and is read first.
  const guests = guestHolds(8, { first: '2030-03-13', length: (i) => 2 + (i % 2), prep: 2, takenFrom: '2030-02-20' });
  const hosts = hostHolds(['2030-06-01', '2030-06-11'], 5);
  const { r, states } = inferPrepHolds([...guests, ...hosts], 2);

  it('reads two preparation nights where guests’ shortest holds sit two nights in: each stay booked, its preparation nights blocked', () => {
    expectStays(states, guests);
    for (const d of hosts.flatMap((h) => h.stay)) expect([d, states.get(d)]).toEqual([d, 'blocked']);
    expect(r.basis!.find((b) => b.startsWith('prep'))).toContain('|p2|');
  });
});

describe('inferBookings (calendar-diff/2): preparation time read from two short stays seen taken with both sides free', () => {
  // Observed daily at noon from 2030-02-01 for 40 days, minimum stay 2; the platform blocks one
  // preparation night on each side of every guest's booking. Two guests book the minimum stay
  // (2030-03-13 and 2030-03-23), each seen taken with both sides free: holds of 4 nights. Five
  // guests' stays of 6 nights, from 2030-03-03 and nine nights apart from 2030-03-28, were booked
  // before observation began (never seen free, both sides free now). The two short stays are too few for a share of
  // the seven holds (two in seven are a stay of the minimum once a night comes off each side) and
  // for the strict reading; but each was seen booked with a free night on both sides, and a night
  // off each side breaks no hold.
  const seen = guestHolds(2, { first: '2030-03-13', length: () => 2, prep: 1, takenFrom: '2030-02-20' });
  const early: PrepHold[] = ['2030-03-03', '2030-03-28', '2030-04-06', '2030-04-15', '2030-04-24'].map((start) => ({
    stay: range(start, 6),
    prep: [addDays(start, -1), addDays(start, 6)],
    at: atHour('2030-01-10', 18),
  }));
  const { r, states } = inferPrepHolds([...seen, ...early], 2);

  it('reads one preparation night: each stay booked, its preparation nights blocked', () => {
    expectStays(states, [...seen, ...early]);
    expect(r.basis!.find((b) => b.startsWith('prep'))).toContain('|p1|');
  });
});

describe('inferBookings (calendar-diff/2): holds whose nights came within a booking window already taken, observed weekly', () => {
  // Observed weekly at noon from 2030-01-01 for 14 weeks, 100 nights ahead, a 30-day rolling window
  // (nights 30 days ahead or more closed), minimum stay 2. A guest books 2030-03-09 to 2030-03-12 on
  // 2030-02-10, once its last night was inside the window: its nights closed by the window at the
  // observation of 2030-02-05 and taken at that of 2030-02-12, none seen free. The owner's stay of
  // 2030-03-20 to 2030-04-09, made before observation began, comes within the window a night a day,
  // taken: seen a piece at each observation, none of its nights seen free either.
  const guest = { nights: range('2030-03-09', 3), at: atHour('2030-02-10', 9) };
  const owner = { nights: range('2030-03-20', 20), at: atHour('2029-12-01', 9) };
  const days = record(
    [...Array(14).keys()].map((i) => {
      const at = atHour(addDays('2030-01-01', 7 * i), 12);
      const today = dateOf(at);
      const shut = addDays(today, 30);
      const taken = new Set([guest, owner].filter((h) => h.at < at).flatMap((h) => h.nights));
      return {
        at,
        days: new Map(
          [...calendar('2030-01-01', 200, taken)]
            .filter(([d]) => d >= today && d < addDays(today, 100))
            .map(([d, v]) => [d, d >= shut ? { ...v, available: false, checkIn: false, checkOut: false, bookable: false } : v]),
        ),
      };
    }),
  );

  it('the guest’s stay, its nights together, is booked; the pieces of the owner’s stay, each beside the others, are blocked', () => {
    const r = inferBookings({ days, from: '2030-03-01', to: '2030-05-01', method: 'calendar-diff/2' });
    const states = new Map(r.nights.map((n) => [n.date, n.state]));
    for (const d of guest.nights) expect([d, states.get(d)]).toEqual([d, 'booked']);
    for (const d of owner.nights) expect([d, states.get(d)]).toEqual([d, 'blocked']);
  });
});

describe('inferBookings (calendar-diff/2): a hold taken before observation began, shorter than the minimum stay stated now', () => {
  // Observed daily at noon from 2030-02-20 for 40 days, the nights from today on. Three nights from
  // 2030-03-20 were taken before observation began (never seen free, both sides free). On one
  // listing the minimum stay is 4 throughout; on the other the host raises it from 2 to 4 on
  // 2030-03-05, while observed: the hold was booked under a minimum the calendar no longer states.
  const hold = new Set(range('2030-03-20', 3));
  const observe = (minBefore: number) =>
    record(
      [...Array(40).keys()].map((i) => {
        const at = atHour(addDays('2030-02-20', i), 12);
        const today = dateOf(at);
        const minNights = at < dayMs('2030-03-05') ? minBefore : 4;
        return { at, days: new Map([...calendar('2030-02-20', 80, hold, { minNights })].filter(([d]) => d >= today)) };
      }),
    );
  const statesOf = (days: ObservationRow<'day'>[]) => {
    const r = inferBookings({ days, from: '2030-03-01', to: '2030-04-01', method: 'calendar-diff/2' });
    return [...new Set(r.nights.filter((n) => hold.has(n.date)).map((n) => n.state))];
  };

  it('is the host’s where the minimum held still, and says nothing where the host changed it while observed: booked', () => {
    expect(statesOf(observe(4))).toEqual(['blocked']);
    expect(statesOf(observe(2))).toEqual(['booked']);
  });
});

describe('inferBookings (calendar-diff/2): a hold ending on a day that refuses check-out', () => {
  // Observed daily at noon from 2030-02-20 for 40 days, the nights from today on, minimum stay 2;
  // guests may not check out on Wednesdays. Two holds of three nights are taken while observed,
  // each starting on a day guests may check in on: one ending on Wednesday 2030-03-13 (checking out
  // then), one on Saturday 2030-03-23.
  const host = { nights: range('2030-03-10', 3), at: atHour('2030-03-01', 18) };
  const guest = { nights: range('2030-03-20', 3), at: atHour('2030-03-05', 18) };
  const days = record(
    [...Array(40).keys()].map((i) => {
      const at = atHour(addDays('2030-02-20', i), 12);
      const today = dateOf(at);
      const taken = new Set([host, guest].filter((h) => h.at <= at).flatMap((h) => h.nights));
      return {
        at,
        days: new Map([...calendar('2030-02-20', 80, taken)].filter(([d]) => d >= today).map(([d, v]) => [d, { ...v, checkOut: v.checkOut && new Date(dayMs(d)).getUTCDay() !== 3 }])),
      };
    }),
  );

  it('is the host’s; the one ending where guests may check out is a guest’s', () => {
    const r = inferBookings({ days, from: '2030-03-01', to: '2030-04-01', method: 'calendar-diff/2' });
    const states = new Map(r.nights.map((n) => [n.date, n.state]));
    for (const d of host.nights) expect([d, states.get(d)]).toEqual([d, 'blocked']);
    for (const d of guest.nights) expect([d, states.get(d)]).toEqual([d, 'booked']);
  });
});

describe('inferBookings (calendar-diff/2): one preparation night read from how likely many holds’ lengths are with it', () => {
  // Observed daily at noon from 2030-02-01 for 40 days, minimum stay 2; the platform blocks one
  // preparation night on each side of every guest's booking. Ten guests' stays of 3 or 4 nights
  // (a night or two over the minimum) from 2030-03-13, ten nights apart, each taken on its own day
  // with both sides free: holds of 5 or 6 nights. Two host's holds of 2 nights (the minimum: no
  // preparation nights), taken with both sides free too. A night off each side breaks those two (a
  // sixth of the holds): too many for the strict reading, the free sides and the shortest holds,
  // and no hold the rules refuse whole; but ten stays a night or two over the minimum once a night
  // comes off each side are likelier than ten 3 or 4 over it, against two host's holds of the
  // minimum.
  const guests = guestHolds(10, { first: '2030-03-13', length: (i) => 3 + (i % 2), prep: 1, takenFrom: '2030-02-20' });
  const hosts = hostHolds(['2030-07-01', '2030-07-11'], 2);
  const { r, states } = inferPrepHolds([...guests, ...hosts], 2);

  it('reads one preparation night: each stay booked exactly, the night on each side blocked', () => {
    expectStays(states, guests);
    expect(r.bookings.filter((b) => guests.some((h) => h.stay[0] === b.checkIn)).map((b) => [b.checkIn, b.checkOut])).toEqual(guests.map((h) => [h.stay[0], addDays(h.stay.at(-1)!, 1)]));
    expect(r.basis!.find((b) => b.startsWith('prep'))).toContain('|p1|');
  });
});

describe('inferBookings (calendar-diff/2): no preparation time read from free sides when the holds’ lengths are likelier without it', () => {
  // Observed daily at noon from 2030-02-01 for 40 days, minimum stay 2; no preparation time. Four
  // guests' stays of 4 nights (two over the minimum) from 2030-03-13, ten nights apart, each taken
  // on its own day with both sides free: a night off each side leaves a stay the rules accept on
  // every one (eight free sides). Three guests' stays of the minimum, booked before observation
  // began (never seen free, both sides free now), which a night off each side breaks: the lengths
  // are likelier without preparation time, and no preparation night is read.
  const seen = guestHolds(4, { first: '2030-03-13', length: () => 4, prep: 0, takenFrom: '2030-02-20' });
  const early: PrepHold[] = ['2030-05-01', '2030-05-11', '2030-05-21'].map((start) => ({ stay: range(start, 2), prep: [], at: atHour('2030-01-10', 18) }));
  const { r, states } = inferPrepHolds([...seen, ...early], 2);

  it('reads no preparation time: every night of each stay seen taken booked', () => {
    for (const d of seen.flatMap((h) => h.stay)) expect([d, states.get(d)]).toEqual([d, 'booked']);
    expect(r.bookings.filter((b) => seen.some((h) => h.stay[0] === b.checkIn)).map((b) => [b.checkIn, b.checkOut])).toEqual(seen.map((h) => [h.stay[0], addDays(h.stay.at(-1)!, 1)]));
    expect(r.basis!.find((b) => b.startsWith('booked'))).toContain('|p0|');
  });
});

describe('inferBookings (calendar-diff/2): a hold beside an earlier guest’s booking shares its preparation nights', () => {
  // As the two-preparation-night listing above: eight guests' stays of 1 or 2 nights from
  // 2030-03-06, ten nights apart, two nights blocked on each side of each. A last guest Y books
  // 2030-05-20 for two nights on 2030-03-01, three nights after the eighth stay (taken before it)
  // ended: the platform asks for two free nights between the stays, the eighth's second preparation
  // night is Y's first, and Y's hold carries one preparation night on that side (and two on its
  // free side). Half of two comes off the side its neighbour took first, not two.
  const d0 = '2030-03-01';
  const holds = guestHolds(8, { first: '2030-03-06', length: (i) => 1 + (i % 2), prep: 2, takenFrom: '2030-02-20' });
  const eighth = holds[7]!;
  const y: PrepHold = { stay: range(addDays(eighth.prep[3]!, 2), 2), prep: [addDays(eighth.prep[3]!, 1), addDays(eighth.prep[3]!, 4), addDays(eighth.prep[3]!, 5)], at: atHour('2030-03-01', 18) };

  it('reads the stay whole, one preparation night on the shared side and two on the free side blocked', () => {
    const r = inferBookings({ days: observePrepHolds([...holds, y], 1), from: d0, to: '2030-06-01', method: 'calendar-diff/2' });
    const states = new Map(r.nights.map((n) => [n.date, n.state]));
    for (const d of y.stay) expect([d, states.get(d)]).toEqual([d, 'booked']);
    for (const d of y.prep) expect([d, states.get(d)]).toEqual([d, 'blocked']);
    expect(r.bookings.find((b) => b.checkIn === y.stay[0])?.checkOut).toBe(addDays(y.stay.at(-1)!, 1));
  });
});

describe('inferBookings (calendar-diff/2): a holiday stay booked further ahead than the guest window', () => {
  // Observed daily at noon from 2030-02-01 for 40 days. A stay of 8 nights (a night over a minimum
  // of 7) from 2030-06-10, taken on the evening of 2030-02-05 with its nights seen free just
  // before: about 125 days ahead, beyond the 90 guests book, within the year platforms allow. On a
  // listing asking 7 nights (let for holidays) it is a guest's holiday; on one asking 2 the same
  // hold, 6 nights over its minimum, is the host's.
  const hold: PrepHold = { stay: range('2030-06-10', 8), prep: [], at: atHour('2030-02-05', 18) };
  const statesAt = (minNights: number) => {
    return inferPrepHolds([hold], minNights).states;
  };

  it('is booked on a listing let for holidays, blocked on one let for short breaks', () => {
    const holiday = statesAt(7);
    const breaks = statesAt(2);
    for (const d of hold.stay) expect([d, holiday.get(d), breaks.get(d)]).toEqual([d, 'booked', 'blocked']);
  });
});

describe('inferBookings (calendar-diff/2): an advance notice read on a listing observed weekly', () => {
  // Observed every Monday at 06:00 from 2030-03-04 for six weeks, minimum stay 2. The platform
  // closes each night at noon the day before it (an advance notice of half a day): each
  // observation shows that day's night closed, seen free a week before, and the next night free.
  // Observed weekly, five such changes in six weeks, fewer than a listing observed daily shows in
  // a week: read from three. A guest's stay of three nights is taken in the second week.
  const d0 = '2030-03-04';
  const stay = range('2030-03-27', 3);
  const snapshots = [0, 1, 2, 3, 4, 5].map((k) => {
    const today = addDays(d0, 7 * k);
    return { at: dayMs(today) + 6 * 3_600_000, days: calendar(today, 60, new Set([today, ...(k >= 2 ? stay : [])])) };
  });
  const r = inferBookings({ days: record(snapshots), from: d0, to: '2030-04-30', method: 'calendar-diff/2' });
  const at = new Map(r.nights.map((n, i) => [n.date, { state: n.state, basis: r.basis![i]! }]));

  it('the nights the notice closed are free, the guest’s stay booked', () => {
    for (const k of [1, 2, 3, 4, 5]) {
      const d = addDays(d0, 7 * k);
      expect([d, at.get(d)?.state, at.get(d)?.basis.split('|')[0]]).toEqual([d, 'available', 'noticeFree']);
    }
    for (const d of stay) expect([d, at.get(d)?.state]).toEqual([d, 'booked']);
  });
});

describe('inferBookings (calendar-diff/2): a host’s hold the booking window hid, reaching its edge', () => {
  // Observed daily at noon from 2030-02-01 for 40 days, 100 nights ahead, a 30-day rolling window
  // (nights 30 days ahead or more closed), minimum stay 2. The owner's stay of 2030-04-05 to
  // 2030-04-25, made before observation began, comes within the window a night a day, taken: at
  // the last observation (2030-03-12) six of its nights are within the window, 2030-04-05 to
  // 2030-04-10, none seen free, and the window closes the rest. It runs on past the edge: three
  // nights more (half the six) are read as the host's, the nights after them free.
  const owner = range('2030-04-05', 20);
  const days = record(
    [...Array(40).keys()].map((i) => {
      const at = atHour(addDays('2030-02-01', i), 12);
      const today = dateOf(at);
      const shut = addDays(today, 30);
      return {
        at,
        days: new Map(
          [...calendar('2030-01-01', 200, new Set(owner))]
            .filter(([d]) => d >= today && d < addDays(today, 100))
            .map(([d, v]) => [d, d >= shut ? { ...v, available: false, checkIn: false, checkOut: false, bookable: false } : v]),
        ),
      };
    }),
  );

  it('the nights within the window and three past its edge are blocked, the later ones unbookable', () => {
    const r = inferBookings({ days, from: '2030-03-01', to: '2030-05-01', method: 'calendar-diff/2' });
    const states = new Map(r.nights.map((n) => [n.date, n.state]));
    expect(range('2030-04-05', 9).map((d) => states.get(d))).toEqual(Array(9).fill('blocked'));
    expect(range('2030-04-14', 5).map((d) => states.get(d))).toEqual(Array(5).fill('unbookable'));
  });
});

describe('inferBookings (calendar-diff/2): a stay of the minimum or a night more taken months ahead', () => {
  // Observed daily at noon from 2030-02-01 for 40 days, minimum stay 2, no booking window. A stay of
  // 3 nights (a night over the minimum) from 2030-07-10, taken on the evening of 2030-02-05 with its
  // nights seen free just before: about 155 days ahead, beyond the 90 guests book and the 120 the
  // guest window's evidence starts at, within the year platforms allow: a guest planning a trip
  // months ahead. The host's hold of 3 nights from 2030-05-16, taken the same evening, about 100
  // days ahead: a host blocks a few nights within a season, and no guest books that far ahead
  // short of 120 days.
  const guest: PrepHold = { stay: range('2030-07-10', 3), prep: [], at: atHour('2030-02-05', 18) };
  const host: PrepHold = { stay: range('2030-05-16', 3), prep: [], at: atHour('2030-02-05', 18), host: true };
  const { states } = inferPrepHolds([guest, host], 2);

  it('the stay taken 155 days ahead is booked, the hold taken 100 days ahead blocked', () => {
    for (const d of guest.stay) expect([d, states.get(d)]).toEqual([d, 'booked']);
    for (const d of host.stay) expect([d, states.get(d)]).toEqual([d, 'blocked']);
  });
});

describe('inferBookings (calendar-diff/2): the notice closes the night before a stay as the stay is booked', () => {
  // Observed daily at 06:00 from 2030-03-01 for 30 days, minimum stay 2, no check-in on Wednesdays.
  // The platform closes each night at noon the day before it (an advance notice of half a day): each
  // observation shows that day's night closed, the next night free. A guest books Thursday
  // 2030-03-14 for three nights at 18:00 on Tuesday 2030-03-12, after the notice closed Wednesday
  // 2030-03-13 that noon: the observation of Wednesday morning sees the four nights closed together.
  // No stay holds that Wednesday without the Tuesday (no check-in on it), and the Tuesday was not
  // taken with them: it is the notice's, and the stay starts on the Thursday.
  const d0 = '2030-03-01';
  const stay = range('2030-03-14', 3);
  const bookedAt = atHour('2030-03-12', 18);
  const days = record(
    [...Array(30).keys()].map((k) => {
      const today = addDays(d0, k);
      const at = atHour(today, 6);
      return { at, days: calendar(today, 60, new Set([today, ...(at > bookedAt ? stay : [])]), { closedWeekday: 3 }) };
    }),
  );

  it('the night the notice closed is free, the stay from the Thursday booked', () => {
    const r = inferBookings({ days, from: d0, to: '2030-04-15', method: 'calendar-diff/2' });
    const at = new Map(r.nights.map((n, i) => [n.date, { state: n.state, path: r.basis![i]!.split('|')[0] }]));
    expect(at.get('2030-03-13')?.path).toBe('noticeFree');
    for (const d of stay) expect([d, at.get(d)?.state]).toEqual([d, 'booked']);
    expect(r.bookings.find((b) => b.checkIn === '2030-03-14')?.checkOut).toBe('2030-03-17');
  });
});

describe('inferBookings (calendar-diff/2): free nights judged by the minimum stay the host asks now', () => {
  // Observed daily at noon from 2030-02-01 for 40 days, the nights from today on. The host asks 2
  // nights until 2030-02-20, then 4. Two holds taken before observation began, 2030-02-05 to
  // 2030-02-08 and 2030-02-11 to 2030-02-15, leave three free nights between them, passed before
  // the host raised the minimum: a stay of 2 could use them, none of 4 can. The answer is for now,
  // under the minimum asked now: unbookable. Nights seen free since, 2030-03-20 on, are available.
  const holds = new Set([...range('2030-02-05', 3), ...range('2030-02-11', 4)]);
  const days = record(
    [...Array(40).keys()].map((i) => {
      const at = atHour(addDays('2030-02-01', i), 12);
      const today = dateOf(at);
      const minNights = at < dayMs('2030-02-20') ? 2 : 4;
      return { at, days: new Map([...calendar('2030-02-01', 80, holds, { minNights })].filter(([d]) => d >= today)) };
    }),
  );

  it('the nights between the holds are unbookable, the nights seen free since available', () => {
    const r = inferBookings({ days, from: '2030-02-01', to: '2030-04-01', method: 'calendar-diff/2' });
    const states = new Map(r.nights.map((n) => [n.date, n.state]));
    expect(range('2030-02-08', 3).map((d) => states.get(d))).toEqual(Array(3).fill('unbookable'));
    expect(range('2030-03-20', 5).map((d) => states.get(d))).toEqual(Array(5).fill('available'));
  });
});

describe('inferBookings (calendar-diff/2): a stay begun before the first night observed must end where guests may check out', () => {
  // A listing let by the week: check-in and check-out on Saturdays only, minimum stay 7. Observed
  // daily at noon from Wednesday 2030-03-06 for 30 days, the nights from today on. The nights from
  // Friday 2030-03-08 to 2030-03-16 were taken before observation began; the Wednesday and the
  // Thursday before them are free. No stay the rules allow holds them: one begun before the first
  // night observed (its start unseen) must run on to a Saturday, through the Friday taken.
  const taken = new Set(range('2030-03-08', 9));
  const days = record(
    [...Array(30).keys()].map((i) => {
      const at = atHour(addDays('2030-03-06', i), 12);
      return {
        at,
        days: new Map(
          range(dateOf(at), 60).map((d): [string, Day] => {
            const free = !taken.has(d);
            const saturday = new Date(dayMs(d)).getUTCDay() === 6;
            return [d, { available: free, minNights: 7, checkIn: free && saturday, checkOut: saturday, bookable: free && saturday }];
          }),
        ),
      };
    }),
  );

  it('the free Wednesday and Thursday are unbookable, the weeks free from a Saturday available', () => {
    const r = inferBookings({ days, from: '2030-03-06', to: '2030-04-06', method: 'calendar-diff/2' });
    const states = new Map(r.nights.map((n) => [n.date, n.state]));
    expect([states.get('2030-03-06'), states.get('2030-03-07')]).toEqual(['unbookable', 'unbookable']);
    expect(range('2030-03-23', 7).map((d) => states.get(d))).toEqual(Array(7).fill('available'));
  });
});

describe('inferBookings (calendar-diff/2): a three-day notice polled at its closing hour', () => {
  // Observed daily at midnight from 2030-03-01 for 30 days, minimum stay 2. The platform closes
  // each night at midnight three days before it, the hour the poll runs: each observation sees the
  // night three days ahead closed, seen free a day before, at four days. A guest books 2030-03-20
  // for three nights on 2030-03-10 at noon.
  const d0 = '2030-03-01';
  const stay = range('2030-03-20', 3);
  const days = record(
    [...Array(30).keys()].map((k) => {
      const today = addDays(d0, k);
      const at = dayMs(today);
      return { at, days: calendar(today, 60, new Set([...range(today, 4), ...(at > atHour('2030-03-10', 12) ? stay : [])])) };
    }),
  );

  it('reads the notice: the nights it closed are free, the guest’s stay booked', () => {
    const r = inferBookings({ days, from: d0, to: '2030-04-15', method: 'calendar-diff/2' });
    const at = new Map(r.nights.map((n, i) => [n.date, { state: n.state, path: r.basis![i]!.split('|')[0] }]));
    // Free, available or unbookable by the rules each stated when last seen free.
    for (const d of [...range('2030-03-05', 14), ...range('2030-03-24', 5)]) {
      expect([d, at.get(d)?.path]).toEqual([d, 'noticeFree']);
      expect(['available', 'unbookable']).toContain(at.get(d)?.state);
    }
    for (const d of stay) expect([d, at.get(d)?.state]).toEqual([d, 'booked']);
  });
});

describe('inferBookings (calendar-diff/2): a stay whose last preparation night lay past the booking window when it was booked', () => {
  // Observed daily at noon from 2030-02-01 for 40 days, 60 nights ahead, a 30-day rolling window
  // (nights 30 days ahead or more closed), minimum stay 1, check-in any free day; the platform
  // blocks two preparation nights on each side of every guest's booking. Seven guests' stays of 1
  // or 2 nights from 2030-02-12, a week apart, each taken 20 days before it (or on 2030-02-02) with
  // both sides free. A guest E books 2030-04-07 and 2030-04-08 on the evening of 2030-03-10, its
  // last night the last the window then opened: its first preparation night after it came within
  // the window the next day, taken with the stay, its second the day after, already taken. The hold
  // seen taken carries one preparation night on that side, not two.
  const guests: PrepHold[] = [...Array(7).keys()].map((i) => {
    const start = addDays('2030-02-12', 7 * i);
    const stay = range(start, 1 + (i % 2));
    const taken = addDays(start, -20) > '2030-02-02' ? addDays(start, -20) : '2030-02-02';
    return { stay, prep: [...range(addDays(start, -2), 2), ...range(addDays(start, stay.length), 2)], at: atHour(taken, 18) };
  });
  const e: PrepHold = { stay: range('2030-04-07', 2), prep: ['2030-04-05', '2030-04-06', '2030-04-09', '2030-04-10'], at: atHour('2030-03-10', 18) };
  const holds = [...guests, e];
  const days = observeWindowed(holds, { first: '2030-02-01', every: 1, count: 40, ahead: 60, minNights: 1 });

  it('reads the stay whole: its last night booked, the nights after it blocked', () => {
    const r = inferBookings({ days, from: '2030-02-01', to: '2030-05-01', method: 'calendar-diff/2' });
    const states = new Map(r.nights.map((n) => [n.date, n.state]));
    expectStays(states, holds);
    expect(r.bookings.find((b) => b.checkIn === e.stay[0])?.checkOut).toBe('2030-04-09');
  });
});

describe('inferBookings (calendar-diff/2): two preparation nights read from stays booked as their nights opened', () => {
  // Observed daily at noon from 2030-02-01 for 40 days, 60 nights ahead, a 30-day rolling window
  // (nights 30 days ahead or more closed), minimum stay 1, check-in any free day; the platform
  // blocks two preparation nights on each side of every guest's booking. Seven guests each book a
  // one-night stay on the evening of 2030-02-02 + 6i, the night the last the window then opened:
  // the hold seen taken is the two nights before it, the stay and its first preparation night
  // after (which came within the window the next day, taken), and its second preparation night came
  // within it already taken a day later. Read without that night, each hold is four nights, which
  // two nights off each side leave none of: one preparation night would be read, and the stays cut.
  const holds: PrepHold[] = [...Array(7).keys()].map((i) => {
    const booked = addDays('2030-02-02', 6 * i);
    const night = addDays(booked, 29);
    return { stay: [night], prep: [addDays(night, -2), addDays(night, -1), addDays(night, 1), addDays(night, 2)], at: atHour(booked, 18) };
  });
  const days = observeWindowed(holds, { first: '2030-02-01', every: 1, count: 40, ahead: 60, minNights: 1 });

  it('reads two preparation nights: each stay booked, its two nights on each side blocked', () => {
    const r = inferBookings({ days, from: '2030-02-01', to: '2030-05-01', method: 'calendar-diff/2' });
    const states = new Map(r.nights.map((n) => [n.date, n.state]));
    expectStays(states, holds);
    expect(r.basis!.find((b) => b.startsWith('prep'))).toContain('|p2|');
  });
});

describe('inferBookings (calendar-diff/2): a short stay booked at the last minute with two preparation nights', () => {
  // As the two-preparation-night listing above: eight guests' stays of 1 or 2 nights from
  // 2030-03-06, ten nights apart, two nights blocked on each side of each, and two host's holds of
  // 3 nights. A last-minute guest books the night of 2030-03-10 on the evening of 2030-03-09: its
  // preparation nights before it are the first guest's and today's (gone from the calendar when the
  // hold is first seen taken), after it the two nights that follow. The hold seen taken is three
  // nights, two preparation nights fewer than four: its stay is its first night.
  const holds = guestHolds(8, { first: '2030-03-06', length: (i) => 1 + (i % 2), prep: 2, takenFrom: '2030-02-20' });
  for (const i of [2, 5]) holds.push({ stay: range(addDays(holds[i]!.prep[3]!, 1), 3), prep: [], at: atHour(addDays('2030-02-20', 10 + i), 18), host: true });
  const late: PrepHold = { stay: ['2030-03-10'], prep: ['2030-03-11', '2030-03-12'], at: atHour('2030-03-09', 18) };
  const { states } = inferPrepHolds([...holds, late], 1);

  it('books the night and blocks the two after it', () => {
    expectStays(states, [late]);
  });
});

describe('inferBookings (calendar-diff/2): a stay booked beside a night the advance notice had closed', () => {
  // Observed daily at noon from 2030-02-01 for 40 days, 120 nights ahead, minimum stay 1; the
  // advance notice closes each night at noon the day before it; the platform blocks two
  // preparation nights on each side of every guest's booking. Ten guests' one-night stays from
  // 2030-03-20, six nights apart, taken from 2030-02-02 every other day with both sides free. A
  // guest books the night of 2030-03-13 on the evening of 2030-03-11, when the notice had closed
  // the night before it: the hold seen taken is the stay and the two nights after it, its side
  // before it no free night, and its stay is its first night.
  const guests: PrepHold[] = [...Array(10).keys()].map((i) => {
    const night = addDays('2030-03-20', 6 * i);
    return { stay: [night], prep: [addDays(night, -2), addDays(night, -1), addDays(night, 1), addDays(night, 2)], at: atHour(addDays('2030-02-02', 2 * i), 18) };
  });
  const late: PrepHold = { stay: ['2030-03-13'], prep: ['2030-03-14', '2030-03-15'], at: atHour('2030-03-11', 18) };
  const holds = [...guests, late];
  const days = record(
    [...Array(40).keys()].map((i) => {
      const at = atHour(addDays('2030-02-01', i), 12);
      const today = dateOf(at);
      const taken = new Set(holds.filter((h) => h.at < at).flatMap((h) => [...h.stay, ...h.prep]));
      return {
        at,
        days: new Map(
          range(today, 120).map((d): [string, Day] => {
            const free = !taken.has(d) && d > addDays(today, 1);
            return [d, { available: free, minNights: 1, checkIn: free, checkOut: true, bookable: free }];
          }),
        ),
      };
    }),
  );

  it('books the night and blocks the two after it', () => {
    const r = inferBookings({ days, from: '2030-02-01', to: '2030-06-01', method: 'calendar-diff/2' });
    const states = new Map(r.nights.map((n) => [n.date, n.state]));
    expectStays(states, [late, ...guests]);
    expect(r.basis!.find((b) => b.startsWith('prep'))).toMatch(/\|p2\|n1\|/);
  });
});

describe('inferBookings (calendar-diff/2): a weekly rental’s weeks taken months ahead', () => {
  // Observed daily at noon from 2030-01-01 for 30 days, 200 nights ahead, minimum stay 2, check-in
  // on Saturdays only, check-out any day, no booking window. A guest's three weeks from Saturday
  // 2030-05-04 were booked before observation began: first seen taken 123 days ahead, further than
  // the guest window, and the listing shows no other hold so far ahead. Whole weeks from the day
  // guests check in on are a guest's holiday, booked as far ahead as the platform allows.
  const stay = range('2030-05-04', 21);
  const days = observeAhead(stay, 2, (d) => new Date(dayMs(d)).getUTCDay() === 6);

  it('books the weeks', () => {
    const r = inferBookings({ days, from: '2030-01-01', to: '2030-08-01', method: 'calendar-diff/2' });
    const states = new Map(r.nights.map((n) => [n.date, n.state]));
    expectStays(states, [{ stay, prep: [], at: 0 }]);
  });
});

describe('inferBookings (calendar-diff/2): a holiday taken months ahead, before observation began', () => {
  // Observed daily at noon from 2030-01-01 for 30 days, 200 nights ahead, minimum stay 5, check-in
  // and check-out any free day, no booking window. A guest's holiday of 9 nights from 2030-04-20
  // (four over the minimum) was booked before observation began: first seen taken 109 days ahead,
  // further than the guest window, and the listing shows no other hold so far ahead. On a listing
  // let for holidays, a hold within five nights of the minimum is a guest's holiday.
  const stay = range('2030-04-20', 9);
  const days = observeAhead(stay, 5);

  it('books the holiday', () => {
    const r = inferBookings({ days, from: '2030-01-01', to: '2030-08-01', method: 'calendar-diff/2' });
    const states = new Map(r.nights.map((n) => [n.date, n.state]));
    expectStays(states, [{ stay, prep: [], at: 0 }]);
  });
});

describe('inferBookings (calendar-diff/2): one preparation night read from the shortest holds and their lengths, from few holds seen taken with both sides free', () => {
  // Observed daily at noon from 2030-02-01 for 40 days, minimum stay 2; the platform blocks one
  // preparation night on each side of every guest's booking. Eight guests' stays of 3 nights (a
  // night over the minimum) from 2030-03-13, ten nights apart, each taken on its own day with both
  // sides free: holds of 5 nights. One host's hold of 2 nights (the minimum: no preparation
  // nights), taken with both sides free too, which a night off each side breaks: too many for the
  // strict reading and the free sides, no hold the rules refuse whole, and too few holds (nine) for
  // the clean shortest-holds reading or the lengths alone. The shortest holds say one night, and
  // eight stays a night over the minimum once it comes off each side are far likelier than eight
  // three nights over it.
  const guests = guestHolds(8, { first: '2030-03-13', length: () => 3, prep: 1, takenFrom: '2030-02-20' });
  const hosts = hostHolds(['2030-07-01'], 2);
  const { r, states } = inferPrepHolds([...guests, ...hosts], 2);

  it('reads one preparation night: each stay booked exactly, the night on each side blocked', () => {
    expectStays(states, guests);
    expect(r.basis!.find((b) => b.startsWith('prep'))).toContain('|p1|');
  });
});

describe('inferBookings (calendar-diff/2): one preparation night not read as two when a hold seen taken with both sides free says one', () => {
  // Observed daily at noon from 2030-02-01 for 40 days, minimum stay 2; the platform blocks one
  // preparation night on each side of every guest's booking. Seven guests' stays of 6 nights from
  // 2030-03-13 and one of 3 nights after them, ten nights apart, each taken on its own day with
  // both sides free; four guests' stays of 4 nights from 2030-06-01, booked before observation began
  // (never seen free, both sides free now). The shortest holds read two (the four early holds of 6
  // nights are the minimum once two come off each side); but the 3-night stay's hold of 5, seen
  // taken with both sides free, is a stay only with one night off each, and no hold so seen is
  // the minimum or a night more with two off each: one night is read.
  const seen = guestHolds(8, { first: '2030-03-13', length: (i) => (i === 7 ? 3 : 6), prep: 1, takenFrom: '2030-02-10' });
  const early: PrepHold[] = ['2030-06-01', '2030-06-11', '2030-06-21', '2030-07-01'].map((start) => ({
    stay: range(start, 4),
    prep: [addDays(start, -1), addDays(start, 4)],
    at: atHour('2030-01-10', 18),
  }));
  const { r, states } = inferPrepHolds([...seen, ...early], 2);

  it('reads one preparation night: each stay booked exactly, the night on each side blocked', () => {
    expectStays(states, [...seen, ...early]);
    expect(r.basis!.find((b) => b.startsWith('prep'))).toContain('|p1|');
  });
});

describe('inferBookings (calendar-diff/2): one preparation night read where two fit the holds the rules refuse only on one side', () => {
  // Observed daily at noon from 2030-02-01 for 40 days, minimum stay 2; guests may check in on
  // Mondays and Tuesdays only; the platform blocks one preparation night on each side of every
  // guest's booking. Eight guests' stays from Monday 2030-03-11, a week apart, of 3 and 4 nights
  // in turn, each taken on its own day with both sides free: each hold starts on a Sunday, refused
  // whole, and is a stay once a night comes off each side. Two nights off each side leave a stay
  // (starting on a Tuesday) of the 4-night stays only; two off one side fit the 3-night stays too,
  // but the holds that are stays with one night off each side are more: one night is read.
  const holds: PrepHold[] = [...Array(8).keys()].map((i) => {
    const start = addDays('2030-03-11', 7 * i);
    const stay = range(start, i % 2 === 0 ? 3 : 4);
    return { stay, prep: [addDays(start, -1), addDays(start, stay.length)], at: atHour(addDays('2030-02-10', i), 18) };
  });
  const days = record(
    [...Array(40).keys()].map((i) => {
      const at = atHour(addDays('2030-02-01', i), 12);
      const taken = new Set(holds.filter((h) => h.at < at).flatMap((h) => [...h.stay, ...h.prep]));
      return {
        at,
        days: new Map(
          range(dateOf(at), 200).map((d): [string, Day] => {
            const free = !taken.has(d);
            const checkIn = free && [1, 2].includes(new Date(dayMs(d)).getUTCDay());
            return [d, { available: free, minNights: 2, checkIn, checkOut: true, bookable: checkIn }];
          }),
        ),
      };
    }),
  );

  it('reads one preparation night: each stay booked exactly, the night on each side blocked', () => {
    const r = inferBookings({ days, from: '2030-03-01', to: '2030-08-01', method: 'calendar-diff/2' });
    expectStays(new Map(r.nights.map((n) => [n.date, n.state])), holds);
    expect(r.basis!.find((b) => b.startsWith('prep'))).toContain('|p1|');
  });
});

describe('inferBookings (calendar-diff/2): the nights a booking window opened since the last observation, on a listing let by the week', () => {
  // Observed daily at noon from 2030-01-01 to 2030-03-19, 100 nights ahead, a 30-day rolling
  // window (nights 30 days ahead or more closed), check-in on Saturdays only, minimum stay 7,
  // check-out any day. Nights 2030-04-14 to 2030-04-16 (Sunday to Tuesday) came within the window
  // free and were taken by the last observation, when the window closed 2030-04-18 on. Asked about
  // as of 2030-03-22, the window reaches 2030-04-20: the nights it opened since are free, and no
  // week from a Saturday covers Thursday 2030-04-18 or Friday 2030-04-19 (the last Saturday before
  // them, 2030-04-13, runs into the taken nights), while one begins on Saturday 2030-04-20.
  const hold = new Set(range('2030-04-14', 3));
  const days = record(
    range('2030-01-01', 78).map((today) => {
      const at = atHour(today, 12);
      const shut = addDays(today, 30);
      const taken = today === '2030-03-19' ? hold : new Set<string>();
      const free = (d: string) => !taken.has(d) && d < shut;
      return {
        at,
        days: new Map(
          range(today, 100).map((d): [string, Day] => {
            const week = range(d, 7).every((e) => !taken.has(e));
            const checkIn = free(d) && week && new Date(dayMs(d)).getUTCDay() === 6;
            return [d, { available: free(d), minNights: 7, checkIn, checkOut: free(d), bookable: checkIn }];
          }),
        ),
      };
    }),
  );

  it('a night the window opened since is unbookable where no stay of the listing’s rules can cover it, available where one can', () => {
    const now = new Map(inferBookings({ days, from: '2030-04-10', to: '2030-05-01', method: 'calendar-diff/2', asOf: atHour('2030-03-22', 12) }).nights.map((n) => [n.date, n.state]));
    expect(range('2030-04-14', 3).every((d) => now.get(d) !== 'available')).toBe(true);
    expect(now.get('2030-04-17')).toBe('unbookable');
    expect(now.get('2030-04-18')).toBe('unbookable');
    expect(now.get('2030-04-19')).toBe('unbookable');
    expect(now.get('2030-04-20')).toBe('available');
    expect(now.get('2030-04-21')).toBe('unbookable');
  });
});

describe('inferBookings (calendar-diff/2): a listing observed weekly whose guests book months ahead', () => {
  // Observed weekly at noon from 2030-01-01 for 12 weeks, 200 nights ahead, no booking window,
  // minimum stay 2, check-in and check-out any day. Three guests' stays of 3 nights: 2030-05-07
  // taken on 2030-01-03 (first seen taken on 2030-01-08, 118.5 days before it; 122 days from
  // halfway between the observations around it), 2030-05-14 taken on 2030-01-10 (the same), and
  // 2030-05-20 taken on 2030-02-10 (96.5 days before it when first seen taken, past the 90-day guest
  // window). The first two show guests booking further ahead than LONG_LEAD_DAYS, as taken halfway
  // between the observations around them: a year's guest window, and the third is a booking.
  const holds = [
    { stay: range('2030-05-07', 3), at: atHour('2030-01-03', 12) },
    { stay: range('2030-05-14', 3), at: atHour('2030-01-10', 12) },
    { stay: range('2030-05-20', 3), at: atHour('2030-02-10', 12) },
  ];
  const days = record(
    [...Array(12).keys()].map((i) => {
      const at = atHour(addDays('2030-01-01', 7 * i), 12);
      const taken = new Set(holds.filter((h) => h.at < at).flatMap((h) => h.stay));
      return { at, days: new Map([...calendar(dateOf(at), 200, taken)]) };
    }),
  );

  it('reads the holds taken months ahead from halfway between the observations around them: every stay booked', () => {
    const r = inferBookings({ days, from: '2030-05-01', to: '2030-06-01', method: 'calendar-diff/2' });
    expect(r.nights.filter((n) => n.state === 'booked').map((n) => n.date)).toEqual(holds.flatMap((h) => h.stay));
  });
});
