// Booking inference (issue 27, item 1): from a listing's calendar as it was observed (kind 'day'
// rows, a row per run of equal values: src/core/ports/store/observations.ts), what each night is
// now and, for the nights taken, whether a guest booked them or the host blocked them. Pure: no
// store, no clock, no world; the same rows give the same answer. The method, `calendar-diff/1`, is
// documented step by step in docs/analytics.md; a change to any rule here is a new method version.
import type { PriceRow } from '../ports/history.js';
import type { ObservationRow } from '../ports/store/observations.js';
import { reviewInstants } from './review-series.js';
import type { DayValue } from '../schemas/observations.js';
import { DAY_MS, dateOfDay as dateOf, dayNumber } from '../clock.js';
import { type DayRow, type Group, type NightRead, checkInAllowed, isAvailable, weekday } from './calendar-read.js';
import {
  BOOKING_METHOD_TEXT_V2,
  type ConfidencePath,
  type Judged,
  confidenceV2,
  classifyV2,
  heldPastWindow,
  minimumNow,
  openedRules,
  readGuestWindow,
  readHostHolds,
  readPlatformHolds,
  readPrep,
  readReviews,
  stripForCheckIn,
  stripForWeeks,
  stripPrep,
} from './bookings-v2.js';

export const BOOKING_METHOD = 'calendar-diff/1';
/** The methods a reader may ask for (issue 37): each answer names the one it used. */
export const BOOKING_METHODS = ['calendar-diff/1', 'calendar-diff/2'] as const;
export type BookingMethod = (typeof BOOKING_METHODS)[number];

export const NIGHT_STATES = ['available', 'booked', 'blocked', 'unbookable', 'unknown'] as const;
export type NightState = (typeof NIGHT_STATES)[number];

/**
 * The method's parameter: a guest books at most GUEST_WINDOW_DAYS before the first night, so a
 * night that turned unavailable earlier than that is a host's hold (docs/analytics.md).
 */
const GUEST_WINDOW_DAYS = 90;
/** How far back a stay covering a night may start (longer minimum stays than this are not read). */
const MAX_RULE_NIGHTS = 31;
/**
 * Nights either side of a window its reader passes in with it: the rules of the window's nights,
 * and the holds across its edges, judged whole. Every reader of one listing's nights (bookings,
 * market) reads this much, so a night is classified the same whatever window holds it.
 */
export const EDGE_NIGHTS = MAX_RULE_NIGHTS;

export interface InferredNight {
  date: string;
  state: NightState;
  /** 0..1: how sure the method is of the state (0 for unknown). */
  confidence: number;
}

export interface InferredBooking {
  checkIn: string;
  checkOut: string;
  nights: number;
  /** The last instant its first night was seen free (null: taken when first observed). */
  bookedAfter: string | null;
  /** The first instant it was seen taken. */
  bookedBefore: string;
  /**
   * Whole days from when it was booked (the middle of [bookedAfter, bookedBefore]) to check-in;
   * when bookedAfter is null (taken when first observed) a floor: it was booked at least this far ahead.
   */
  leadTimeDays: number;
  /** The nightly price last seen for its first night (a stay including it) before it was taken, in `currency`. */
  lastPriceSeen: number | null;
  currency: string | null;
  confidence: number;
  /** Its nights with a price: a nightly price seen, before it was taken, for a stay including the night. */
  pricedNights: number;
  /** The mean over its priced nights of each one's price (null: none), in `currency`, else in that of its first priced night. */
  meanNightlyPriceSeen: number | null;
}

/** Consecutive booked nights priced the same: each night's last price seen for a stay including it before it was taken. */
export interface PriceRun {
  /** Its first night, a day number (clock.ts, dayNumber). */
  from: number;
  nights: number;
  price: number;
  currency: string | null;
}

