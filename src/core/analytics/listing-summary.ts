// A listing's booking inference over everything observed of it (issue 34): each night's state and
// the bookings, by calendar-diff/1 (./bookings.ts), in a compact form a store keeps and recomputes
// only when the listing's observations change (src/store/sql/history.ts, table listing_summaries).
// The market reads a city's summaries instead of a city's calendar rows, and every window of a
// listing slices one classification: a night's state does not depend on the window asked.
import { addDays, dateOfDay, dayNumber } from '../clock.js';
import { type DateSpan, type ListingSummary, type PriceRow, SUMMARY_FORM } from '../ports/history.js';
import type { ObservationRow } from '../ports/store.js';
import { BOOKING_METHOD, type BookingMethod, type NightState, inferBookings, reviewsFor } from './bookings.js';

/**
 * `seen`: each night's calendar rows, in a form a market read decodes for every night of every
 * listing in scope. A header, then the instants, then a record a night:
 * - one digit w, the width of an instant's index; four base-36 characters, how many instants;
 * - the instants a night's rows were first or last seen, ascending, nine base-36 characters each
 *   (epoch ms): a calendar observed daily has one a day, however many nights it shows;
 * - a night: its row count (two characters), then the index of its first first seen and of its
 *   last last seen (w characters each). Indexes compare as the instants do.
 */
const SEEN_MAX_ROWS = 36 * 36 - 1;
const HEADER = 5;
const INSTANT = 9;

/** The value of a base-36 digit's character code. */
const digit = (c: number) => (c <= 57 ? c - 48 : c - 87);

/** The number written in base 36 by the `width` characters of `s` from `at`. */
function base36(s: string, at: number, width: number): number {
  let n = 0;
  for (let i = at; i < at + width; i++) n = n * 36 + digit(s.charCodeAt(i));
  return n;
}

/**
 * The calendar rows of the nights [a, b) (indexes into the summary's nights): how many, the first
 * first seen and the last last seen (Infinity and -Infinity when none). Read digit by digit, with
 * no string made.
 */
export function seenWithin(s: ListingSummary, a: number, b: number): { rows: number; first: number; last: number } {
  const seen = s.seen;
  if (seen.length < HEADER) return { rows: 0, first: Number.POSITIVE_INFINITY, last: Number.NEGATIVE_INFINITY };
  const w = digit(seen.charCodeAt(0));
  const start = HEADER + base36(seen, 1, 4) * INSTANT;
  const width = 2 + 2 * w;
  let rows = 0;
  let first = Number.POSITIVE_INFINITY;
  let last = -1;
  const end = Math.min(b, (seen.length - start) / width);
  for (let i = Math.max(0, a); i < end; i++) {
    const at = start + i * width;
    const n = digit(seen.charCodeAt(at)) * 36 + digit(seen.charCodeAt(at + 1));
    if (n === 0) continue;
    rows += n;
    const f = base36(seen, at + 2, w);
    const l = base36(seen, at + 2 + w, w);
    if (f < first) first = f;
    if (l > last) last = l;
  }
  return {
    rows,
    first: rows === 0 ? Number.POSITIVE_INFINITY : base36(seen, HEADER + first * INSTANT, INSTANT),
    last: rows === 0 ? Number.NEGATIVE_INFINITY : base36(seen, HEADER + last * INSTANT, INSTANT),
  };
}

/** `seen` of nights' row counts, first and last seen (see above). */
function seenOf(count: readonly number[], first: readonly number[], last: readonly number[]): string {
  const instants = [...new Set(count.flatMap((n, i) => (n === 0 ? [] : [first[i]!, last[i]!])))].sort((x, y) => x - y);
  const index = new Map(instants.map((t, i) => [t, i]));
  let w = 1;
  while (36 ** w < instants.length) w++;
  const fixed = (n: number, width: number) => n.toString(36).padStart(width, '0');
  return (
    String(w) +
    fixed(instants.length, 4) +
    instants.map((t) => fixed(t, INSTANT)).join('') +
    count.map((n, i) => fixed(Math.min(n, SEEN_MAX_ROWS), 2) + (n === 0 ? '0'.repeat(2 * w) : fixed(index.get(first[i]!)!, w) + fixed(index.get(last[i]!)!, w))).join('')
  );
}

