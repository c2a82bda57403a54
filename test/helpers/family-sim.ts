// The booking-inference backtest on the calendar families (issue 37, items 1 and 4): listings of
// src/sources/sandbox/calendar-families.ts observed at a fixed interval (at an hour of the day
// each listing's poller keeps), each observation recorded as the store records it (a row per run
// of equal values), then inferBookings reads each listing's rows and its nights and bookings are
// scored against the families' truth. Used by test/core/bookings-families.unit.test.ts and
// bench/analytics.mjs (docs/analytics.md, "The held-out protocol").
import { type BookingMethod, type NightState, inferBookings } from '../../src/core/analytics/bookings.js';
import type { ObservationRow } from '../../src/core/ports/store/observations.js';
import { FAMILIES, type Family, type FamilyListing, bookingsAt, calendarAt, familyListing, reviewsAt, truthAt } from '../../src/sources/sandbox/calendar-families.js';
import { rng } from '../../src/sources/sandbox/prng.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/**
 * The held-out protocol (docs/analytics.md): seeds are split by parity, even seeds for
 * development, odd seeds for the published figures; the families HELD_OUT_FAMILIES are never in
 * a development world.
 */
export const HELD_OUT_FAMILIES: readonly Family[] = ['cancel', 'snooze'];
/** The seeds the method was tuned and calibrated on, and the seeds its figures are published on. */
export const DEVELOPMENT_SEEDS: readonly number[] = [2, 4, 6, 8];
export const HELD_OUT_SEEDS: readonly number[] = [1, 3, 5, 7];
/** Development seeds the confidences were never fitted on (bench/calibrate-v2.mjs fits on 2 to 64): their last check. */
export const CALIBRATION_CHECK_SEEDS: readonly number[] = [66, 68, 70, 72, 74, 76, 78, 80];
/**
 * Every world the bench reports: none, each family alone, and all of them mixed.
 * @public bench/analytics.mjs reads it (through tsx, which knip does not follow).
 */
export const WORLDS: readonly WorldName[] = ['plain', ...FAMILIES, 'all'];

/** A world: one family for every listing, none ('plain'), or every family each listing draws with even odds ('all'). */
export type WorldName = Family | 'plain' | 'all';

function familiesOf(world: WorldName, seed: number, index: number, development: boolean): Family[] {
  if (world === 'plain') return [];
  if (world !== 'all') {
    if (development && HELD_OUT_FAMILIES.includes(world)) throw new Error(`${world} is held out of development`);
    return [world];
  }
  const r = rng('family-mix', seed, index);
  return FAMILIES.filter((f) => r.chance(0.5) && !(development && HELD_OUT_FAMILIES.includes(f)));
}

export interface FamilySimOptions {
  world: WorldName;
  seed: number;
  listings: number;
  days: number;
  everyHours: number;
  horizonDays: number;
  start: number;
  method?: BookingMethod;
  /** A development run: the held-out families are left out of 'all' (and refused on their own). */
  development?: boolean;
  /** Each listing's reviews (calendar-families.ts, reviewsAt) read with its calendar: the review dates a deployment fetches. */
  reviews?: boolean;
  /** These families on every listing instead of the world's (a combination of them). */
  families?: readonly Family[];
  /** Called with each night scored: its listing's families, its confidence's basis (calendar-diff/2) and whether it is right (bench/calibrate-v2.mjs). */
  onNight?: (night: { families: readonly Family[]; basis: string | undefined; right: boolean; listing: FamilyListing; day: number; truth: Truth; state: NightState }) => void;
}

type Truth = 'available' | 'booked' | 'blocked' | 'unbookable';

