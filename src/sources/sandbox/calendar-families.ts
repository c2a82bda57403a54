// Calendar families (issue 37, item 1): a world of listing calendars written from how platforms
// and hosts behave, not from what a booking-inference method reads, to measure the methods on
// calendars they were not tuned to (docs/analytics.md, "Worlds the method was not written for").
// Each family is a behaviour switched on per listing with parameters drawn per listing; a listing
// is a pure function of (seed, index, families), so every run and machine sees the same world.
//
// A listing is a plan of items on the night axis, each made at an instant and, for a cancelled
// booking, freed at another: guest bookings (obeying the stay rules and the booking window at the
// instant they are made), the host's holds (owner stays, maintenance, direct bookings entered as
// blocks, a snooze) and the preparation nights around each booking. The calendar at an instant
// (calendarAt) is what a platform's calendar endpoint shows then, from today on: a night is
// unavailable while an item covers it, within the advance notice (a hold that moves with today),
// or past the rolling booking window. truthAt says what each night is at an instant: booked
// (a guest's live booking), blocked (the host's hold or preparation), available or unbookable.
// The bench and the tests read it directly; the simulated upstream answers with it on
// STAYS_SIM_CALENDARS=families (families-upstream.ts).
import { type Rng, rng } from './prng.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const SATURDAY = 6;

export const FAMILIES = ['notice', 'prep', 'owner', 'maintenance', 'direct', 'window', 'longLead', 'cancel', 'weekly', 'snooze', 'minStay'] as const;
export type Family = (typeof FAMILIES)[number];

/** 0 Sunday … 6 Saturday, of a day number. */
export const weekdayOf = (day: number) => (((day + 4) % 7) + 7) % 7;

export type ItemKind = 'booking' | 'owner' | 'maintenance' | 'direct' | 'snooze';

/** One run of nights taken: [start, end) day numbers, made at `madeAt`, freed at `cancelledAt` (null: never). */
export interface Item {
  kind: ItemKind;
  start: number;
  end: number;
  madeAt: number;
  cancelledAt: number | null;
}

export interface ListingParams {
  families: readonly Family[];
  /** Minimum stay of a night before any change (minStay: by season and weekday, and changed once). */
  baseMin: number;
  /** Weekdays guests may not check in on. */
  closedCheckIn: readonly number[];
  /** Weekly rentals: check-in and check-out on Saturday only, stays of whole weeks. */
  weeklyRental: boolean;
  /** Advance notice: a night closes `noticeDays` days before it at `cutoffHour` (0 days: on its own day at that hour). */
  noticeDays: number;
  cutoffHour: number;
  /** Preparation nights blocked before and after each guest booking. */
  prepNights: number;
  /** Rolling booking window: nights further than this many days ahead are closed (null: none within what is read). */
  windowDays: number | null;
  /** minStay: from this instant on the host asks `minChangeTo` instead of baseMin. */
  minChangeAt: number | null;
  minChangeTo: number;
  /** Share of nights guests book. */
  demand: number;
}

export interface FamilyListing {
  seed: number;
  index: number;
  params: ListingParams;
  items: Item[];
}

/** The truth of a night at an instant. */
export type TruthState = 'available' | 'booked' | 'blocked' | 'unbookable';

/** A night as the calendar shows it (the fields a platform's calendar states: src/core/observe.ts, observeCalendar). */
export interface DayShown {
  day: number;
  available: boolean;
  minNights: number;
  checkIn: boolean;
  checkOut: boolean;
  bookable: boolean;
}

const GUEST_LEAD: readonly (readonly [readonly [number, number], number])[] = [
  [[0, 7], 25],
  [[8, 30], 35],
  [[31, 60], 25],
  [[61, 90], 15],
];
/** longLead: summer houses, Easter, long stays: booked up to a year ahead. */
const LONG_LEAD: readonly (readonly [readonly [number, number], number])[] = [
  [[0, 7], 10],
  [[8, 30], 20],
  [[31, 90], 25],
  [[91, 180], 25],
  [[181, 365], 20],
];

/** The minimum stay of night `day` at instant `t`. */
export function minNightsAt(p: ListingParams, day: number, t: number): number {
  if (p.weeklyRental) return 7;
  const base = p.minChangeAt !== null && t >= p.minChangeAt ? p.minChangeTo : p.baseMin;
  if (!p.families.includes('minStay')) return base;
  // Summer (June to August) asks more; a Friday or Saturday check-in at least two nights.
  const month = new Date(day * DAY_MS).getUTCMonth();
  const season = month >= 5 && month <= 7 ? base + 2 : base;
  const w = weekdayOf(day);
  return w === 5 || w === SATURDAY ? Math.max(season, 2) : season;
}

