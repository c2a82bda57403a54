// The moving world (issue 26, item 2): the sandbox world as it stands at an instant, for the
// simulated upstream (live keys on STAYS_UPSTREAM=simulated). Sandbox keys keep the fixed world
// (D21): nothing here is read without an instant. Everything is a pure function of (platform, id,
// stay or date, instant), so the same instant gives the same answer on any machine and process,
// and the world changes only on the hour:
// - prices: the fixed quote (season and weekday of each night) times a price level that moves in
//   12-hour steps (a hash of listing and step decides whether it moves) and a lead-time factor
//   (last-minute discount or premium, early-bird levels) by days between the instant and check-in;
// - calendars: each run of nights the fixed world shows booked (BookingCalendar.stayOf) is one
//   guest booking or one host block, made at an hour 1 to 120 days before its first night (guests
//   obey the stay rules and book at most 90 days ahead; runs they could not book are the host's,
//   and a tenth of the rest: holdOf); before
//   that instant its nights are free, after it booked. Past nights are as they were: every run's
//   instant lies before its nights, so at any later instant they show the fixed world's state;
// - listings: each listing is on the market in cycles of 400 to 1000 days, away for 3 to 10 % of
//   each; a search at an instant shows only the candidates listed then.
// worldTruth() reads all of it back for tests (docs/sandbox.md, "The moving world").
import type { EnabledPlatform } from '../../core/platforms.js';
import type { Price } from '../../core/schemas/resources.js';
import { assertListing, assertSearch } from '../../core/sandbox-triggers.js';
import { listingUrl } from '../../core/listing-ref.js';
import { BookingCalendar, dateOf, dayNumber, minNightsOn, weekday } from './calendar.js';
import { type Core, coreFor } from './core.js';
import { quote } from './money.js';
import { hash32, rng } from './prng.js';
import { CandidateRows } from './rows.js';
import type { StayQuery } from './types.js';
import { DAY_MS } from '../../core/clock.js';

export const HOUR_MS = 3_600_000;

/** The price level holds for a step, then moves with this chance; it moves at least every ANCHOR steps. */
const LEVEL_STEP_MS = 12 * HOUR_MS;
const LEVEL_MOVE = 0.1;
const LEVEL_ANCHOR = 64;

/** The step the listing's price level last moved at (at most LEVEL_ANCHOR steps back). */
function levelStep(platform: EnabledPlatform, id: string, step: number): number {
  const floor = Math.floor(step / LEVEL_ANCHOR) * LEVEL_ANCHOR;
  let s = step;
  while (s > floor && hash32('level-move', platform, id, s) / 4294967296 >= LEVEL_MOVE) s--;
  return s;
}

/** The listing's price level at an instant: 0.9 to 1.1 of its base, constant within a step. */
function priceLevel(platform: EnabledPlatform, id: string, instantMs: number): number {
  return rng('level', platform, id, levelStep(platform, id, Math.floor(instantMs / LEVEL_STEP_MS))).range(0.9, 1.1);
}

/**
 * The lead-time factor: half the listings discount the last days before check-in (the other half
 * charge a premium for them), and stays far ahead get early-bird levels.
 */
function leadFactor(platform: EnabledPlatform, id: string, leadDays: number): number {
  const discounts = hash32('last-minute', platform, id) % 2 === 0;
  if (leadDays <= 3) return discounts ? 0.85 : 1.12;
  if (leadDays <= 13) return discounts ? 0.93 : 1.05;
  if (leadDays < 60) return 1;
  if (leadDays < 180) return 0.97;
  return 0.94;
}

/** Whole days from the instant's UTC day to check-in. */
function leadDays(checkIn: string, instantMs: number): number {
  return dayNumber(checkIn) - Math.floor(instantMs / DAY_MS);
}

/** The factor on a stay's nightly rate at an instant. */
function priceFactor(platform: EnabledPlatform, id: string, checkIn: string, instantMs: number): number {
  return priceLevel(platform, id, instantMs) * leadFactor(platform, id, leadDays(checkIn, instantMs));
}

/**
 * The quote the simulated upstream gives at that instant for a listing and stay (rooms: a
 * booking search row's). Throws the sandbox's trigger errors for magic ids, as price() does.
 */
function priceAt(platform: EnabledPlatform, id: string, stay: StayQuery, instantMs: number, rooms = 1): Price {
  assertListing(id, 'price');
  return movingQuote(platform, id, coreFor(platform, id).basis, stay, instantMs, rooms);
}

export function movingQuote(platform: EnabledPlatform, id: string, basis: ReturnType<typeof coreFor>['basis'], stay: StayQuery, instantMs: number, rooms = 1): Price {
  return quote({ platform, id, url: listingUrl(platform, id), basis, stay, rooms, factor: priceFactor(platform, id, stay.checkIn, instantMs) });
}

/** One run of booked nights: a guest's booking or a host's block, made at `atMs`. */
export interface Hold {
  kind: 'booking' | 'block';
  /** Day numbers of the first night and the day after the last. */
  start: number;
  end: number;
  /** When it was booked or blocked (on the hour, 1 to 120 days before its first night). */
  atMs: number;
}

