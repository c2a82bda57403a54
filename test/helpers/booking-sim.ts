// The booking-inference simulation (issue 27, item 1): listings of the moving world
// (src/sources/sandbox/moving.ts) observed at a fixed interval for a number of days, each
// observation the calendar the simulated upstream answers at that instant, recorded as the store
// records it (observeCalendar, then a row per run of equal values); at the end inferBookings
// reads each listing's rows and its nights are scored against worldTruth. Used by
// test/core/bookings-accuracy.unit.test.ts and bench/analytics.mjs (docs/analytics.md).
import { type BookingMethod, type NightState, inferBookings } from '../../src/core/analytics/bookings.js';
import { manualClock } from '../../src/core/clock.js';
import { observeCalendar } from '../../src/core/observe.js';
import type { EnabledPlatform } from '../../src/core/platforms.js';
import type { ObservationRow } from '../../src/core/ports/store/observations.js';
import type { Availability } from '../../src/core/schemas/resources.js';
import { worldTruth } from '../../src/sources/sandbox/moving.js';
import { createSandboxWorld } from '../../src/sources/sandbox/world.js';

const DAY_MS = 86_400_000;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export type TruthState = 'available' | 'booked' | 'blocked' | 'unbookable';
const TRUTH_STATES: readonly TruthState[] = ['available', 'booked', 'blocked', 'unbookable'];
const INFERRED_STATES: readonly NightState[] = ['available', 'booked', 'blocked', 'unbookable', 'unknown'];

export interface SimOptions {
  /** How many listings (alternately airbnb and vrbo ids). */
  listings: number;
  /** Days observed, from `start`. */
  days: number;
  /** Hours between observations. */
  everyHours: number;
  /** How many days ahead each observation's calendar reaches (from the instant's day). */
  horizonDays: number;
  /** The first observation (epoch ms, midnight UTC). */
  start: number;
  /** The inference method (default: the default method). */
  method?: BookingMethod;
}

export interface SimResult {
  /** matrix[truth][inferred]: nights. */
  matrix: Record<TruthState, Record<NightState, number>>;
  nights: number;
  correct: number;
  /** Nights taken in truth (booked or blocked), and those the method named right. */
  taken: number;
  takenCorrect: number;
  /** The same split by window: the nights that passed during the observation, and the nights ahead of its end. */
  past: { nights: number; correct: number };
  ahead: { nights: number; correct: number };
  observations: number;
  rows: number;
}

/** The listings: 8-digit ids, airbnb and vrbo alternately (both state minimum stays and check-in days). */
function simListings(n: number): { platform: EnabledPlatform; id: string }[] {
  return Array.from({ length: n }, (_v, i) => ({ platform: i % 2 === 0 ? 'airbnb' : 'vrbo', id: String(60_000_000 + i * 7_919) }));
}

/** Records snapshots as the store does (src/store/sql/observations.ts): a value equal to its series' latest extends that row. */
class Recorder {
  readonly rows: ObservationRow[] = [];
  private readonly latest = new Map<string, { row: ObservationRow; json: string }>();
  private id = 0;

  record(a: Availability, at: number): void {
    for (const o of observeCalendar(a)) {
      const v = o.value as { available: boolean; minNights: number | null; checkIn: boolean | null; checkOut: boolean | null; bookable: boolean | null };
      // The day value's fields, in order: equal exactly when their JSON is.
      const json = `${v.available}|${v.minNights}|${v.checkIn}|${v.checkOut}|${v.bookable}`;
      const prev = this.latest.get(o.key);
      if (prev && prev.json === json) {
        prev.row.lastSeen = at;
        prev.row.timesSeen++;
        continue;
      }
      const row: ObservationRow = { ...o, id: ++this.id, source: 'simulated', firstSeen: at, lastSeen: at, timesSeen: 1 };
      this.rows.push(row);
      this.latest.set(o.key, { row, json });
    }
  }
}