function checkInDay(p: ListingParams, day: number): boolean {
  if (p.weeklyRental) return weekdayOf(day) === SATURDAY;
  return !p.closedCheckIn.includes(weekdayOf(day));
}

function checkOutDay(p: ListingParams, day: number): boolean {
  return !p.weeklyRental || weekdayOf(day) === SATURDAY;
}

/** The instant night `day` closes by the advance notice (guests cannot book it from then on). */
function noticeClose(p: ListingParams, day: number): number {
  return (day - p.noticeDays) * DAY_MS + p.cutoffHour * HOUR_MS;
}

function drawParams(r: Rng, families: readonly Family[], span: { from: number; to: number }): ListingParams {
  const has = (f: Family) => families.includes(f);
  const weeklyRental = has('weekly') && r.chance(0.5);
  const closedCheckIn = has('weekly') && !weeklyRental ? r.sample([0, 1, 2, 3, 4, 5, 6], r.int(1, 3)) : [];
  const noticeDays = has('notice') ? r.int(0, 3) : 0;
  const baseMin = r.weighted([
    [1, 3],
    [2, 4],
    [3, 3],
    [4, 1],
    [5, 1],
  ] as const);
  return {
    families,
    baseMin,
    closedCheckIn,
    weeklyRental,
    noticeDays,
    // Same-day bookings close at a cut-off hour; a notice of days closes at midnight or at a set hour.
    cutoffHour: has('notice') ? (noticeDays === 0 ? r.pick([12, 18, 21]) : r.pick([0, 0, 12, 18])) : 0,
    prepNights: has('prep')
      ? r.weighted([
          [1, 7],
          [2, 3],
        ] as const)
      : 0,
    windowDays: has('window') ? r.pick([60, 90, 90, 365]) : null,
    minChangeAt: has('minStay') ? (span.from + r.int(0, span.to - span.from)) * DAY_MS + r.int(0, 23) * HOUR_MS : null,
    minChangeTo: Math.max(1, baseMin + r.pick([-2, -1, 1, 2, 3])),
    demand: r.range(0.3, 0.8),
  };
}

/**
 * The listing `index` of world `seed` with these families: its parameters and its items over the
 * nights [from, to) (day numbers), the items made at most a year before their nights.
 */