export interface BookingInference {
  method: BookingMethod;
  nights: InferredNight[];
  bookings: InferredBooking[];
  /** The booked nights with a price (ADR's sample), in runs, by night. */
  priceRuns: PriceRun[];
  counts: Record<NightState, number>;
  /**
   * calendar-diff/2 only, beside `nights`: the basis of each night's confidence (the path of the
   * method that named it and the features its confidence is measured by: bookings-v2.ts,
   * CONFIDENCE_V2), read by the calibration on the development worlds; not part of any answer.
   */
  basis?: string[];
  sample: {
    /** Observation rows read: calendar days of the window's nights, and the price rows. */
    observations: number;
    /** Nights of the window with at least one observation. */
    nights: number;
    firstObserved: string | null;
    lastObserved: string | null;
    /**
     * The reviews calendar-diff/2 read, dated by the listing's review count (inferWindow; null:
     * none read: calendar-diff/1, or the count not followed over the calendar's observation).
     */
    reviews?: number | null;
  };
}

export interface BookingInput {
  /** Kind 'day' rows of ONE listing (any order; rows a month or more outside [from, to) are ignored). */
  days: readonly DayRow[];
  /** Quote and search rows of that listing: the last price seen before a booking. */
  prices?: readonly PriceRow[];
  /** Night dates, YYYY-MM-DD; `to` exclusive. */
  from: string;
  to: string;
  /** The method (default BOOKING_METHOD). */
  method?: BookingMethod;
  /**
   * The listing's reviews, as the instants they were written (ISO 8601, a review's created_at):
   * calendar-diff/2 reads a review as a guest stay that checked out in the days before it.
   * Absent: none were fetched (an empty list: the listing has none).
   */
  reviews?: readonly string[];
  /**
   * The instant the answer is for (epoch ms; default: the last observation): calendar-diff/2
   * reads a night its booking window closed at the last observation as opened by then when the
   * window, moved to that day, reaches it.
   */
  asOf?: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

const dayValue = (r: DayRow): DayValue => r.value;

function readNight(day: number, rows: DayRow[]): NightRead {
  rows.sort((a, b) => a.firstSeen - b.firstSeen || a.id - b.id);
  const latest = rows.at(-1)!;
  let i = rows.length - 1;
  while (i > 0 && !isAvailable(rows[i - 1]!)) i--;
  // rows[i..] are unavailable (when the latest is); rows[i - 1], if any, the last available one.
  const lastFree = i > 0 ? rows[i - 1]! : null;
  return { day, rows, latest, after: lastFree ? lastFree.lastSeen : null, before: rows[i]!.firstSeen, lastFree };
}

/** The row a night's rules are read from: the last first seen before its day began, else (never seen before it) its latest. */
function rulesRow(n: NightRead): DayRow {
  const dayStart = n.day * DAY_MS;
  for (let i = n.rows.length - 1; i >= 0; i--) if (n.rows[i]!.firstSeen < dayStart) return n.rows[i]!;
  return n.latest;
}

/**
 * The weekdays a listing never lets guests check in on: seen free on that weekday at least
 * three times, never with check-in allowed, while other weekdays allow it.
 */
function closedCheckInDays(nights: readonly NightRead[]): Set<number> {
  const free = new Array<number>(7).fill(0);
  const open = new Array<number>(7).fill(0);
  let stated = false;
  for (const n of nights) {
    for (const r of n.rows) {
      const v = dayValue(r);
      if (v.available !== true) continue;
      if (typeof v.checkIn === 'boolean') stated = true;
      free[weekday(n.day)]!++;
      if (checkInAllowed(v)) open[weekday(n.day)]!++;
    }
  }
  const out = new Set<number>();
  if (!stated || open.every((o) => o === 0)) return out;
  for (let w = 0; w < 7; w++) if (free[w]! >= 3 && open[w] === 0) out.add(w);
  return out;
}

/**
 * Whether a free night can be part of some stay by the latest calendar (each night's rules as
 * seen before its day): a check-in day at or
 * before it, a free run from there through it of at least that day's minimum stay, and a day the
 * guest may check out on after it. Before the first observed day a stay may have begun: /1 takes
 * any night reaching it as coverable; with `unseenStart` (calendar-diff/2) such a stay must still
 * run on from the night to a day the guest may check out on, through free nights (endsAfter).
 */
function coverable(day: number, latest: Map<number, DayValue>, unseenStart = false): boolean {
  for (let s = day; s > day - MAX_RULE_NIGHTS; s--) {
    const vs = latest.get(s);
    // Before the first observed day the calendar is unknown: a stay may have started there.
    if (!vs) return !unseenStart || endsAfter(day, latest);
    if (vs.available !== true) return false;
    if (!checkInAllowed(vs)) continue;
    const min = Math.max(1, typeof vs.minNights === 'number' ? vs.minNights : 1);
    // The stay [s, e): free nights from s, long enough, through day; a check-out allowed at e.
    for (let e = Math.max(s + min, day + 1); e <= s + MAX_RULE_NIGHTS; e++) {
      const night = latest.get(e - 1);
      // Past the last observed day the calendar is unknown: the stay may go on there.
      if (!night) return true;
      if (night.available !== true) break;
      const out = latest.get(e);
      if (out?.checkOut !== false) return true;
    }
  }
  return false;
}

/**
 * Whether a stay begun before the first observed day (its start and its rules unseen) can run on
 * through free night `day`: the nights from it on free until a day the guest may check out on.
 */
function endsAfter(day: number, latest: Map<number, DayValue>): boolean {
  for (let e = day + 1; e <= day + MAX_RULE_NIGHTS; e++) {
    const night = latest.get(e - 1);
    if (!night) return true;
    if (night.available !== true) return false;
    if (latest.get(e)?.checkOut !== false) return true;
  }
  return false;
}

function groupTaken(taken: readonly NightRead[]): Group[] {
  const groups: Group[] = [];
  for (const n of taken) {
    const g = groups.at(-1);
    const last = g?.nights.at(-1);
    if (g && last && last.day === n.day - 1) {
      const after = g.after === null ? n.after : n.after === null ? g.after : Math.max(g.after, n.after);
      const before = Math.min(g.before, n.before);
      // Changed together: the brackets overlap (an unknown start overlaps everything before its end).
      if (after === null || after < before) {
        g.nights.push(n);
        g.after = after;
        g.before = before;
        continue;
      }
    }
    groups.push({ nights: [n], after: n.after, before: n.before });
  }
  return groups;
}

/**
 * The confidences the method gives a hold (docs/analytics.md, step 3). A hold taken before
 * observation began (its nights never seen free) is booked unless a rule or the guest window says
 * blocked, with the lower confidence; the method's text (BOOKING_METHOD_TEXT) is made from these.
 */
const CONFIDENCE = {
  blockedShort: 0.95,
  blockedCheckIn: 0.9,
  blockedEarly: 0.9,
  blockedEarlyNeverSeenFree: 0.85,
  booked: 0.9,
  bookedNeverSeenFree: 0.75,
} as const;

/** The method in words (the market answer's `methods`), from the method's own parameters. */
const BOOKING_METHOD_TEXT =
  'Booking inference from consecutive calendar observations (docs/analytics.md): consecutive nights taken in one change are one hold; ' +
  `a hold is blocked when it is shorter than its first night's minimum stay (confidence ${CONFIDENCE.blockedShort}), starts on a day guests cannot check in on (${CONFIDENCE.blockedCheckIn}) ` +
  `or was taken more than ${GUEST_WINDOW_DAYS} days before its first night (${CONFIDENCE.blockedEarly}; ${CONFIDENCE.blockedEarlyNeverSeenFree} when never seen free), ` +
  `and otherwise booked: confidence ${CONFIDENCE.booked} when it was seen free and then taken, ${CONFIDENCE.bookedNeverSeenFree} when its nights were never seen free (taken before observation began); ` +
  'a booking is priced at the last price seen for a stay including its first night. ' +
  'A free night no stay can use (minimum stay, check-in or check-out rules) is unbookable; a night never observed is unknown.';

/** Each method in words. */
export const BOOKING_METHOD_TEXTS: Record<BookingMethod, string> = { 'calendar-diff/1': BOOKING_METHOD_TEXT, 'calendar-diff/2': BOOKING_METHOD_TEXT_V2 };

/** Booked or blocked, and how sure: the guest rules a booking obeys, then the guest window. */
function classify(g: Group, closed: Set<number>): { state: 'booked' | 'blocked'; confidence: number } {
  const first = g.nights[0]!;
  const length = g.nights.length;
  const v = dayValue(first.lastFree ?? first.latest);
  const min = typeof v.minNights === 'number' ? v.minNights : null;
  // 1. Shorter than the minimum stay of its first night: no guest could book it.
  if (min !== null && length < min) return { state: 'blocked', confidence: CONFIDENCE.blockedShort };
  // 2. Its first night was not a check-in day just before it was taken, or never is.
  if (first.lastFree && !checkInAllowed(dayValue(first.lastFree))) return { state: 'blocked', confidence: CONFIDENCE.blockedCheckIn };
  if (closed.has(weekday(first.day))) return { state: 'blocked', confidence: CONFIDENCE.blockedCheckIn };
  // 3. Taken further ahead than guests book.
  const leadFloor = (first.day * DAY_MS - g.before) / DAY_MS;
  if (leadFloor > GUEST_WINDOW_DAYS) return { state: 'blocked', confidence: g.after === null ? CONFIDENCE.blockedEarlyNeverSeenFree : CONFIDENCE.blockedEarly };
  // 4. Otherwise a booking; surer when the change was seen (a bracket), less when it was taken before the first observation.
  return { state: 'booked', confidence: g.after === null ? CONFIDENCE.bookedNeverSeenFree : CONFIDENCE.booked };
}

/** The stay a price row's key names (`…@checkIn/checkOut/adults` or `checkIn/checkOut/adults`), as day numbers. */
function stayOfKey(key: string): { from: number; to: number } | null {
  const m = /(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})/.exec(key);
  return m ? { from: dayNumber(m[1]!), to: dayNumber(m[2]!) } : null;
}