/**
 * The truth of each night of [from, to) at instant `end`: taken by a hold made by then (booked or
 * blocked by its kind), else unbookable when no check-in day the world states at `end` starts a
 * stay through it (a check-in day always starts a free run of its minimum stay), else available.
 */
function truthOf(platform: EnabledPlatform, id: string, from: number, to: number, end: number): Map<string, TruthState> {
  const world = createSandboxWorld({ clock: manualClock(end) });
  const cal = world.availability(platform, id, dateOf(from * DAY_MS - 31 * DAY_MS), dateOf(to * DAY_MS)).dates;
  const kinds = new Map<string, 'booking' | 'block'>();
  for (const h of worldTruth.holds(platform, id, dateOf(from * DAY_MS), dateOf(to * DAY_MS))) {
    for (let d = Date.parse(`${h.checkIn}T00:00:00Z`); d < Date.parse(`${h.checkOut}T00:00:00Z`); d += DAY_MS) kinds.set(dateOf(d), h.kind);
  }
  const out = new Map<string, TruthState>();
  cal.forEach((day, i) => {
    if (day.date < dateOf(from * DAY_MS)) return;
    if (!day.available) {
      out.set(day.date, kinds.get(day.date) === 'block' ? 'blocked' : 'booked');
      return;
    }
    let open = false;
    for (let s = i; s >= 0 && cal[s]!.available; s--) if (cal[s]!.checkIn) open = true;
    out.set(day.date, open ? 'available' : 'unbookable');
  });
  return out;
}

/** Runs the simulation; the scored nights are [start day, start day + days + horizon - days): the nights that passed and those ahead. */
export function simulateBookings(o: SimOptions): SimResult {
  const startDay = Math.floor(o.start / DAY_MS);
  const end = o.start + o.days * DAY_MS;
  const endDay = startDay + o.days;
  // The nights scored: those that passed while observed, and as many ahead of the end.
  const scoreTo = endDay + o.days;
  const matrix = Object.fromEntries(TRUTH_STATES.map((t) => [t, Object.fromEntries(INFERRED_STATES.map((s) => [s, 0]))])) as SimResult['matrix'];
  const r: SimResult = { matrix, nights: 0, correct: 0, taken: 0, takenCorrect: 0, past: { nights: 0, correct: 0 }, ahead: { nights: 0, correct: 0 }, observations: 0, rows: 0 };
  const clock = manualClock(o.start);
  const world = createSandboxWorld({ clock });
  for (const { platform, id } of simListings(o.listings)) {
    const rec = new Recorder();
    for (let t = o.start; t < end; t += o.everyHours * 3_600_000) {
      clock.set(t);
      const today = Math.floor(t / DAY_MS);
      // Past nights are not shown; nothing beyond a month after the scored nights is read.
      const to = Math.min(today + o.horizonDays, scoreTo + 31);
      if (to <= today) continue;
      rec.record(world.availability(platform, id, dateOf(today * DAY_MS), dateOf(to * DAY_MS)), t);
      r.observations++;
    }
    r.rows += rec.rows.length;
    const inferred = inferBookings({ days: rec.rows.filter((r) => r.kind === 'day'), from: dateOf(startDay * DAY_MS), to: dateOf(scoreTo * DAY_MS), method: o.method, asOf: end - 1 });
    // The truth at the end; a past night's is its final state (every hold is made before its nights).
    const truth = truthOf(platform, id, startDay, scoreTo, end - 1);
    for (const n of inferred.nights) {
      const t = truth.get(n.date)!;
      const ok = t === n.state;
      matrix[t][n.state]++;
      r.nights++;
      if (ok) r.correct++;
      if (t === 'booked' || t === 'blocked') {
        r.taken++;
        if (ok) r.takenCorrect++;
      }
      const w = n.date < dateOf(endDay * DAY_MS) ? r.past : r.ahead;
      w.nights++;
      if (ok) w.correct++;
    }
  }
  return r;
}