export function familyListing(seed: number, index: number, families: readonly Family[], span: { from: number; to: number }): FamilyListing {
  const r = rng('calendar-families', seed, index, families.join(','));
  const p = drawParams(r, families, span);
  const has = (f: Family) => families.includes(f);
  const items: Item[] = [];
  // The host's plans first, placed where they fall: owner stays far ahead, a snooze.
  const host: Item[] = [];
  if (has('owner')) {
    for (let d = span.from + r.int(0, 90); d < span.to; d += r.int(60, 150)) {
      const nights = r.int(5, 30);
      host.push({ kind: 'owner', start: d, end: d + nights, madeAt: (d - r.int(45, 300)) * DAY_MS + r.int(8, 22) * HOUR_MS, cancelledAt: null });
    }
  }
  if (has('snooze')) {
    const d = span.from + r.int(0, span.to - span.from - 30);
    host.push({ kind: 'snooze', start: d, end: d + r.int(14, 60), madeAt: (d - r.int(0, 20)) * DAY_MS + r.int(6, 23) * HOUR_MS, cancelledAt: null });
  }
  host.sort((a, b) => a.start - b.start);
  const taken = (s: number, e: number) => host.some((h) => h.start < e && s < h.end);
  // Then the stays, night after night: guests' bookings and the host's short holds between them.
  const leads = has('longLead') ? LONG_LEAD : GUEST_LEAD;
  let d = span.from - 30;
  while (d < span.to) {
    const hostHere = host.find((h) => h.start <= d && d < h.end);
    if (hostHere) {
      d = hostHere.end + p.prepNights;
      continue;
    }
    // A gap of free nights, fewer the more demand.
    const meanGap = (4 * (1 - p.demand)) / p.demand;
    d += Math.floor(-Math.log(1 - r.next()) * meanGap);
    if (has('maintenance') && r.chance(0.06)) {
      const nights = r.int(1, 3);
      if (!taken(d, d + nights)) items.push({ kind: 'maintenance', start: d, end: d + nights, madeAt: (d - r.int(1, 21)) * DAY_MS + r.int(7, 20) * HOUR_MS, cancelledAt: null });
      d += nights + r.int(0, 3);
      continue;
    }
    const direct = has('direct') && r.chance(0.2);
    // A guest's stay starts on a day they may check in on.
    let guard = 0;
    while (!direct && !checkInDay(p, d) && guard++ < 7) d++;
    const [lo, hi] = r.weighted(leads);
    let lead = r.int(lo, hi);
    if (p.windowDays !== null && lead > p.windowDays) lead = p.windowDays - r.int(0, 5);
    let madeAt = (d - lead) * DAY_MS + r.int(0, 23) * HOUR_MS;
    // The notice: nobody books a night once it closed (a last-minute guest books just before).
    if (!direct && madeAt >= noticeClose(p, d)) madeAt = noticeClose(p, d) - r.int(1, 20) * HOUR_MS;
    const min = direct ? 1 : minNightsAt(p, d, madeAt);
    let nights: number;
    if (p.weeklyRental && !direct)
      nights =
        7 *
        r.weighted([
          [1, 6],
          [2, 3],
          [3, 1],
        ] as const);
    else
      nights =
        min +
        r.weighted([
          [0, 3],
          [1, 3],
          [2, 2],
          [3, 1],
          [5, 1],
          [10, 0.3],
        ] as const);
    if (direct) nights = r.int(2, 9);
    // A stay's last night: where a check-out is allowed.
    let end = d + nights;
    while (!direct && !checkOutDay(p, end) && end < d + nights + 7) end++;
    // Every night of a stay must be open when it is booked: within the window, its last night too.
    if (!direct && p.windowDays !== null && end - 1 - Math.floor(madeAt / DAY_MS) >= p.windowDays) madeAt = (end - p.windowDays) * DAY_MS + r.int(0, 23) * HOUR_MS;
    if (taken(d - p.prepNights, end + p.prepNights)) {
      d++;
      continue;
    }
    const item: Item = { kind: direct ? 'direct' : 'booking', start: d, end, madeAt, cancelledAt: null };
    items.push(item);
    // Cancelled: half of them in the last week before check-in (a booking made at the last hour is not).
    const latest = Math.min(d * DAY_MS, noticeClose(p, d)) - HOUR_MS;
    if (has('cancel') && !direct && r.chance(0.18) && latest > madeAt + 2 * HOUR_MS) {
      const lastWeek = r.chance(0.5);
      const from = lastWeek ? Math.max(madeAt + HOUR_MS, latest - 7 * DAY_MS) : madeAt + HOUR_MS;
      item.cancelledAt = from >= latest ? latest : from + Math.floor(r.next() * (latest - from));
      // Sometimes a guest takes the freed nights again (the stay rules hold for them too).
      if (r.chance(0.4) && item.cancelledAt < latest - DAY_MS) {
        const again = item.cancelledAt + r.int(1, Math.max(1, Math.floor((latest - item.cancelledAt) / HOUR_MS))) * HOUR_MS;
        if (again < noticeClose(p, d) && end - d >= minNightsAt(p, d, again)) items.push({ kind: 'booking', start: d, end, madeAt: again, cancelledAt: null });
      }
    }
    d = end + p.prepNights;
  }
  items.push(...host);
  items.sort((a, b) => a.start - b.start || a.madeAt - b.madeAt);
  return { seed, index, params: p, items };
}

const live = (it: Item, t: number) => it.madeAt <= t && (it.cancelledAt === null || t < it.cancelledAt);

/** Nights taken at `t`: kind by night (a booking's preparation nights are 'prep'). */
function takenAt(l: FamilyListing, t: number, from: number, to: number): Map<number, ItemKind | 'prep'> {
  const out = new Map<number, ItemKind | 'prep'>();
  for (const it of l.items) {
    if (!live(it, t) || it.end + l.params.prepNights <= from || it.start - l.params.prepNights >= to) continue;
    for (let d = it.start; d < it.end; d++) out.set(d, it.kind);
    if (it.kind !== 'booking') continue;
    for (let i = 1; i <= l.params.prepNights; i++) {
      if (!out.has(it.start - i)) out.set(it.start - i, 'prep');
      if (!out.has(it.end - 1 + i)) out.set(it.end - 1 + i, 'prep');
    }
  }
  return out;
}