/**
 * Guests' booking windows in days, weighted: many book within weeks, some months ahead, none more
 * than 90 days ahead (the moving world's simplification: docs/analytics.md).
 */
const BOOKING_WINDOW: readonly (readonly [readonly [number, number], number])[] = [
  [[1, 7], 22],
  [[8, 30], 33],
  [[31, 60], 25],
  [[61, 90], 20],
];
/** A run a guest could have booked is the host's own hold with this chance. */
const HOST_BLOCK_CHANCE = 0.1;
/** Of those, this share is last-minute (1 to 14 days ahead: a repair, a friend); the rest planned 91 to 120 days ahead. */
const HOST_BLOCK_LAST_MINUTE = 0.25;

/**
 * Whether a guest could book the run: airbnb and vrbo state a minimum stay and may close a
 * weekday for check-in (world.ts, availability), and a guest's stay obeys both; the other
 * platforms state no rules.
 */
function guestBookable(platform: EnabledPlatform, id: string, run: { start: number; end: number }, chunkOf: (day: number) => number, core: () => Core): boolean {
  if (platform !== 'airbnb' && platform !== 'vrbo') return true;
  const { noCheckInDay, minNights } = core();
  if (weekday(run.start) === noCheckInDay) return false;
  return run.end - run.start >= minNightsOn(platform, id, minNights, chunkOf(run.start));
}

/**
 * Whose hold a run is, and when it was made. A run no guest could book (shorter than its minimum
 * stay, or starting on a closed check-in day) is the host's, made 1 to 120 days ahead; any other
 * is a guest's booking made within the booking window, or (HOST_BLOCK_CHANCE) the host's hold,
 * made far ahead or at the last minute.
 */
function holdOf(platform: EnabledPlatform, id: string, run: { chunk: number; start: number; end: number }, chunkOf: (day: number) => number, core: () => Core): Hold {
  const r = rng('hold', platform, id, run.chunk);
  let kind: Hold['kind'] = 'booking';
  let days: number;
  if (!guestBookable(platform, id, run, chunkOf, core)) {
    kind = 'block';
    days = r.int(1, 120);
  } else if (r.chance(HOST_BLOCK_CHANCE)) {
    kind = 'block';
    days = r.chance(HOST_BLOCK_LAST_MINUTE) ? r.int(1, 14) : r.int(91, 120);
  } else {
    const [lo, hi] = r.weighted(BOOKING_WINDOW);
    days = r.int(lo, hi);
  }
  return { kind, start: run.start, end: run.end, atMs: run.start * DAY_MS - days * DAY_MS + r.int(0, 23) * HOUR_MS };
}

/** A listing's calendar at an instant: the nights of a hold are booked from its instant on. */
export class CalendarAt {
  private readonly cal: BookingCalendar;
  /** Holds made so far, by the chunk that owns them: a calendar reads each night several times. */
  private readonly holds = new Map<number, Hold>();
  /** The listing's facts (its stay rules), read once when a hold first needs them. */
  private core: Core | undefined;

  constructor(
    private readonly platform: EnabledPlatform,
    private readonly id: string,
    private readonly instantMs: number,
  ) {
    this.cal = new BookingCalendar(platform, id);
  }

  /** The hold night `day` belongs to, made or not yet. */
  holdOn(day: number): Hold | null {
    const run = this.cal.stayOf(day);
    if (!run) return null;
    let h = this.holds.get(run.chunk);
    if (!h)
      this.holds.set(
        run.chunk,
        (h = holdOf(
          this.platform,
          this.id,
          run,
          (d) => this.cal.chunkOf(d),
          () => (this.core ??= coreFor(this.platform, this.id)),
        )),
      );
    return h;
  }

  isBooked(day: number): boolean {
    const h = this.holdOn(day);
    return h !== null && h.atMs <= this.instantMs;
  }

  freeRun(day: number, limit: number): number {
    let n = 0;
    while (n < limit && !this.isBooked(day + n)) n++;
    return n;
  }

  chunkOf(day: number): number {
    return this.cal.chunkOf(day);
  }
}

/** A listing's times on the market: cycles of 400–1000 days, listed for the first 90–97 % of each. */
function cycleOf(platform: EnabledPlatform, id: string): { periodH: number; phaseH: number; listedH: number } {
  const r = rng('life', platform, id);
  const periodH = r.int(400 * 24, 1000 * 24);
  return { periodH, phaseH: r.int(0, periodH - 1), listedH: periodH - Math.round(periodH * r.range(0.03, 0.1)) };
}

/** A listed interval [listedAt, delistedAt) in epoch ms. */
export interface Listed {
  listedAt: number;
  delistedAt: number;
}

/** The listed interval of cycle k. */
function intervalOf(c: ReturnType<typeof cycleOf>, k: number): Listed {
  const start = k * c.periodH - c.phaseH;
  return { listedAt: start * HOUR_MS, delistedAt: (start + c.listedH) * HOUR_MS };
}