/**
 * The nightly price last seen for a night before it was taken (`before`): among the price rows
 * (quotes and dated searches) whose stay includes the night, the one seen last at or before then.
 * Null when none was: a price of another stay is not the night's.
 */
function nightPrice(prices: readonly { row: PriceRow; stay: { from: number; to: number } }[], night: number, before: number): { price: number; currency: string | null } | null {
  let best: PriceRow | null = null;
  for (const { row, stay } of prices) {
    if (row.firstSeen > before || stay.from > night || night >= stay.to) continue;
    if (!best || Math.min(row.lastSeen, before) > Math.min(best.lastSeen, before)) best = row;
  }
  return best ? { price: best.value.nightlyPrice!, currency: best.currency } : null;
}

export function inferBookings(input: BookingInput): BookingInference {
  const from = dayNumber(input.from);
  const to = dayNumber(input.to);
  const byDay = new Map<number, DayRow[]>();
  let observations = 0;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const r of input.days) {
    if (r.kind !== 'day' || !/^\d{4}-\d{2}-\d{2}$/.test(r.key)) continue;
    const day = dayNumber(r.key);
    // The rules of a window's nights read a month on either side (stays across its edges).
    if (day < from - MAX_RULE_NIGHTS || day >= to + MAX_RULE_NIGHTS) continue;
    let list = byDay.get(day);
    if (!list) byDay.set(day, (list = []));
    list.push(r);
    if (day >= from && day < to) {
      observations++;
      first = Math.min(first, r.firstSeen);
      last = Math.max(last, r.lastSeen);
    }
  }
  const method = input.method ?? BOOKING_METHOD;
  // calendar-diff/2 first reads the holds the platform makes by itself (./bookings-v2.ts).
  const v2 = method === 'calendar-diff/2' ? readPlatformHolds(byDay) : null;
  const reads = new Map<number, NightRead>();
  for (const [day, rows] of [...(v2?.byDay ?? byDay)].sort((a, b) => a[0] - b[0])) reads.set(day, readNight(day, rows));
  const all = [...reads.values()];
  const closed = closedCheckInDays(all);
  // Each night as a stay reads it: free or taken as last seen, its rules (check-in, minimum stay,
  // check-out) as last seen before its own day. On and after its day no calendar offers it (a
  // past day allows no check-out), and such a row is not a rule of the night (issue 36, item 5).
  const latest = new Map<number, DayValue>(all.map((n) => [n.day, { ...dayValue(rulesRow(n)), available: n.latest.value.available }]));
  // calendar-diff/2 judges a free night by the minimum stay the host asks now (minimumNow).
  const rulesNow = v2 === null ? latest : minimumNow(latest, new Map(all.map((n) => [n.day, rulesRow(n)])), reads);

  // Taken nights (the month around the window too: a hold across its edge is judged whole).
  const groups = groupTaken(all.filter((n) => !isAvailable(n.latest)));
  const verdict = new Map<number, { state: 'booked' | 'blocked'; confidence: number; basis?: string }>();
  const bookings: InferredBooking[] = [];
  const prices = input.prices ?? [];
  // The rows with a nightly price and the stay they priced.
  const stays = prices.flatMap((row) => {
    const stay = typeof row.value.nightlyPrice === 'number' ? stayOfKey(row.key) : null;
    return stay === null ? [] : [{ row, stay }];
  });
  const priceRuns: PriceRun[] = [];
  const prep = v2 === null ? 0 : readPrep(groups, reads, closed);
  if (v2 !== null) {
    v2.signals.prepNights = prep;
    v2.signals.guestWindow = readGuestWindow(groups, closed);
    v2.signals.hostHolds = readHostHolds(groups, reads, closed, prep);
  }
  // calendar-diff/2 tells the preparation nights taken with a stay from the stay, and reads the reviews.
  const judged = groups.map((whole): Judged & { prepNights: NightRead[]; v1?: { state: 'booked' | 'blocked'; confidence: number } } => {
    if (v2 === null) {
      const v1 = classify(whole, closed);
      return { g: whole, prepNights: [], state: v1.state, path: 'booked', review: '-', v1 };
    }
    // On a listing rented by the week the stay is read from its weekday and whole weeks first (stripForWeeks).
    const { stay: g, prep: prepNights } = stripForWeeks(whole, closed) ?? stripPrep(whole, reads, prep, closed);
    const judgedV2 = classifyV2(g, closed, reads, v2.signals);
    // A hold refused for its check-in day alone may be a stay with its preparation nights (stripForCheckIn).
    const own = judgedV2.path === 'blockedCheckIn' ? stripForCheckIn(whole, groups, reads, closed) : null;
    if (own !== null) return { g: own.stay, prepNights: own.prep, ...classifyV2(own.stay, closed, reads, v2.signals), review: '-' };
    return { g, prepNights, ...judgedV2, review: '-' };
  });
  if (v2 !== null && input.reviews)
    readReviews(
      judged,
      input.reviews.map((r) => Date.parse(r)).filter((t) => Number.isFinite(t)),
      v2.signals.lastDay,
    );
  for (const j of judged) {
    const g = j.g;
    const start = g.nights[0]!.day;
    const end = g.nights.at(-1)!.day + 1;
    if (v2 !== null) for (const n of j.prepNights) verdict.set(n.day, { state: 'blocked', ...confidenceV2(v2.signals, 'prep', n.day, n.day + 1, j.review) });
    const c: { state: 'booked' | 'blocked'; confidence: number; basis?: string } = j.v1 ?? { state: j.state, ...confidenceV2(v2!.signals, j.path, start, end, j.review) };
    for (const n of g.nights) verdict.set(n.day, c);
    if (c.state !== 'booked' || end <= from || start >= to) continue;
    const at = g.after === null ? g.before : (g.after + g.before) / 2;
    const price = nightPrice(stays, start, g.before);
    let priced = 0;
    let sum = 0;
    let unit: string | null | undefined;
    for (let d = start; d < end; d++) {
      const p = nightPrice(stays, d, g.before);
      if (p === null) continue;
      const run = priceRuns.at(-1);
      if (run && run.from + run.nights === d && run.price === p.price && run.currency === p.currency) run.nights++;
      else priceRuns.push({ from: d, nights: 1, price: p.price, currency: p.currency });
      // The booking's mean is over its nights priced in one currency: its first night's, else its first priced night's.
      if (unit === undefined) unit = price?.currency ?? p.currency;
      if (p.currency !== unit) continue;
      priced++;
      sum += p.price;
    }
    bookings.push({
      checkIn: dateOf(start),
      checkOut: dateOf(end),
      nights: end - start,
      bookedAfter: g.after === null ? null : iso(g.after),
      bookedBefore: iso(g.before),
      leadTimeDays: Math.floor((start * DAY_MS - at) / DAY_MS),
      lastPriceSeen: price?.price ?? null,
      currency: price?.currency ?? (unit === undefined ? null : unit),
      confidence: c.confidence,
      pricedNights: priced,
      meanNightlyPriceSeen: priced === 0 ? null : Math.round((sum / priced) * 100) / 100,
    });
  }

  const nights: InferredNight[] = [];
  const basis: string[] = [];
  // The day the answer is for: a night the booking window closed at the last observation has opened since if it lies within the window of that day.
  const asOfDay = input.asOf === undefined ? null : Math.floor(input.asOf / DAY_MS);
  // calendar-diff/2: the nights past the booking window a host's hold it hid runs on into (heldPastWindow): blocked, the host's as the hold.
  const held = v2 === null ? new Set<number>() : heldPastWindow(reads, (d) => verdict.get(d)?.state === 'blocked', v2.signals);
  // calendar-diff/2: the rules of the nights the window closed at the last observation, as of the day asked about (openedRules).
  const opened = v2 === null || asOfDay === null || v2.signals.windowDays === null ? null : openedRules(rulesNow, v2.signals.windowClosed, closed, asOfDay + v2.signals.windowDays);
  const counts = Object.fromEntries(NIGHT_STATES.map((s) => [s, 0])) as Record<NightState, number>;
  let observedNights = 0;
  for (let d = from; d < to; d++) {
    const n = reads.get(d);
    let night: InferredNight;
    let why = '';
    if (!n) night = { date: dateOf(d), state: 'unknown', confidence: 0 };
    else {
      observedNights++;
      const v = verdict.get(d);
      const free = (state: 'available' | 'unbookable', path: ConfidencePath, v1: number): InferredNight => {
        if (!v2) return { date: dateOf(d), state, confidence: v1 };
        const c = confidenceV2(v2.signals, path, d, d + 1);
        why = c.basis;
        return { date: dateOf(d), state, confidence: c.confidence };
      };
      if (v) {
        night = { date: dateOf(d), state: v.state, confidence: v.confidence };
        why = v.basis ?? '';
      } else if (held.has(d)) {
        const c = confidenceV2(v2!.signals, 'blockedLong', d, d + 1);
        why = c.basis;
        night = { date: dateOf(d), state: 'blocked', confidence: c.confidence };
      } else if (v2?.signals.windowClosed.has(d) && !(asOfDay !== null && v2.signals.windowDays !== null && d < asOfDay + v2.signals.windowDays)) night = free('unbookable', 'windowClosed', 0.9);
      // Opened by the window since the last observation: free, its rules never seen (a calendar states none for nights it closes),
      // available where a stay of the listing's own rules can cover it (openedRules).
      else if (v2?.signals.windowClosed.has(d)) night = free(coverable(d, opened!, true) ? 'available' : 'unbookable', 'windowOpened', 0.9);
      else if (v2?.signals.noticeFreed.has(d)) night = free(coverable(d, rulesNow, v2 !== null) ? 'available' : 'unbookable', 'noticeFree', 0.9);
      else if (coverable(d, rulesNow, v2 !== null)) night = free('available', 'available', 0.95);
      else night = free('unbookable', 'unbookable', 0.9);
    }
    counts[night.state]++;
    nights.push(night);
    basis.push(why);
  }
  return {
    method,
    nights,
    bookings,
    priceRuns,
    counts,
    ...(v2 ? { basis } : {}),
    sample: {
      observations: observations + prices.length,
      nights: observedNights,
      firstObserved: observations === 0 ? null : iso(first),
      lastObserved: observations === 0 ? null : iso(last),
    },
  };
}