export interface FamilySimResult {
  matrix: Record<Truth, Record<NightState, number>>;
  nights: number;
  correct: number;
  /** Nights booked in truth, inferred booked, and both. */
  bookedTruth: number;
  bookedInferred: number;
  bookedBoth: number;
  /** Booked over booked + available + unbookable, in truth and as inferred (unknown and blocked left out of both). */
  rateTruth: { booked: number; forRent: number };
  rateInferred: { booked: number; forRent: number };
  /** Guest bookings in truth with a night in the window, those inferred with the same check-in and check-out, and the lead-time errors of those (a bracket seen). */
  bookingsTruth: number;
  bookingsMatched: number;
  leadErrors: number[];
  /** Per confidence decile (0: [0, 0.1) … 9: [0.9, 1]): nights, nights right, and their confidences summed. */
  deciles: { count: number; right: number; confidence: number }[];
  /** The booked rate's interval sums (src/core/analytics/market.ts): booked nights' confidences, for-rent and blocked nights' 1 - confidence. */
  band: { bookedSure: number; forRentDoubt: number; blockedDoubt: number };
  /** calendar-diff/2: per basis of a confidence (bookings-v2.ts, basisV2), nights, nights right (the calibration's counts) and the truth of the others. */
  basis: Record<string, { count: number; right: number; wrong?: Partial<Record<Truth, number>> }>;
}

/** @public bench/analytics.mjs reads it. */
export function emptyResult(): FamilySimResult {
  const states: Truth[] = ['available', 'booked', 'blocked', 'unbookable'];
  const inferred: NightState[] = ['available', 'booked', 'blocked', 'unbookable', 'unknown'];
  return {
    matrix: Object.fromEntries(states.map((t) => [t, Object.fromEntries(inferred.map((s) => [s, 0]))])) as FamilySimResult['matrix'],
    nights: 0,
    correct: 0,
    bookedTruth: 0,
    bookedInferred: 0,
    bookedBoth: 0,
    rateTruth: { booked: 0, forRent: 0 },
    rateInferred: { booked: 0, forRent: 0 },
    bookingsTruth: 0,
    bookingsMatched: 0,
    leadErrors: [],
    deciles: Array.from({ length: 10 }, () => ({ count: 0, right: 0, confidence: 0 })),
    band: { bookedSure: 0, forRentDoubt: 0, blockedDoubt: 0 },
    basis: {},
  };
}

/**
 * Adds b's counts into a.
 * @public bench/analytics.mjs reads it.
 */
export function addResult(a: FamilySimResult, b: FamilySimResult): void {
  for (const t of Object.keys(a.matrix) as Truth[]) for (const s of Object.keys(a.matrix[t]) as NightState[]) a.matrix[t][s] += b.matrix[t][s];
  for (const k of ['nights', 'correct', 'bookedTruth', 'bookedInferred', 'bookedBoth', 'bookingsTruth', 'bookingsMatched'] as const) a[k] += b[k];
  a.rateTruth.booked += b.rateTruth.booked;
  a.rateTruth.forRent += b.rateTruth.forRent;
  a.rateInferred.booked += b.rateInferred.booked;
  a.rateInferred.forRent += b.rateInferred.forRent;
  a.leadErrors.push(...b.leadErrors);
  a.band.bookedSure += b.band.bookedSure;
  a.band.forRentDoubt += b.band.forRentDoubt;
  a.band.blockedDoubt += b.band.blockedDoubt;
  for (const [k, v] of Object.entries(b.basis)) {
    const into = (a.basis[k] ??= { count: 0, right: 0 });
    into.count += v.count;
    into.right += v.right;
    for (const [t, n] of Object.entries(v.wrong ?? {}) as [Truth, number][]) {
      into.wrong ??= {};
      into.wrong[t] = (into.wrong[t] ?? 0) + n;
    }
  }
  b.deciles.forEach((d, i) => {
    a.deciles[i]!.count += d.count;
    a.deciles[i]!.right += d.right;
    a.deciles[i]!.confidence += d.confidence;
  });
}

/** Records calendars as the store does: a value equal to its night's latest row extends that row. */
function record(l: FamilyListing, o: FamilySimOptions, scoreTo: number): ObservationRow<'day'>[] {
  const rows: ObservationRow<'day'>[] = [];
  const latest = new Map<number, { row: ObservationRow<'day'>; json: string }>();
  // Each listing's poller runs at its own hour of the day.
  const offset = rng('poll-hour', o.seed, l.index).int(0, 23) * HOUR_MS;
  let id = 0;
  for (let t = o.start + offset; t < o.start + o.days * DAY_MS; t += o.everyHours * HOUR_MS) {
    const today = Math.floor(t / DAY_MS);
    const horizon = Math.min(o.horizonDays, scoreTo + 31 - today);
    for (const d of calendarAt(l, t, horizon)) {
      const json = `${d.available}|${d.minNights}|${d.checkIn}|${d.checkOut}|${d.bookable}`;
      const prev = latest.get(d.day);
      if (prev && prev.json === json) {
        prev.row.lastSeen = t;
        prev.row.timesSeen++;
        continue;
      }
      const row: ObservationRow<'day'> = {
        id: ++id,
        platform: 'airbnb',
        listingId: String(l.index),
        kind: 'day',
        key: dateOf(d.day),
        currency: null,
        value: { available: d.available, minNights: d.minNights, checkIn: d.checkIn, checkOut: d.checkOut, bookable: d.bookable },
        source: 'simulated',
        firstSeen: t,
        lastSeen: t,
        timesSeen: 1,
      };
      rows.push(row);
      latest.set(d.day, { row, json });
    }
  }
  return rows;
}