function cycleAt(c: ReturnType<typeof cycleOf>, instantMs: number): number {
  return Math.floor((Math.floor(instantMs / HOUR_MS) + c.phaseH) / c.periodH);
}

export function isListed(platform: EnabledPlatform, id: string, instantMs: number): boolean {
  const c = cycleOf(platform, id);
  const i = intervalOf(c, cycleAt(c, instantMs));
  return instantMs >= i.listedAt && instantMs < i.delistedAt;
}

/** The listed intervals of a listing that overlap [fromMs, toMs). */
function listedIntervals(platform: EnabledPlatform, id: string, fromMs: number, toMs: number): Listed[] {
  const c = cycleOf(platform, id);
  const out: Listed[] = [];
  for (let k = cycleAt(c, fromMs); k <= cycleAt(c, toMs); k++) {
    const i = intervalOf(c, k);
    if (i.listedAt < toMs && i.delistedAt > fromMs) out.push(i);
  }
  return out;
}

/** A hold as tests read it: dates, and the nightly price a booking was made at (USD, two adults). */
export interface TruthHold {
  kind: 'booking' | 'block';
  checkIn: string;
  checkOut: string;
  nights: number;
  /** When it was booked (kind booking) or blocked (kind block). */
  at: string;
  atMs: number;
  /** The quote's nightly price at `at` for exactly these nights, two adults, USD; null for a block. */
  nightlyPrice: number | null;
}

/** One search candidate's times on the market over a window. */
export interface TruthListing {
  id: string;
  intervals: { listedAt: string; delistedAt: string }[];
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The moving world's ground truth, for tests: what the simulated upstream answers at an instant
 * and why. Every value here equals what that upstream returns (before and after its normalizer
 * round trip, which is lossless).
 */
export const worldTruth = {
  /** The quote at that instant (price(), listing() with a stay, and a search row's price, rooms 1). */
  priceAt,
  /**
   * The quotes observed at these instants (ascending), one entry per run of equal consecutive
   * quotes: what a price history holds when the stay was asked at exactly those instants.
   */
  priceRuns(
    platform: EnabledPlatform,
    id: string,
    stay: StayQuery,
    instantsMs: readonly number[],
  ): { firstSeen: string; lastSeen: string; timesSeen: number; nightlyPrice: number; totalPrice: number }[] {
    const out: { firstSeen: string; lastSeen: string; timesSeen: number; nightlyPrice: number; totalPrice: number }[] = [];
    for (const t of instantsMs) {
      const q = priceAt(platform, id, stay, t);
      const last = out.at(-1);
      if (last && last.nightlyPrice === q.nightlyPrice && last.totalPrice === q.totalPrice) {
        last.lastSeen = iso(t);
        last.timesSeen++;
      } else out.push({ firstSeen: iso(t), lastSeen: iso(t), timesSeen: 1, nightlyPrice: q.nightlyPrice, totalPrice: q.totalPrice });
    }
    return out;
  },
  /** Whether the night `date` shows booked at that instant. */
  isBooked(platform: EnabledPlatform, id: string, date: string, instantMs: number): boolean {
    return new CalendarAt(platform, id, instantMs).isBooked(dayNumber(date));
  },
  /** The bookings and blocks with a night in [startDate, endDate), made or not yet, in date order. */
  holds(platform: EnabledPlatform, id: string, startDate: string, endDate: string): TruthHold[] {
    const cal = new CalendarAt(platform, id, 0);
    const out: TruthHold[] = [];
    for (let d = dayNumber(startDate), end = dayNumber(endDate); d < end; d++) {
      const h = cal.holdOn(d);
      if (!h || out.at(-1)?.checkIn === dateOf(h.start)) continue;
      const stay: StayQuery = { checkIn: dateOf(h.start), checkOut: dateOf(h.end), adults: 2, children: 0, childAges: [], currency: 'USD' };
      out.push({
        kind: h.kind,
        checkIn: stay.checkIn,
        checkOut: stay.checkOut,
        nights: h.end - h.start,
        at: iso(h.atMs),
        atMs: h.atMs,
        nightlyPrice: h.kind === 'booking' ? priceAt(platform, id, stay, h.atMs).nightlyPrice : null,
      });
    }
    return out;
  },
  /**
   * A location's search candidates (all of them, listed or not at any instant) with their listed
   * intervals overlapping [fromMs, toMs). A search at t shows those listed at t, in this order.
   */
  listings(platform: EnabledPlatform, location: string, fromMs: number, toMs: number): TruthListing[] {
    if (assertSearch(platform, location)) return [];
    const rows = new CandidateRows(platform, location);
    const out: TruthListing[] = [];
    for (let row = rows.next(); row !== undefined; row = rows.next()) {
      out.push({ id: row.id, intervals: listedIntervals(platform, row.id, fromMs, toMs).map((i) => ({ listedAt: iso(i.listedAt), delistedAt: iso(i.delistedAt) })) });
    }
    return out;
  },
};
