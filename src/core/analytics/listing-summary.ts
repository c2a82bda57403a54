// A listing's booking inference over everything observed of it (issue 34): each night's state and
// the bookings, by calendar-diff/1 (./bookings.ts), in a compact form a store keeps and recomputes
// only when the listing's observations change (src/store/sql/history.ts, table listing_summaries).
// The market reads a city's summaries instead of a city's calendar rows, and every window of a
// listing slices one classification: a night's state does not depend on the window asked.
import { addDays, dateOfDay, dayNumber } from '../clock.js';
import type { DateSpan, ListingSummary, PriceRow } from '../ports/history.js';
import type { ObservationRow } from '../ports/store.js';
import { BOOKING_METHOD, type NightState, inferBookings } from './bookings.js';

/** Characters of a night in `seen`: its row count (2, base 36), first seen and last seen (9 each, epoch ms in base 36). */
const SEEN_WIDTH = 20;
const SEEN_MAX_ROWS = 36 * 36 - 1;

/** The value of a base-36 digit's character code. */
const digit = (c: number) => (c <= 57 ? c - 48 : c - 87);

/**
 * The calendar rows of the nights [a, b) (indexes into the summary's nights): how many, the first
 * first seen and the last last seen (Infinity and -Infinity when none). The instants are compared
 * as their fixed-width base-36 texts, which sort as the numbers do, and only the two kept are parsed.
 */
export function seenWithin(s: ListingSummary, a: number, b: number): { rows: number; first: number; last: number } {
  let rows = 0;
  let first: string | null = null;
  let last: string | null = null;
  for (let i = Math.max(0, a); i < b; i++) {
    const at = i * SEEN_WIDTH;
    const n = digit(s.seen.charCodeAt(at)) * 36 + digit(s.seen.charCodeAt(at + 1));
    if (n === 0) continue;
    rows += n;
    const f = s.seen.slice(at + 2, at + 11);
    const l = s.seen.slice(at + 11, at + 20);
    if (first === null || f < first) first = f;
    if (last === null || l > last) last = l;
  }
  return {
    rows,
    first: first === null ? Number.POSITIVE_INFINITY : Number.parseInt(first, 36),
    last: last === null ? Number.NEGATIVE_INFINITY : Number.parseInt(last, 36),
  };
}

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
 * sandbox world).
 */
export function summarizeListing(days: readonly ObservationRow<'day'>[], prices: readonly PriceRow[], within?: DateSpan): ListingSummary {
  const span = within ? { from: within.from, to: addDays(within.to, 1) } : spanOf(days);
  if (span === null) return { method: BOOKING_METHOD, first: null, states: '', seen: '', bookings: [], currencies: [] };
  const r = inferBookings({ days, prices, from: span.from, to: span.to });
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
  const fixed = (n: number, width: number) => n.toString(36).padStart(width, '0');
  const currencies: string[] = [];
  return {
    method: BOOKING_METHOD,
    first: span.from,
    states: r.nights.map((n) => LETTER[n.state]).join(''),
    seen: count.map((n, i) => fixed(Math.min(n, SEEN_MAX_ROWS), 2) + fixed(first[i]!, 9) + fixed(last[i]!, 9)).join(''),
    bookings: r.bookings.flatMap((b) => {
      const c = b.currency === null ? null : currencies.indexOf(b.currency) >= 0 ? currencies.indexOf(b.currency) : currencies.push(b.currency) - 1;
      return [dayNumber(b.checkIn) - f, b.nights, b.bookedAfter === null ? null : b.leadTimeDays, b.lastPriceSeen, b.lastPriceSeen === null ? null : c];
    }),
    currencies,
  };
}