/** Runs one world and seed; the nights scored are the `days` that passed while observed and as many ahead. */
export function simulateFamilies(o: FamilySimOptions): FamilySimResult {
  const r = emptyResult();
  const startDay = Math.floor(o.start / DAY_MS);
  const endDay = startDay + o.days;
  const scoreTo = endDay + o.days;
  const end = o.start + o.days * DAY_MS - 1;
  for (let i = 0; i < o.listings; i++) {
    const families = o.families ? [...o.families] : familiesOf(o.world, o.seed, i, o.development === true);
    if (o.development && families.some((f) => HELD_OUT_FAMILIES.includes(f))) throw new Error(`${families.join(', ')}: held out of development`);
    const l = familyListing(o.seed, i, families, { from: startDay - 60, to: scoreTo + 60 });
    const days = record(l, o, scoreTo);
    const reviews = o.reviews ? reviewsAt(l, end).map((t) => new Date(t).toISOString()) : undefined;
    const inferred = inferBookings({ days, from: dateOf(startDay), to: dateOf(scoreTo), method: o.method, reviews, asOf: end });
    const truth = truthAt(l, end, startDay, scoreTo);
    for (const [i, n] of inferred.nights.entries()) {
      const day = Math.round(Date.parse(`${n.date}T00:00:00Z`) / DAY_MS);
      const t = truth.get(day)!;
      const ok = t === n.state;
      const basis = inferred.basis?.[i];
      o.onNight?.({ families, basis, right: ok, listing: l, day, truth: t, state: n.state });
      if (basis) {
        const b = (r.basis[basis] ??= { count: 0, right: 0 });
        b.count++;
        if (ok) b.right++;
        else {
          b.wrong ??= {};
          b.wrong[t] = (b.wrong[t] ?? 0) + 1;
        }
      }
      r.matrix[t][n.state]++;
      r.nights++;
      if (ok) r.correct++;
      if (t === 'booked') r.bookedTruth++;
      if (n.state === 'booked') r.bookedInferred++;
      if (ok && t === 'booked') r.bookedBoth++;
      if (t !== 'blocked') {
        r.rateTruth.forRent++;
        if (t === 'booked') r.rateTruth.booked++;
      }
      if (n.state !== 'blocked' && n.state !== 'unknown') {
        r.rateInferred.forRent++;
        if (n.state === 'booked') r.rateInferred.booked++;
      }
      if (n.state === 'booked') r.band.bookedSure += n.confidence;
      else if (n.state === 'blocked') r.band.blockedDoubt += 1 - n.confidence;
      else if (n.state !== 'unknown') r.band.forRentDoubt += 1 - n.confidence;
      const decile = r.deciles[Math.min(9, Math.floor(n.confidence * 10))]!;
      decile.count++;
      decile.confidence += n.confidence;
      if (ok) decile.right++;
    }
    const found = new Map(inferred.bookings.map((b) => [`${b.checkIn}/${b.checkOut}`, b]));
    for (const b of bookingsAt(l, end, startDay, scoreTo)) {
      r.bookingsTruth++;
      const m = found.get(`${dateOf(b.start)}/${dateOf(b.end)}`);
      if (!m) continue;
      r.bookingsMatched++;
      if (m.bookedAfter !== null) r.leadErrors.push(Math.abs(m.leadTimeDays - Math.floor((b.start * DAY_MS - b.madeAt) / DAY_MS)));
    }
  }
  return r;
}