/** The calendar a platform shows at instant `t` for the nights [today, today + horizon). */
export function calendarAt(l: FamilyListing, t: number, horizonDays: number): DayShown[] {
  const p = l.params;
  const today = Math.floor(t / DAY_MS);
  const taken = takenAt(l, t, today - 1, today + horizonDays + 1);
  const out: DayShown[] = [];
  for (let d = today; d < today + horizonDays; d++) {
    const shut = (p.families.includes('notice') && t >= noticeClose(p, d)) || (p.windowDays !== null && d >= today + p.windowDays);
    const available = !taken.has(d) && !shut;
    const checkIn = available && checkInDay(p, d);
    out.push({ day: d, available, minNights: minNightsAt(p, d, t), checkIn, checkOut: checkOutDay(p, d), bookable: checkIn });
  }
  return out;
}

/**
 * What each night of [from, to) is at instant `t`: booked when a guest's booking live then covers
 * it, blocked when the host's hold or a preparation night does, else free: available when a stay
 * the rules allow (at `t`) includes it among the free nights, ignoring the moving holds (the
 * advance notice closed a night that was for rent), unbookable otherwise, and unbookable too when
 * it lies past the booking window (no guest can book it yet).
 */
export function truthAt(l: FamilyListing, t: number, from: number, to: number): Map<number, TruthState> {
  const p = l.params;
  const taken = takenAt(l, t, from - 40, to + 40);
  const today = Math.floor(t / DAY_MS);
  const free = (d: number) => !taken.has(d);
  const out = new Map<number, TruthState>();
  for (let d = from; d < to; d++) {
    const k = taken.get(d);
    if (k !== undefined) {
      out.set(d, k === 'booking' ? 'booked' : 'blocked');
      continue;
    }
    if (p.windowDays !== null && d >= today + p.windowDays) {
      out.set(d, 'unbookable');
      continue;
    }
    let open = false;
    for (let s = d; s > d - 31 && free(s) && !open; s--) {
      if (!checkInDay(p, s)) continue;
      const min = minNightsAt(p, s, t);
      for (let e = Math.max(s + min, d + 1); e <= s + 31 && free(e - 1); e++) {
        if (checkOutDay(p, e)) {
          open = true;
          break;
        }
      }
    }
    out.set(d, open ? 'available' : 'unbookable');
  }
  return out;
}

/** The guest bookings live at `t` with a night in [from, to): what an inference should find. */
export function bookingsAt(l: FamilyListing, t: number, from: number, to: number): Item[] {
  return l.items.filter((it) => it.kind === 'booking' && live(it, t) && it.end > from && it.start < to);
}

/** A guest reviews within this many days of check-out (platforms close the review window then), or never. */
export const REVIEW_WINDOW_DAYS = 14;

/**
 * The share of a listing's guest stays followed by a review (0.5 to 0.75, per listing): a signal
 * beside the calendar, not a family, drawn apart from the listing's plan so that switching reviews
 * on changes no calendar.
 */
export function reviewRate(l: FamilyListing): number {
  return rng('calendar-reviews', l.seed, l.index).range(0.5, 0.75);
}

/**
 * The instants of the reviews a listing has received by `t` (epoch ms, ascending): a guest whose
 * stay took place (a booking never cancelled) reviews it, with the listing's review rate, at an
 * instant within REVIEW_WINDOW_DAYS after check-out. The host's holds (owner stays, maintenance,
 * direct bookings entered as blocks, a snooze) and preparation nights are never reviewed: no guest
 * stayed through the platform.
 */
export function reviewsAt(l: FamilyListing, t: number): number[] {
  const rate = reviewRate(l);
  const out: number[] = [];
  for (const it of l.items) {
    if (it.kind !== 'booking' || it.cancelledAt !== null) continue;
    const r = rng('calendar-review', l.seed, l.index, it.start, it.madeAt);
    if (!r.chance(rate)) continue;
    // Check-out is at the stay's end day; the review comes after it, within the window (most in the first days).
    const at = it.end * DAY_MS + 12 * HOUR_MS + Math.floor(r.next() * r.next() * (REVIEW_WINDOW_DAYS * DAY_MS - 12 * HOUR_MS));
    if (at <= t) out.push(at);
  }
  return out.sort((a, b) => a - b);
}