/**
 * The reviews a method reads of a listing: calendar-diff/2 those its review count dates
 * (review-series.ts), where the count was followed over the calendar's observation; /1 none.
 */
export function reviewsFor(method: BookingMethod, ratings: readonly ObservationRow<'rating'>[] | undefined, days: readonly DayRow[]): string[] | undefined {
  return method === 'calendar-diff/2' && ratings ? reviewInstants(ratings, days) : undefined;
}

/**
 * The nights [from, to) of a listing's classification of every night in `span` (the nights its
 * reader classifies: src/core/ports/history.ts, observedFor), with the bookings that touch them,
 * their counts, and the sample of the window (its calendar rows, and the price rows read).
 */
export function inferWindow(
  o: { days: readonly DayRow[]; prices: readonly PriceRow[]; span: { from: string; to: string } | null; ratings?: readonly ObservationRow<'rating'>[] },
  from: string,
  to: string,
  method: BookingMethod = BOOKING_METHOD,
  asOf?: number,
): BookingInference {
  const reviews = reviewsFor(method, o.ratings, o.days);
  const whole =
    o.span === null ? null : inferBookings({ days: o.days, prices: o.prices, from: o.span.from, to: dateOf(dayNumber(o.span.to) + 1), method, reviews, ...(asOf === undefined ? {} : { asOf }) });
  const byDate = new Map((whole?.nights ?? []).map((n) => [n.date, n]));
  const nights: InferredNight[] = [];
  const counts = Object.fromEntries(NIGHT_STATES.map((s) => [s, 0])) as Record<NightState, number>;
  let observedNights = 0;
  for (let d = dayNumber(from); d < dayNumber(to); d++) {
    const n = byDate.get(dateOf(d)) ?? { date: dateOf(d), state: 'unknown' as const, confidence: 0 };
    if (n.state !== 'unknown') observedNights++;
    counts[n.state]++;
    nights.push(n);
  }
  let observations = 0;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const r of o.days) {
    if (r.key < from || r.key >= to) continue;
    observations++;
    first = Math.min(first, r.firstSeen);
    last = Math.max(last, r.lastSeen);
  }
  return {
    method,
    nights,
    bookings: (whole?.bookings ?? []).filter((b) => b.checkOut > from && b.checkIn < to),
    priceRuns: (whole?.priceRuns ?? []).filter((r) => r.from + r.nights > dayNumber(from) && r.from < dayNumber(to)),
    counts,
    sample: {
      observations: observations + o.prices.length,
      nights: observedNights,
      firstObserved: observations === 0 ? null : iso(first),
      lastObserved: observations === 0 ? null : iso(last),
      reviews: reviews?.length ?? null,
    },
  };
}