/** A night's confidence in twentieths, one character ('0' is 0, 'K' is 1): confidenceOf reads it back. */
const confidenceLetter = (c: number) => String.fromCharCode(48 + Math.round(Math.min(1, Math.max(0, c)) * 20));
export const confidenceOf = (code: number) => (code - 48) / 20;

/** One letter a night. */
const LETTER: Record<NightState, string> = { available: 'a', booked: 'b', blocked: 'k', unbookable: 'u', unknown: '?' };

/** The nights a listing's calendar rows cover: the first and the day after the last. */
function spanOf(days: readonly ObservationRow<'day'>[]): { from: string; to: string } | null {
  let lo: string | null = null;
  let hi: string | null = null;
  for (const r of days) {
    if (lo === null || r.key < lo) lo = r.key;
    if (hi === null || r.key > hi) hi = r.key;
  }
  return lo === null || hi === null ? null : { from: lo, to: dateOfDay(dayNumber(hi) + 1) };
}

/**
 * The summary of a listing from its calendar rows and price rows (quotes and dated searches, any
 * currency): every night from the first observed to the last, and every booking. `within` (both
 * ends included) names the nights classified instead, for a reader whose history has no end (the
 * sandbox world). `asOf` is the instant the summary is for (default: the last observation; see
 * BookingInput.asOf).
 */
export function summarizeListing(
  days: readonly ObservationRow<'day'>[],
  prices: readonly PriceRow[],
  within?: DateSpan,
  method: BookingMethod = BOOKING_METHOD,
  ratings?: readonly ObservationRow<'rating'>[],
  asOf?: number,
): ListingSummary {
  const span = within ? { from: within.from, to: addDays(within.to, 1) } : spanOf(days);
  if (span === null) return { form: SUMMARY_FORM, method, first: null, states: '', seen: '', confidences: '', bookings: [], priced: [], currencies: [] };
  const r = inferBookings({ days, prices, from: span.from, to: span.to, method, reviews: reviewsFor(method, ratings, days), ...(asOf === undefined ? {} : { asOf }) });
  // Each night's calendar rows: how many, the first first seen and the last last seen.
  const f = dayNumber(span.from);
  const nights = r.nights.length;
  const count = new Array<number>(nights).fill(0);
  const first = new Array<number>(nights).fill(0);
  const last = new Array<number>(nights).fill(0);
  for (const row of days) {
    const i = dayNumber(row.key) - f;
    if (i < 0 || i >= nights) continue;
    first[i] = count[i] === 0 ? row.firstSeen : Math.min(first[i]!, row.firstSeen);
    last[i] = count[i] === 0 ? row.lastSeen : Math.max(last[i]!, row.lastSeen);
    count[i]!++;
  }
  const currencies: string[] = [];
  const currencyIndex = (c: string | null) => (c === null ? null : currencies.indexOf(c) >= 0 ? currencies.indexOf(c) : currencies.push(c) - 1);
  return {
    form: SUMMARY_FORM,
    method: r.method,
    first: span.from,
    states: r.nights.map((n) => LETTER[n.state]).join(''),
    confidences: r.nights.map((n) => confidenceLetter(n.confidence)).join(''),
    seen: seenOf(count, first, last),
    bookings: r.bookings.flatMap((b) => {
      const c = currencyIndex(b.currency);
      return [dayNumber(b.checkIn) - f, b.nights, b.bookedAfter === null ? null : b.leadTimeDays, b.lastPriceSeen, b.lastPriceSeen === null ? null : c];
    }),
    priced: r.priceRuns.flatMap((p) => [p.from - f, p.nights, p.price, currencyIndex(p.currency)]),
    currencies,
  };
}
