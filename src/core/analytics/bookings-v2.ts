// calendar-diff/2 (issue 37, item 2): what the second method reads beyond the first
// (./bookings.ts). Before holds are grouped, each listing's calendar is read for the holds a
// platform makes by itself: the advance notice (a night closes a fixed time before it, a hold
// that moves with today) and the rolling booking window (nights further ahead than it are
// closed); nights those closed are free. After grouping, preparation nights (a night or two the
// platform blocks around each booking) are told from the stay, and each hold is judged on its
// stay rules, its shape (length, weekday, check-out day) and how far ahead it was taken. Every
// confidence is the share of nights right, on the mixed development world (docs/analytics.md, "The
// held-out protocol"), of the basis of the night (the path that named it and what was read),
// mapped to the share right of such nights on development seeds the fit left out. Pure, as the
// first method.
import { DAY_MS } from '../clock.js';
import type { DayValue } from '../schemas/observations.js';
import { CALIBRATION_V2 } from './bookings-v2-calibration.js';
import { type DayRow, type Group, type NightRead, checkInAllowed, isAvailable, weekday } from './calendar-read.js';

/** The latest the advance notice may close a night, in days before it (three days at midnight). */
const MAX_NOTICE_DAYS = 3;
/** Lone changes that agree on a notice, at least this many, before a notice is read. */
const MIN_NOTICE_EVIDENCE = 6;
/**
 * Or this many on a sparse listing (observed less often than every SPARSE_GAP_DAYS): the notice
 * closes each night a day or so before it, and observations days apart see a night within that
 * reach at one of them at most, so such a listing shows the notice's changes a few times fewer
 * than one observed daily. Its free nights seen within the reach still contradict it.
 */
const SPARSE_NOTICE_EVIDENCE = 3;
/** Nights seen closed past the window's edge before a window is read. */
const MIN_WINDOW_EVIDENCE = 10;
/** Taken hold groups with both sides free, at least this many, before preparation time is read. */
const MIN_PREP_EVIDENCE = 7;
/** Holds the rules refuse whole and accept without their preparation nights, at least this many, to read preparation time from few holds. */
const PREP_GAIN_EVIDENCE = 3;
/** Free sides of holds the rules accept whole, at least this many, all leaving a stay the rules accept once p nights come off each, to read preparation time from their lengths. */
const PREP_SIDE_EVIDENCE = 8;

/** Holds seen taken with both sides free that start off the check-in days and whose stay q nights in starts on one, at least this many, to read a hold refused for its check-in day as a stay with q preparation nights (stripForCheckIn). */
const CHECK_IN_PREP_EVIDENCE = 2;

/** Holds a stay of the minimum or a night more once two nights come off each side, at least this many, to read two preparation nights where one was read (shortestAtTwo). */
const SHORT_AT_TWO_EVIDENCE = 2;
/** Holds seen taken with both sides free 4 or 5 nights over their minimum, at least this many (none 2 or 3 over), to read two preparation nights where one was read (seenAtTwo). */
const SEEN_AT_TWO_EVIDENCE = 3;
/** Or at least this many, */
const SEEN_AT_TWO_MANY = 5;
/** at least this many times those 2 or 3 over. */
const SEEN_AT_TWO_RATIO = 4;
/** Holds the rules accept whole, at least this many, to read preparation time from the shortest of them. */
const TIGHT_EVIDENCE = 4;
/** Holds the rules accept whole, at least this many, to read preparation time from the shortest of them when no hold the rules refuse whole supports it (readPrepFromShortest's clean). */
const CLEAN_EVIDENCE = 10;
/** Holds the rules accept whole with both sides free, at least this many, to read preparation time from the shortest holds when p breaks none of the holds the rules accept whole (readPrepFromShortest's clean). */
const UNBROKEN_EVIDENCE = 4;
/** The least share of those a stay of the minimum or a night more once p nights come off each free side. */
const TIGHT_SHARE = 0.3;
/** Or, of those seen taken with both sides free, at least this many such a stay (readPrepFromShortest). */
const SEEN_TIGHT_EVIDENCE = 2;
/** The most share of those p nights off each free side leave a stay the rules refuse. */
const BROKEN_SHARE = 0.15;
/** Of guests' stays, the share each of the minimum, a night more and two nights more: guests book their minimum stay or a bit more most often (prepLikelihood). */
const STAY_NEAR_MIN = 0.2;
/** The share each of a stay 3 to LONG_STAY_OVER nights over its minimum (the other stays, each length alike: how long a guest stays beyond that is not read). */
const STAY_OVER = 0.04;
/** The most nights over its minimum a stay runs at STAY_OVER. */
const LONG_STAY_OVER = 12;
/** The share each of a stay longer still (a month's stay, stays run together). */
const STAY_FAR = 0.005;
/** The share of the holds that are the host's (owner stays, maintenance, direct bookings entered as blocks): no preparation nights, any length. */
const HOST_SHARE = 0.2;
/** The share each of a host's hold of any length (a hold's length says nothing of the host: up to two weeks, each alike). */
const HOST_LENGTH = 1 / 14;
/** How much likelier (the log of the ratio) the holds' lengths must be with p preparation nights than without to read p where no other rule read one (likelierPrep). */
const PREP_LIKELIER = 2.5;

/** What calendar-diff/2 read of a listing before classifying. */
export interface Signals {
  /** The advance notice in days (the closing time before a night), or null. */
  noticeDays: number | null;
  /** The rolling booking window in days, or null. */
  windowDays: number | null;
  /** Nights whose last closing was the notice's: free. */
  noticeFreed: Set<number>;
  /** Nights closed only by the window as last seen: free, no stay can be booked on them yet. */
  windowClosed: Set<number>;
  /** Preparation nights blocked before and after each booking, or 0. */
  prepNights: number;
  /** How far ahead the listing's guests book, in days (readGuestWindow). */
  guestWindow: number;
  /** What the listing's holds seen taken say of its host (readHostHolds). */
  hostHolds: HostHolds;
  /** Observed less often than every SPARSE_GAP_DAYS (the median gap between observations). */
  sparse: boolean;
  /** The day of the last observation (a hold ending by it is past). */
  lastDay: number;
  /** The host changed the listing's minimum stay while observed (minStayChanged). */
  minStayChanged: boolean;
}

const lagOf = (day: number, t: number) => (day * DAY_MS - t) / DAY_MS;
const dayLag = (day: number, t: number) => day - Math.floor(t / DAY_MS);

/** The median time between the listing's observations (the instants its rows were first or last seen). */
function medianGap(byDay: Map<number, DayRow[]>): number {
  const sorted = observationInstants(byDay);
  const gaps = sorted
    .slice(1)
    .map((t, i) => t - sorted[i]!)
    .sort((x, y) => x - y);
  return gaps.length === 0 ? 0 : gaps[Math.floor(gaps.length / 2)]!;
}

/** The instants the listing was observed at (each row's first and last sight), ascending. */
function observationInstants(byDay: Map<number, DayRow[]>): number[] {
  const instants = new Set<number>();
  for (const rows of byDay.values()) for (const r of rows) instants.add(r.firstSeen).add(r.lastSeen);
  return [...instants].sort((x, y) => x - y);
}

/** The day of the listing's last observation. */
function lastObservedDay(byDay: Map<number, DayRow[]>): number {
  let last = Number.NEGATIVE_INFINITY;
  for (const rows of byDay.values()) for (const r of rows) last = Math.max(last, r.lastSeen);
  return Math.floor(last / DAY_MS);
}

/**
 * Whether the host changed the listing's minimum stay while it was observed: a night seen free
 * stating two minimums. A hold taken before observation began was booked under the minimum of its
 * day, which the calendar no longer states: hosts raise and lower it (seasons, a new policy).
 */
function minStayChanged(byDay: Map<number, DayRow[]>): boolean {
  for (const rows of byDay.values()) {
    let seen: unknown;
    for (const r of rows) {
      if (!isAvailable(r)) continue;
      if (seen !== undefined && r.value.minNights !== seen) return true;
      seen = r.value.minNights;
    }
  }
  return false;
}

/**
 * Each night's rules with the minimum stay the host asks now: where the host changed the listing's
 * minimum while observed (a night seen free stating one minimum, then another), a night whose
 * rules were last seen before the last change (a night since passed, or never seen since) is
 * judged by the minimum asked since, as the nights seen before and after it changed show (by the
 * old minimum and weekday, else by the old minimum alone): whether a free night is available or
 * unbookable is a question of the rules in force at the time of the answer. Takes each night's
 * rules as read (`latest`) and the row they were read from; returns them, changed where so.
 */
export function minimumNow(latest: Map<number, DayValue>, rulesRows: Map<number, DayRow>, reads: Map<number, NightRead>): Map<number, DayValue> {
  const changes: { from: number; to: number; wd: number; at: number }[] = [];
  for (const n of reads.values()) {
    let prev: DayRow | null = null;
    for (const r of n.rows) {
      if (!isAvailable(r) || unstated.has(r)) continue;
      const [a, b] = [prev?.value.minNights, r.value.minNights];
      if (prev && typeof a === 'number' && typeof b === 'number' && a !== b) changes.push({ from: a, to: b, wd: weekday(n.day), at: r.firstSeen });
      prev = r;
    }
  }
  if (changes.length === 0) return latest;
  const last = Math.max(...changes.map((c) => c.at));
  // The change seen at the last change's observation (nights seen a day apart around it).
  const recent = changes.filter((c) => c.at > last - DAY_MS);
  const commonest = (cs: typeof changes) => {
    const counts = new Map<number, number>();
    for (const c of cs) counts.set(c.to, (counts.get(c.to) ?? 0) + 1);
    return cs.length === 0 ? null : [...counts].sort((x, y) => y[1] - x[1] || x[0] - y[0])[0]![0];
  };
  const out = new Map(latest);
  for (const [day, v] of latest) {
    const row = rulesRows.get(day);
    if (!row || row.lastSeen >= last || typeof v.minNights !== 'number') continue;
    const to = commonest(recent.filter((c) => c.from === v.minNights && c.wd === weekday(day))) ?? commonest(recent.filter((c) => c.from === v.minNights));
    if (to !== null) out.set(day, { ...v, minNights: to });
  }
  return out;
}

/**
 * The rules of the nights the booking window closed at the last observation, as a stay reads them
 * at the time of the answer (whether a free night is available or unbookable: coverable): the ones
 * the window has opened since (before day `opensBefore`) let guests check in on the listing's
 * check-in weekdays (not `closed`) for the minimum stay it asked on its last night seen open; the
 * ones still past it let no one check in, though a stay begun within the window runs on into them.
 * A calendar states no rules for nights its window closes, and a platform applies the listing's
 * own as the window opens them: a night opened since is no more bookable than a stay of those
 * rules, between the nights taken or still closed around it, lets it be.
 */
export function openedRules(rulesNow: Map<number, DayValue>, windowClosed: ReadonlySet<number>, closed: ReadonlySet<number>, opensBefore: number): Map<number, DayValue> {
  if (windowClosed.size === 0) return rulesNow;
  const edge = Math.min(...windowClosed);
  let min: number | null = null;
  for (let d = edge - 1; rulesNow.has(d) && min === null; d--) {
    const v = rulesNow.get(d);
    if (v && v.available === true && typeof v.minNights === 'number') min = v.minNights;
  }
  const out = new Map(rulesNow);
  for (const d of windowClosed) {
    const v = rulesNow.get(d);
    if (v?.available !== true) continue;
    const opened = d < opensBefore;
    out.set(d, { ...v, minNights: min ?? v.minNights, checkIn: opened && !closed.has(weekday(d)), checkOut: true });
  }
  return out;
}

/**
 * The free rows made for closed rows of a night not seen free before them (freeRow): they carry
 * the closed row's check-in rule, and a calendar refuses check-in on every closed night, so they
 * state none of the night's own.
 */
const unstated = new WeakSet<DayRow>();

/** A free row standing for closed rows: the value the night showed when last free, over the closed rows' span. */
function freeRow(model: DayRow | undefined, like: DayRow, firstSeen: number, lastSeen: number): DayRow {
  const value: DayValue = model ? { ...model.value, available: true } : { ...like.value, available: true };
  const row = { ...like, value, firstSeen, lastSeen };
  if (!model || unstated.has(model)) unstated.add(row);
  return row;
}

/**
 * Whether the night's calendar refused check-in on it just before it was taken, as the stay a
 * hold is read as (staysValid, stripForCheckIn) is judged: a row freeRow made from a closed one
 * (a night the window closed until it was taken) states no rule, and refuses nothing.
 */
const refusedCheckIn = (n: NightRead) => n.lastFree !== null && !unstated.has(n.lastFree) && !checkInAllowed(n.lastFree.value);

/**
 * The advance notice: the time before a night (in days, from a day after it began, a same-day
 * cut-off, to MAX_NOTICE_DAYS ahead) at which a listing's free nights close by themselves. Read
 * as the time the most lone changes agree with (a night closed between an observation further
 * ahead than it and one closer, no night further ahead closed with it), less the nights seen free
 * closer than it; a notice only when the changes are many (fewer on a sparse listing:
 * SPARSE_NOTICE_EVIDENCE) and the contradictions few.
 */
function readNotice(byDay: Map<number, DayRow[]>, sparse: boolean): number | null {
  const need = sparse ? SPARSE_NOTICE_EVIDENCE : MIN_NOTICE_EVIDENCE;
  const changes: { day: number; before: number; lagBefore: number; lagAfter: number }[] = [];
  const closedAt = new Map<string, number>();
  // Each night's closest observation free: a notice closes nights before it.
  const freeLags: number[] = [];
  for (const [day, rows] of byDay) {
    let closest = Number.POSITIVE_INFINITY;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      if (isAvailable(r)) closest = Math.min(closest, lagOf(day, r.lastSeen));
      if (i > 0 && isAvailable(rows[i - 1]!) && !isAvailable(r)) {
        changes.push({ day, before: r.firstSeen, lagBefore: lagOf(day, r.firstSeen), lagAfter: lagOf(day, rows[i - 1]!.lastSeen) });
        closedAt.set(`${day}|${r.firstSeen}`, lagOf(day, r.firstSeen));
      }
    }
    if (closest <= MAX_NOTICE_DAYS) freeLags.push(closest);
  }
  // A change that also closed a neighbour further ahead than the notice reaches is a stay's, not the notice's.
  const lone = changes.filter((c) => {
    if (c.lagBefore <= -1 || c.lagBefore > MAX_NOTICE_DAYS) return false;
    for (let d = c.day + 1; closedAt.has(`${d}|${c.before}`); d++) if (lagOf(d, c.before) > MAX_NOTICE_DAYS) return false;
    return true;
  });
  if (lone.length < need) return null;
  let best = { tau: 0, n: 0, against: 0 };
  // A night is read closed from tau on, free before (lagBefore < tau <= lagAfter); a notice closes
  // it at its closing instant itself, so a poll at that very hour sees it closed: a notice of the
  // most days, polled on its hour, is read an eighth of a day past MAX_NOTICE_DAYS.
  for (let tau = -0.875; tau <= MAX_NOTICE_DAYS + 0.125 + 1e-9; tau += 0.125) {
    const n = lone.filter((c) => c.lagBefore < tau && tau <= c.lagAfter + 1e-9).length;
    const against = freeLags.filter((l) => l < tau).length;
    if (n - against > best.n - best.against) best = { tau, n, against };
  }
  return best.n >= need && best.against <= 0.25 * best.n ? best.tau : null;
}

/** The rolling window: no night was ever seen free further ahead than W - 1 days, while many further were seen closed, and many opened as they came within it. */
function readWindow(byDay: Map<number, DayRow[]>): number | null {
  let maxFree = -1;
  let maxSeen = -1;
  for (const [day, rows] of byDay) {
    for (const r of rows) {
      maxSeen = Math.max(maxSeen, dayLag(day, r.firstSeen));
      if (isAvailable(r)) maxFree = Math.max(maxFree, dayLag(day, r.firstSeen));
    }
  }
  if (maxFree < 0 || maxSeen < maxFree + 5) return null;
  const w = maxFree + 1;
  // Nights seen closed past it, and nights that opened as they came within it (closed, then free from W - 1 days ahead).
  let closed = 0;
  let opened = 0;
  for (const [day, rows] of byDay) {
    if (rows.some((r) => !isAvailable(r) && dayLag(day, r.firstSeen) >= w + 1)) closed++;
    if (rows.some((r, i) => i > 0 && isAvailable(r) && !isAvailable(rows[i - 1]!) && dayLag(day, r.firstSeen) >= w - 2)) opened++;
  }
  return closed >= MIN_WINDOW_EVIDENCE && opened >= MIN_WINDOW_EVIDENCE ? w : null;
}

/**
 * The rows with the platform's own holds read as what they are: a night's closed rows from a
 * notice closing on are free (the night was for rent), and its closed rows while past the window
 * are free too (split where a row runs across the window's edge: the night opened there, free as
 * last observed before it and taken by the first observation after it, which is when the change
 * was seen). Returns the rows to group and what was read.
 */
export function readPlatformHolds(byDay: Map<number, DayRow[]>): { byDay: Map<number, DayRow[]>; signals: Signals } {
  for (const rows of byDay.values()) rows.sort((a, b) => a.firstSeen - b.firstSeen || a.id - b.id);
  const sparse = medianGap(byDay) > SPARSE_GAP_DAYS * DAY_MS;
  const tau = readNotice(byDay, sparse);
  const w = readWindow(byDay);
  const signals: Signals = {
    noticeDays: tau,
    windowDays: w,
    noticeFreed: new Set(),
    windowClosed: new Set(),
    prepNights: 0,
    guestWindow: GUEST_WINDOW_DAYS,
    hostHolds: { seen: 0, refused: 0, long: 0 },
    sparse,
    lastDay: lastObservedDay(byDay),
    minStayChanged: minStayChanged(byDay),
  };
  const out = new Map<number, DayRow[]>();
  const instants = observationInstants(byDay);
  for (const [day, original] of byDay) {
    let rows = original;
    if (w !== null) {
      const edge = (day - w + 1) * DAY_MS;
      const next: DayRow[] = [];
      for (const r of rows) {
        if (isAvailable(r) || dayLag(day, r.firstSeen) < w) next.push(r);
        else if (dayLag(day, r.lastSeen) >= w) next.push(freeRow(next.at(-1), r, r.firstSeen, r.lastSeen));
        else {
          // Free at the last observation before the edge, taken by the first after it.
          const i = instants.findIndex((t) => t >= edge);
          const lastFree = i > 0 && instants[i - 1]! >= r.firstSeen ? instants[i - 1]! : edge - 1;
          const seen = i >= 0 && instants[i]! <= r.lastSeen ? instants[i]! : edge;
          next.push(freeRow(next.at(-1), r, r.firstSeen, lastFree), { ...r, firstSeen: seen });
        }
      }
      rows = next;
      const last = rows.at(-1)!;
      if (dayLag(day, last.lastSeen) >= w && !isAvailable(original.at(-1)!)) signals.windowClosed.add(day);
    }
    if (tau !== null && !isAvailable(rows.at(-1)!)) {
      // The last closing: the first of the closed rows at the end.
      let i = rows.length - 1;
      while (i > 0 && !isAvailable(rows[i - 1]!)) i--;
      const closing = rows[i]!;
      const lagBefore = lagOf(day, closing.firstSeen);
      const lagAfter = i > 0 ? lagOf(day, rows[i - 1]!.lastSeen) : Number.POSITIVE_INFINITY;
      if (lagBefore < tau && tau <= lagAfter + 1e-9 && (!closedFurther(byDay, day, closing.firstSeen, tau, i === 0) || noStayStarts(byDay, day, rows, i))) {
        rows = [...rows.slice(0, i), freeRow(rows[i - 1], closing, closing.firstSeen, rows.at(-1)!.lastSeen)];
        signals.noticeFreed.add(day);
      }
    }
    out.set(day, rows);
  }
  return { byDay: out, signals };
}

/**
 * Whether night `day`, closed by the notice and by the change at rows[i] together with later
 * nights (closedFurther: a stay's), was no night of that stay: its last free row refused check-in,
 * and the night before it was not taken in that change. A stay holding the night starts on it,
 * where no guest may check in, or holds the night before too; so the stay starts after it, and the
 * notice closed it as the stay was booked (a stay booked for the day after tomorrow, the notice
 * closing tomorrow).
 */
function noStayStarts(byDay: Map<number, DayRow[]>, day: number, rows: DayRow[], i: number): boolean {
  if (i === 0 || unstated.has(rows[i - 1]!) || checkInAllowed(rows[i - 1]!.value)) return false;
  const before = rows[i]!.firstSeen;
  return !(byDay.get(day - 1) ?? []).some((r) => r.firstSeen === before && !isAvailable(r));
}

/**
 * Whether the change at `before` (or, `firstSight`, the first observation) closed a later night at
 * least `tau` ahead too: a stay, not the notice.
 */
function closedFurther(byDay: Map<number, DayRow[]>, day: number, before: number, tau: number, firstSight: boolean): boolean {
  for (let d = day + 1; ; d++) {
    const rows = byDay.get(d);
    const i = rows?.findIndex((r) => r.firstSeen === before && !isAvailable(r)) ?? -1;
    if (!rows || i < 0 || (i === 0 ? !firstSight : !isAvailable(rows[i - 1]!))) return false;
    if (lagOf(d, before) >= tau) return true;
  }
}

/** The row a night showed at instant t (the last first seen at or before it), or null. */
function rowAt(n: NightRead | undefined, t: number): DayRow | null {
  if (!n) return null;
  let at: DayRow | null = null;
  for (const r of n.rows) if (r.firstSeen <= t) at = r;
  return at;
}

/**
 * Whether the night came within the booking window already taken (its last free row one freeRow
 * made from closed rows): taken while the window still hid it, by a booking made earlier than it
 * opened (the hold beside it, whose last nights lay past the window's edge, or a host's hold), so
 * never free beside a hold taken later.
 */
const openedTaken = (n: NightRead) => !isAvailable(n.latest) && n.lastFree !== null && unstated.has(n.lastFree);

/**
 * How many nights just after a hold seen taken came within the window already taken (openedTaken),
 * when they are `max` at most, else 0: taken with the hold while the window hid them (the hold's
 * last nights, or its preparation nights), as a guest books one stay's nights together; more of
 * them are a host's hold made beyond the window.
 */
function hiddenAfter(g: Group, reads: Map<number, NightRead>, max: number): number {
  if (g.after === null) return 0;
  let hidden = 0;
  for (let d = g.nights.at(-1)!.day + 1; hidden <= max && reads.has(d) && openedTaken(reads.get(d)!); d++) hidden++;
  return hidden > max ? 0 : hidden;
}

/**
 * The hold as it was taken: with the nights just after it the window hid (hiddenAfter, two at most,
 * as many as preparation time asks). Not a hold whose first night came within the window already
 * taken itself: a piece of a host's hold the window hid (windowPiece), not a booking.
 */
function withHidden(g: Group, reads: Map<number, NightRead>): Group {
  if (openedTaken(g.nights[0]!)) return g;
  const h = hiddenAfter(g, reads, 2);
  if (h === 0) return g;
  const last = g.nights.at(-1)!.day;
  return { ...g, nights: [...g.nights, ...Array.from({ length: h }, (_, i) => reads.get(last + 1 + i)!)] };
}

/**
 * Whether the night was closed before the hold was taken, though read as free: the notice's
 * closing (readPlatformHolds' free row over it, first seen when it closed, MAX_NOTICE_DAYS before
 * the night at most, its value the free row's before it, which the store would have kept as one row
 * had the night stayed free).
 */
function closedBefore(n: NightRead, g: Group): boolean {
  if (g.after === null) return false;
  const r = rowAt(n, g.after);
  const i = r === null ? -1 : n.rows.indexOf(r);
  const prev = i > 0 ? n.rows[i - 1]! : null;
  return prev !== null && isAvailable(prev) && lagOf(n.day, r!.firstSeen) <= MAX_NOTICE_DAYS && JSON.stringify(prev.value) === JSON.stringify(r!.value);
}

/**
 * Whether the night was free just before the hold was taken (so a preparation night would have been
 * taken with it), and still on the calendar when the hold was seen taken: a night gone by then may
 * have passed before the booking was made, when no preparation night is blocked on it.
 */
function freeBefore(n: NightRead | undefined, g: Group): boolean {
  if (!n) return false;
  const r = g.after === null ? n.rows[0]! : rowAt(n, g.after);
  return r !== null && isAvailable(r) && n.before !== g.before && n.latest.lastSeen >= g.before;
}

/**
 * Whether day `day` refused check-out just before the hold was taken (its row then stated it and
 * the night before was free: a calendar states a day's check-out for the stays it could end, so
 * once that night is taken the rule no longer speaks of the listing's check-out days).
 */
function checkOutRefused(reads: Map<number, NightRead>, day: number, g: Group): boolean {
  if (g.after === null) return false;
  const r = rowAt(reads.get(day), g.after);
  const prev = rowAt(reads.get(day - 1), g.after);
  return r !== null && r.value.checkOut === false && prev !== null && isAvailable(prev);
}

const minOf = (n: NightRead) => {
  const v = (n.lastFree ?? n.latest).value;
  return typeof v.minNights === 'number' ? v.minNights : 1;
};

/**
 * Whether the hold less `left` nights at its start and `right` at its end is a stay the rules
 * accept: long enough for its first night's minimum, starting on a check-in day (as stated just
 * before it was taken, refusedCheckIn, and not a closed weekday), not ending on a day that refused
 * check-out.
 */
function staysValid(g: Group, left: number, right: number, reads: Map<number, NightRead>, closed: ReadonlySet<number>): boolean {
  const n = g.nights.length - left - right;
  if (n <= 0) return false;
  const first = g.nights[left]!;
  if (n < minOf(first)) return false;
  if (refusedCheckIn(first)) return false;
  if (closed.has(weekday(first.day))) return false;
  return !checkOutRefused(reads, g.nights.at(-1)!.day + 1 - right, g);
}

/**
 * Preparation time: a listing whose holds, each taken with a free night on at least one side,
 * all read as a stay the rules allow only once p nights are taken off each side that was free
 * (long enough for the minimum stay, starting on a check-in day, ending on a check-out day)
 * blocks p nights around each booking. Read as the largest such p (two at most), from at least
 * MIN_PREP_EVIDENCE holds, nine in ten of them agreeing; or from few holds when the rules refuse
 * most of them whole and accept them stripped; or from the lengths of the holds the rules accept
 * whole (PREP_SIDE_EVIDENCE free sides, each hold still a stay the rules accept stripped, and the
 * lengths of all the holds no likelier without p: prepLikelihood); or,
 * pooling the holds never seen free too (their sides free now), when p explains more than half of
 * the holds the rules refuse whole (a hold with one free side stripped of p nights on both, its
 * neighbour a host's hold made earlier), PREP_GAIN_EVIDENCE more than the other p does, and breaks
 * at most one in four as many that they accept whole; or from the shortest holds
 * (readPrepFromShortest), when p also moves a hold the rules refuse whole onto the rules' days, or
 * when many holds (CLEAN_EVIDENCE) say so and p breaks none of them seen with both sides free, or
 * p breaks none of them at all and UNBROKEN_EVIDENCE had both sides free, or when the holds'
 * lengths are PREP_LIKELIER likelier with p (prepLikelihood) and SEEN_TIGHT_EVIDENCE of them were
 * seen taken with both sides free.
 * A listing read as 1 is read as 2 when its shortest holds say 2 (readPrepFromShortest, shortestAtTwo, seenAtTwo);
 * from readPrepFromShortest, not when as many holds seen taken with both sides free are stays with
 * one night off each side and not with two as are the minimum or a night more with two off each.
 * Or, where none of those read p, from the lengths of many holds (likelierPrep).
 * Each hold seen taken is read as it was taken, with the nights just after it the window hid
 * (withHidden): a stay booked as its last nights opened has its last preparation nights past the
 * window's edge, and read without them it looks shorter than its stay and preparation nights.
 */
export function readPrep(groups: readonly Group[], reads: Map<number, NightRead>, closed: ReadonlySet<number> = new Set()): number {
  const sides = (g: Group) => {
    const side = (n: NightRead | undefined) => (g.after === null ? n !== undefined && isAvailable(n.latest) : freeBefore(n, g));
    return { left: side(reads.get(g.nights[0]!.day - 1)) ? 1 : 0, right: side(reads.get(g.nights.at(-1)!.day + 1)) ? 1 : 0 };
  };
  // A one-night hold is no stay with its preparation (a maintenance night, a notice not read).
  const pooled = groups.flatMap((whole) => {
    const g = withHidden(whole, reads);
    const { left, right } = sides(g);
    return left + right === 0 || g.nights.length === 1 ? [] : [{ g, left, right }];
  });
  const eligible = pooled.filter(({ g }) => g.after !== null);
  // A hold of 2p nights or fewer is no evidence for p (stripPrep leaves it whole when both sides are free).
  const valid = (g: Group, left: number, right: number) => !(g.nights.length <= 2 * Math.max(left, right) && left + right > 0) && staysValid(g, left, right, reads, closed);
  // p off each side that was free; or, as sides may have lent a night to a neighbour's, off one of them.
  const fits = ({ g, left, right }: { g: Group; left: number; right: number }, p: number) => valid(g, p * left, p * right) || (left + right === 2 && (valid(g, p, 0) || valid(g, 0, p)));
  const strict = (p: number) => eligible.filter(({ g, left, right }) => valid(g, p * left, p * right)).length;
  const loose = (p: number) => eligible.filter((e) => fits(e, p)).length;
  const none = strict(0);
  // Holds seen taken with both sides free that are a stay with one night off each side and none
  // with two (a booking seen with one preparation night on each), against those the minimum or a
  // night more with two off each: when the first are as many, the shortest holds' two (from holds
  // never seen free too, stays run together or taken beside a neighbour) is not read.
  const against = eligible.filter(({ g, left, right }) => left + right === 2 && valid(g, 1, 1) && !valid(g, 2, 2)).length;
  const tightTwo = eligible.filter(({ g, left, right }) => left + right === 2 && valid(g, 2, 2) && g.nights.length - 4 - minOf(g.nights[2]!) <= 1).length;
  const oneNotTwo = against >= 1 && against >= tightTwo;
  // The shortest holds' reading and the lengths' likelihoods, each worked out once (several rules ask).
  let shortest: { p: number; clean: boolean } | undefined;
  const shortRead = () => (shortest ??= readPrepFromShortest(pooled, valid));
  const likelihoods = new Map<number, number>();
  const likelihood = (p: number) => likelihoods.get(p) ?? likelihoods.set(p, prepLikelihood(pooled, valid, p)).get(p)!;
  const up = (p: number) => (p === 1 && ((shortRead().p === 2 && !oneNotTwo) || shortestAtTwo(pooled, valid) || seenAtTwo(eligible, valid)) ? 2 : p);
  for (const p of [2, 1]) {
    // Many holds all long enough for p on each side; or the rules refuse most of them whole and
    // accept them stripped (p nights off each free side or off one of them): two only when as many
    // holds are stays with two off each free side as with one (two off one side fit a stay with one
    // preparation night on each where guests may check in on two days in a row).
    if (eligible.length >= MIN_PREP_EVIDENCE && strict(p) >= 0.9 * eligible.length) return up(p);
    if (eligible.length >= 3 && none <= 0.2 * eligible.length && loose(p) >= 0.9 * eligible.length && (p === 1 || strict(2) >= strict(1))) return up(p);
  }
  // Few holds, none of those the rules accept whole shorter than its stay and p nights on each free
  // side, while guests often book the minimum: the free sides stripped are the evidence. Unless the
  // lengths of all the holds are likelier without p (prepLikelihood): guests who seldom book their
  // minimum leave holds all long enough for p, and p would make them stays longer than most.
  const guestLike = eligible.filter(({ g }) => valid(g, 0, 0));
  const freeSides = guestLike.reduce((n, e) => n + e.left + e.right, 0);
  const likelyWith = (p: number) => likelihood(p) >= likelihood(0);
  if (freeSides >= PREP_SIDE_EVIDENCE) for (const p of [2, 1]) if (guestLike.every(({ g, left, right }) => valid(g, p * left, p * right)) && likelyWith(p)) return up(p);
  // Every hold with a free side, seen taken or not: the holds p explains against those it breaks,
  // p and not the other (preparation time moves a stay's edges to the rules' days by its own length).
  const refused = pooled.filter(({ g }) => !valid(g, 0, 0));
  // A hold with one free side may carry its own preparation nights on the other too (its neighbour a host's hold made earlier).
  const fitsAny = (e: { g: Group; left: number; right: number }, p: number) => fits(e, p) || valid(e.g, p, p);
  const gain = (p: number) => refused.filter((e) => fitsAny(e, p)).length;
  let best = { p: 0, score: 0 };
  for (const p of [1, 2]) {
    const explained = gain(p);
    const loss = pooled.filter((e) => valid(e.g, 0, 0) && !fits(e, p)).length;
    const specific = explained - gain(3 - p) >= PREP_GAIN_EVIDENCE;
    if (specific && explained > 0.5 * refused.length && loss <= 0.25 * explained && explained - loss > best.score) best = { p, score: explained - loss };
  }
  if (best.p !== 0) return up(best.p);
  // Or from the shortest holds, when p also moves a hold the rules refuse whole onto the rules' days,
  // or breaks no hold seen taken with both sides free.
  const short = shortRead();
  if (short.p !== 0 && (short.clean || gain(short.p) >= 1)) return short.p;
  // Or from the shortest holds when the holds' lengths are also PREP_LIKELIER likelier with p than
  // without, from fewer holds than likelierPrep asks, SEEN_TIGHT_EVIDENCE of them seen taken with
  // both sides free (a booking seen with its preparation nights on both sides): guests who seldom
  // book their minimum leave holds long enough for p too, but those were taken before observation
  // began or beside a neighbour, and the lengths alone would read p from them.
  const seenBoth = pooled.filter(({ g, left, right }) => g.after !== null && left + right === 2 && valid(g, 0, 0)).length;
  if (short.p !== 0 && seenBoth >= SEEN_TIGHT_EVIDENCE && likelihood(short.p) - likelihood(0) >= PREP_LIKELIER) return short.p;
  // Or from how likely the holds' lengths are with p nights on each free side and without.
  return likelierPrep(pooled, valid, likelihood);
}

/**
 * Preparation time from the lengths of the holds the rules accept whole (each with a free side,
 * one-night holds aside), where no other rule read one: a listing without preparation time shows
 * stays of its minimum or a night more, which p refuses; a listing with p shows none (its shortest
 * stays run 2p nights over the minimum, each side's p nights with them). Read as the p (1 or 2)
 * that makes the lengths likeliest (prepLikelihood), when they are PREP_LIKELIER likelier with it
 * than without, from CLEAN_EVIDENCE holds or more: a hold many nights over its minimum weighs
 * little either way, and guests who seldom book their minimum (the moving world's) leave a few
 * holds all longer than it, which p would explain as well as a listing's preparation time does.
 */
function likelierPrep(pooled: readonly { g: Group; left: number; right: number }[], valid: (g: Group, left: number, right: number) => boolean, likelihood: (p: number) => number): number {
  const none = likelihood(0);
  const [one, two] = [likelihood(1), likelihood(2)];
  const p = two > one ? 2 : 1;
  return pooled.filter(({ g }) => valid(g, 0, 0)).length >= CLEAN_EVIDENCE && Math.max(one, two) - none >= PREP_LIKELIER ? p : 0;
}

/**
 * How likely (the log) the lengths of the holds the rules accept whole are with p preparation
 * nights on each free side: each a guest's stay whose nights over its minimum are as guests book
 * them (STAY_NEAR_MIN each of the minimum and a night or two more, STAY_OVER each of a few more,
 * STAY_FAR longer), or a host's hold (HOST_SHARE of them, HOST_LENGTH each length, no preparation
 * nights); a hold p leaves no stay the rules accept is a host's.
 */
function prepLikelihood(pooled: readonly { g: Group; left: number; right: number }[], valid: (g: Group, left: number, right: number) => boolean, p: number): number {
  const guest = (over: number) => (over < 0 ? 0 : over <= 2 ? STAY_NEAR_MIN : over <= LONG_STAY_OVER ? STAY_OVER : STAY_FAR);
  return pooled
    .filter(({ g }) => valid(g, 0, 0))
    .reduce((sum, { g, left, right }) => {
      const over = valid(g, p * left, p * right) ? g.nights.length - p * (left + right) - minOf(g.nights[p * left]!) : -1;
      return sum + Math.log(HOST_SHARE * HOST_LENGTH + (1 - HOST_SHARE) * guest(over));
    }, 0);
}

/**
 * Whether a listing read as blocking one preparation night blocks two: among its holds with both
 * sides free, none leaves a stay of the minimum or a night more once a night comes off each side,
 * while at least SHORT_AT_TWO_EVIDENCE do once two come off each. Guests often book the minimum
 * stay, so the shortest stays are found where the preparation nights really end.
 */
function shortestAtTwo(pooled: readonly { g: Group; left: number; right: number }[], valid: (g: Group, left: number, right: number) => boolean): boolean {
  let t1 = 0;
  let t2 = 0;
  for (const { g, left, right } of pooled) {
    if (left + right < 2 || !valid(g, 1, 1)) continue;
    const excess = (q: number) => g.nights.length - 2 * q - minOf(g.nights[q]!);
    if (excess(1) <= 1) t1++;
    if (valid(g, 2, 2) && excess(2) <= 1) t2++;
  }
  return t1 === 0 && t2 >= SHORT_AT_TWO_EVIDENCE;
}

/**
 * Whether a listing read as blocking one preparation night blocks two, from its holds seen taken
 * with both sides free (each a stay with its preparation nights on both sides, or a host's hold):
 * guests often book their minimum stay or a night more, so with one preparation night the
 * shortest such holds run 2 or 3 nights over the minimum, with two 4 or 5. Read as 2 when those 4
 * or 5 over (a stay the rules accept once two nights come off each side) are SEEN_AT_TWO_EVIDENCE
 * or more and none is 2 or 3 over; or SEEN_AT_TWO_MANY or more and at least SEEN_AT_TWO_RATIO
 * times those 2 or 3 over (a host's short hold among them). Holds never seen free are left out:
 * taken before observation began, they may be stays run together.
 */
function seenAtTwo(eligible: readonly { g: Group; left: number; right: number }[], valid: (g: Group, left: number, right: number) => boolean): boolean {
  let atOne = 0;
  let atTwo = 0;
  for (const { g, left, right } of eligible) {
    if (left + right < 2 || !valid(g, 0, 0)) continue;
    const over = g.nights.length - minOf(g.nights[0]!);
    if (over === 2 || over === 3) atOne++;
    else if ((over === 4 || over === 5) && valid(g, 2, 2)) atTwo++;
  }
  return (atOne === 0 && atTwo >= SEEN_AT_TWO_EVIDENCE) || (atTwo >= SEEN_AT_TWO_MANY && SEEN_AT_TWO_RATIO * atOne <= atTwo);
}

/**
 * Preparation time from the shortest holds (guests often book their minimum stay or a night
 * more): among the holds the rules accept whole (one-night holds aside, each with a free side),
 * p nights off each free side leave a stay of the minimum or one night more for at least
 * TIGHT_SHARE of them (or for SEEN_TIGHT_EVIDENCE of those seen taken with both sides free), and refuse at most BROKEN_SHARE (the host's short holds: direct bookings,
 * maintenance, which carry no preparation nights). Without preparation time the holds that short
 * are the minimum stays themselves, which p refuses. Also says whether the reading is clean (from
 * CLEAN_EVIDENCE holds or more, p breaking none seen with both sides free; or p breaking none of
 * the holds, UNBROKEN_EVIDENCE of them with both sides free: a listing without preparation time
 * whose guests often book the minimum shows holds p breaks; on the moving world, whose guests seldom
 * do, the listings p broke no hold of had three holds with both sides free at most).
 */
function readPrepFromShortest(pooled: readonly { g: Group; left: number; right: number }[], valid: (g: Group, left: number, right: number) => boolean): { p: number; clean: boolean } {
  const whole = pooled.filter(({ g }) => valid(g, 0, 0));
  if (whole.length < TIGHT_EVIDENCE) return { p: 0, clean: false };
  for (const p of [2, 1]) {
    let broken = 0;
    let tight = 0;
    let seenTight = 0;
    for (const { g, left, right } of whole) {
      if (!valid(g, p * left, p * right)) {
        broken++;
        continue;
      }
      const first = g.nights[p * left]!;
      const excess = g.nights.length - p * (left + right) - minOf(first);
      if (excess <= 1) tight++;
      if (excess <= 1 && g.after !== null && left + right === 2) seenTight++;
    }
    // Tight enough: a share of the holds; or SEEN_TIGHT_EVIDENCE of those seen taken with both sides
    // free (a stay seen booked with its preparation nights on both sides; the holds never seen free,
    // stays run together before observation began, may be too long to be tight).
    if (broken <= BROKEN_SHARE * whole.length && (tight >= TIGHT_SHARE * whole.length || seenTight >= SEEN_TIGHT_EVIDENCE)) {
      // Clean: many holds, and none seen with both sides free that p breaks (a stay with its preparation nights on both sides never is);
      // or p breaks none of the holds at all, UNBROKEN_EVIDENCE of them with both sides free (each showing p nights on both).
      const clean =
        (whole.length >= CLEAN_EVIDENCE && whole.every(({ g, left, right }) => left + right < 2 || valid(g, p, p))) ||
        (broken === 0 && whole.filter(({ left, right }) => left + right === 2).length >= UNBROKEN_EVIDENCE);
      return { p, clean };
    }
  }
  return { p: 0, clean: false };
}

/**
 * The preparation nights a hold seen taken carries on a side its neighbour had taken already: a
 * platform asks for p free nights between two guests' stays, not 2p, so a guest booking next to an
 * earlier one shares that one's preparation nights as far as they reach, and the hold carries none
 * to p of its own on that side, each as likely (the guest picked the check-in day, not the gap).
 * Half of p, rounded up, misreads the fewest nights: one of two; and the one night of one (a host's
 * hold beside it has no preparation nights to share, so the hold carries its own in full).
 */
const sharedPrep = (p: number) => Math.ceil(p / 2);

/**
 * The hold without its preparation nights: those taken with it on a side that was free before it
 * was taken (a hold taken before observation began: on a side free now), and on a side its
 * neighbour had taken already (sharedPrep of them on a hold seen taken) when the stay left is one
 * the rules accept (long enough for its minimum, starting on a check-in day, not ending on a day
 * that refused check-out). After a hold seen taken whose last
 * nights lay past the booking window's edge (up to p nights just after it came within the window
 * already taken: openedTaken), only the p less those nights come off its end. A side the advance
 * notice had closed before the hold was taken (closedBefore) is no free side: the booking's
 * preparation nights there fell on closed nights. A hold of 2p nights
 * or fewer loses nights on one side only (a short stay beside a neighbour's nights, or a night
 * gone from the calendar), never on both (a host's short hold). On a listing
 * rented by the week, a hold running past the first night observed loses the nights before its
 * first check-in weekday (p at most) when what is left is such a stay.
 */
export function stripPrep(g: Group, reads: Map<number, NightRead>, p: number, closed: ReadonlySet<number> = new Set()): { stay: Group; prep: NightRead[] } {
  if (p === 0) return { stay: g, prep: [] };
  // The nights just after a hold seen taken that came within the window already taken, p at most
  // (hiddenAfter): the hold's own last preparation nights, taken with it while the window hid them
  // (more of them are its stay's nights too, or a host's hold made beyond the window).
  const hidden = hiddenAfter(g, reads, p);
  if (g.nights.length + hidden <= p) return { stay: g, prep: [] };
  const side = (n: NightRead | undefined) => (g.after === null ? n !== undefined && isAvailable(n.latest) : freeBefore(n, g) && !closedBefore(n!, g));
  // A side observed but not free before the hold: taken by a neighbour, or gone from the calendar.
  const taken = (n: NightRead | undefined) => n !== undefined && !side(n);
  const lN = reads.get(g.nights[0]!.day - 1);
  const rN = reads.get(g.nights.at(-1)!.day + 1);
  let left = side(lN) ? p : 0;
  let right = hidden === 0 && side(rN) ? p : 0;
  // A hold running past the first night observed on a listing rented by the week: a guest's stay
  // there starts on the check-in weekday, and the night or two before it in the hold (p at most)
  // are its preparation nights (a stay ending on that weekday would leave its own preparation
  // nights there, and no stay could start on it).
  if (lN === undefined && rentedByWeek(closed)) {
    const k = g.nights.findIndex((n) => !closed.has(weekday(n.day)));
    if (k > 0 && k <= p && staysValid(g, k, right, reads, closed)) left = k;
  }
  const ok = (l: number, r: number) => staysValid(g, l, r, reads, closed);
  // A side taken before the hold was may still hold its own preparation nights: the platform blocks
  // them beside every booking, and only those the neighbour had not taken yet came with the hold.
  // Taken off when what is left is still a stay the rules accept: sharedPrep of them on a hold seen
  // taken, all p on one never seen free (its neighbour came after it).
  const q = g.after === null ? p : sharedPrep(p);
  if (left === 0 && taken(lN) && ok(q, right)) left = q;
  if (hidden > 0) right = ok(left, p - hidden) ? p - hidden : 0;
  else if (right === 0 && taken(rN) && ok(left, q)) right = q;
  // A hold of 2p nights or fewer with nights off both sides is kept whole (a host's short hold,
  // not a stay with its preparation nights); with nights off one side only (the other a
  // neighbour's, or gone from the calendar) it is a short stay with its preparation nights there.
  if (left + right === 0 || g.nights.length - left - right < 1) return { stay: g, prep: [] };
  if (left > 0 && right > 0 && g.nights.length + hidden <= 2 * p) return { stay: g, prep: [] };
  return { stay: { ...g, nights: g.nights.slice(left, g.nights.length - right) }, prep: [...g.nights.slice(0, left), ...g.nights.slice(g.nights.length - right)] };
}

/**
 * A hold refused for its check-in day, read as a guest's stay with its own preparation nights
 * when the listing's preparation time was not read (or a side kept them: a neighbour taken before
 * it): on a listing whose guests may check in on some days only (closed weekdays, weekly rentals),
 * a hold that starts on a day no guest may check in on, while q nights off each side (q = 1, then
 * 2) leave a stay the rules accept (a check-in day, long enough for its minimum, not ending on a
 * day that refused check-out), and the listing's other holds show q (showsPrep). A platform blocks
 * the same nights on both sides of a booking, so its holds all start q nights before a check-in
 * day; a host's hold starts on any day. A hold taken before observation began (never seen free) is
 * read so too: its first night is judged by the listing's closed weekdays alone, and the platform
 * blocked its preparation nights then as it does now, so such a hold starting q nights before a
 * check-in day is a stay (or stays run together) with its preparation nights, as the holds seen
 * taken show. Returns the stay and its preparation nights, or null.
 */
export function stripForCheckIn(g: Group, groups: readonly Group[], reads: Map<number, NightRead>, closed: ReadonlySet<number>): { stay: Group; prep: NightRead[] } | null {
  const refusedAt = (n: NightRead) => refusedCheckIn(n) || closed.has(weekday(n.day));
  if (!refusedAt(g.nights[0]!)) return null;
  for (const q of [1, 2]) {
    const n = g.nights.length - 2 * q;
    if (n <= 0) break;
    const stay = g.nights.slice(q, g.nights.length - q);
    const start = stay[0]!;
    if (n < minOf(start) || refusedAt(start) || checkOutRefused(reads, stay.at(-1)!.day + 1, g)) continue;
    if (!showsPrep(groups, reads, q, refusedAt)) continue;
    return { stay: { ...g, nights: stay }, prep: [...g.nights.slice(0, q), ...g.nights.slice(g.nights.length - q)] };
  }
  return null;
}

/**
 * A hold seen taken on a listing rented by the week, read as a guest's stay from its days: a
 * listing whose guests may check in on one weekday only rents whole weeks, from that weekday to
 * that weekday, so a hold whose nights, less at most two at each end, run whole weeks from that
 * weekday is a guest's stay, the nights off its ends taken with it (its preparation nights, or a
 * night the advance notice closed as it was booked). The weekday and the whole weeks place the
 * stay in the hold where the listing's preparation time (stripPrep) may not: that time is not read
 * on every listing, and a side taken before the hold keeps its nights. A host's hold starts and
 * ends on any day and seldom fits so. A hold never seen free is left to stripPrep: taken before
 * observation began, it may be several stays and holds run together. Returns the stay and the
 * nights beside it, or null.
 */
export function stripForWeeks(g: Group, closed: ReadonlySet<number>): { stay: Group; prep: NightRead[] } | null {
  if (g.after === null) return null;
  const w = weekStay(g, closed);
  if (w === null) return null;
  return { stay: { ...g, nights: g.nights.slice(w.q, g.nights.length - w.r) }, prep: [...g.nights.slice(0, w.q), ...g.nights.slice(g.nights.length - w.r)] };
}

/** A listing rented by the week: its guests check in on one weekday only. */
const rentedByWeek = (closed: ReadonlySet<number>) => closed.size === 6;

/**
 * On a listing rented by the week (guests check in on one weekday only), the nights off the
 * hold's start (q) and end (r), two at most each, that leave whole weeks from that weekday, at
 * least its minimum stay; or null.
 */
function weekStay(g: Group, closed: ReadonlySet<number>): { q: number; r: number } | null {
  if (!rentedByWeek(closed)) return null;
  const open = [0, 1, 2, 3, 4, 5, 6].find((w) => !closed.has(w));
  for (const q of [0, 1, 2]) {
    const start = g.nights[q];
    if (!start || weekday(start.day) !== open) continue;
    for (const r of [0, 1, 2]) {
      const n = g.nights.length - q - r;
      if (n >= 7 && n % 7 === 0 && n >= minOf(start)) return { q, r };
    }
  }
  return null;
}

/**
 * Whether the listing's holds show q preparation nights around a stay on a listing with check-in
 * days: among its holds seen taken with both sides free, at least CHECK_IN_PREP_EVIDENCE start on
 * a day guests may not check in on while their stay q nights in starts on one, and none the other
 * way (a hold starting on a check-in day whose stay q nights in would not: no stay with
 * preparation nights starts so). Without preparation time the host's holds are the ones starting
 * on closed days, and few of those are seen taken with both sides free.
 */
function showsPrep(groups: readonly Group[], reads: Map<number, NightRead>, q: number, refusedAt: (n: NightRead) => boolean): boolean {
  let support = 0;
  for (const h of groups) {
    if (h.after === null || h.nights.length <= 2 * q) continue;
    if (!freeBefore(reads.get(h.nights[0]!.day - 1), h) || !freeBefore(reads.get(h.nights.at(-1)!.day + 1), h)) continue;
    const whole = refusedAt(h.nights[0]!);
    const stripped = refusedAt(h.nights[q]!);
    if (!whole && stripped) return false;
    if (whole && !stripped) support++;
  }
  return support >= CHECK_IN_PREP_EVIDENCE;
}

/**
 * The listing's guest window (GUEST_WINDOW_DAYS, or a year when it showed long-lead stays). On a
 * listing rented by the week, a hold taken further ahead than GUEST_WINDOW_DAYS that runs whole
 * weeks from its check-in weekday (weekStay) is such a stay too: no guest books that far ahead
 * unless the listing lets them, and a host's hold seldom keeps to the weeks.
 */
export function readGuestWindow(groups: readonly Group[], closed: ReadonlySet<number>): number {
  let long = 0;
  for (const g of groups) {
    if ((g.nights[0]!.day * DAY_MS - g.before) / DAY_MS > GUEST_WINDOW_DAYS && weekStay(g, closed) !== null) {
      long++;
      continue;
    }
    // Taken further ahead than LONG_LEAD_DAYS: taken (the change, or the first sight of it) that far
    // ahead. A hold seen taken between two observations was taken at some time between them, halfway
    // as best known: on a listing observed a week apart, it is first seen taken days after a guest
    // booked it, and read from that first sight a booking made months ahead looks nearer than it was.
    const first = g.nights[0]!;
    const min = minOf(first);
    const at = g.after === null ? g.before : (g.after + g.before) / 2;
    const lead = (first.day * DAY_MS - at) / DAY_MS;
    if (lead > LONG_LEAD_DAYS && g.nights.length >= min && g.nights.length - min <= LONG_EXCESS && (!first.lastFree || checkInAllowed(first.lastFree.value))) long++;
  }
  return long >= LONG_LEAD_EVIDENCE ? GUEST_MAX_LEAD : GUEST_WINDOW_DAYS;
}

/** The paths of the method's judgement: the rule that named a night. */
const PATHS = [
  'blockedShort',
  'blockedCheckIn',
  'blockedLong',
  'blockedLongNeverSeenFree',
  'blockedEarly',
  'prep',
  'booked',
  'bookedNeverSeenFree',
  'bookedReviewed',
  'available',
  'unbookable',
  'noticeFree',
  'windowClosed',
  'windowOpened',
] as const;
export type ConfidencePath = (typeof PATHS)[number];
/** Observations further apart than this (the median gap) make a listing's calendar sparse. */
const SPARSE_GAP_DAYS = 2;

const lengthClass = (n: number) => (n <= 1 ? '1' : n <= 3 ? '2-3' : n <= 7 ? '4-7' : n <= 14 ? '8-14' : '15+');

/**
 * What the listing's reviews say of a hold (readReviews): '-' no reviews were given (or a free
 * night), 'r+' a review came within REVIEW_WINDOW_DAYS of its check-out (a guest stayed), 'r-'
 * that window closed before the last observation with no review, 'r?' it had not.
 */
export type ReviewEvidence = '-' | 'r+' | 'r-' | 'r?';

/**
 * The basis of a night's confidence: the path that named it, the listing's observation density,
 * what the reviews say of its hold, the hold's length class (taken nights) and whether the hold
 * (or the free night) lies before the last observation, across it or after it, and what was read
 * of the listing (preparation nights, a notice, a window).
 */
function basisV2(s: Signals, path: ConfidencePath, start: number, end: number, review: ReviewEvidence): string {
  const taken = !FREE_PATHS.has(path);
  const when = end <= s.lastDay ? 'past' : start > s.lastDay ? 'ahead' : 'now';
  return [
    path,
    s.sparse ? 'sparse' : 'dense',
    taken ? review : '-',
    taken ? lengthClass(end - start) : '-',
    when,
    `p${s.prepNights}`,
    `n${s.noticeDays === null ? 0 : 1}`,
    `w${s.windowDays === null ? 0 : 1}`,
  ].join('|');
}
const FREE_PATHS = new Set<ConfidencePath>(['available', 'unbookable', 'noticeFree', 'windowClosed', 'windowOpened']);
/** The fields of a basis each level of the calibration reads (bench/calibrate-v2.mjs), finest first. */
const CALIBRATION_LEVELS = [6, 5, 3, 2] as const;

/**
 * The confidence of a path for this listing and hold (or free night), with its basis: the share
 * of nights right, on the mixed development world (every behaviour at once, as in a market), of
 * the finest basis measured on enough nights, mapped monotonically to the share right of such
 * nights on seeds the fit never saw (./bookings-v2-calibration.ts, made by bench/calibrate-v2.mjs),
 * so that of nights given confidence c about c are right on calendars like those.
 */
export function confidenceV2(s: Signals, path: ConfidencePath, start: number, end: number, review: ReviewEvidence = '-'): { confidence: number; basis: string } {
  const basis = basisV2(s, path, start, end, review);
  const parts = basis.split('|');
  for (const n of CALIBRATION_LEVELS) {
    const c = CALIBRATION_V2[parts.slice(0, n).join('|')];
    if (c !== undefined) return { confidence: c, basis };
  }
  // A path the development worlds showed at the other density only (nights the window opened since the last observation: only where observations are days apart).
  const other = CALIBRATION_V2[`${path}|${s.sparse ? 'dense' : 'sparse'}`];
  return { confidence: other ?? 0.5, basis };
}

/** A guest reviews within this many days of check-out, or never (platforms close the review window then). */
const REVIEW_WINDOW_DAYS = 14;

const LONG_PATHS = new Set<ConfidencePath>(['blockedLong', 'blockedLongNeverSeenFree']);

/** A hold as judged: its stay (preparation nights apart), booked or blocked, by which path, and what the reviews say. */
export interface Judged {
  g: Group;
  state: 'booked' | 'blocked';
  path: ConfidencePath;
  review: ReviewEvidence;
}

/**
 * What the listing's reviews say of its holds (issue 37, item 2): a review is written by a guest
 * within REVIEW_WINDOW_DAYS of check-out, and never for the host's holds, so each review names a
 * guest stay that ended in the days before it. Its candidates are the holds checking out in those
 * days (else the holds spanning them: stays taken before observation began, run together); when
 * none was judged booked and there is one, not a long hold (whose review names its last stay, not
 * the whole of it), it is a guest's stay after all (bookedReviewed). A hold
 * whose window closed before the last observation without a review keeps its judgement, its
 * confidence measured apart (many guests never review: a weak sign). Reviews are instants (epoch ms).
 */
export function readReviews(judged: Judged[], reviews: readonly number[] | null, lastDay: number): void {
  if (reviews === null) return;
  const span = (j: Judged) => ({ start: j.g.nights[0]!.day, end: j.g.nights.at(-1)!.day + 1 });
  for (const r of reviews) {
    const day = Math.floor(r / DAY_MS);
    let candidates = judged.filter((j) => span(j).end <= day && span(j).end >= day - REVIEW_WINDOW_DAYS);
    if (candidates.length === 0) candidates = judged.filter((j) => span(j).start < day && span(j).end > day - REVIEW_WINDOW_DAYS);
    const booked = candidates.filter((j) => j.state === 'booked');
    for (const j of booked.length > 0 ? booked : candidates) j.review = 'r+';
    // A long hold's review names its last stay, not the whole of it (an owner's stay beside a guest's, run together): it stays the host's.
    if (booked.length === 0 && candidates.length === 1 && !LONG_PATHS.has(candidates[0]!.path)) {
      const j = candidates[0]!;
      j.state = 'booked';
      j.path = 'bookedReviewed';
    }
  }
  for (const j of judged) if (j.review !== 'r+') j.review = span(j).end + REVIEW_WINDOW_DAYS <= lastDay ? 'r-' : 'r?';
}

/**
 * How far ahead guests book: GUEST_WINDOW_DAYS (as calendar-diff/1), unless the listing showed at
 * least LONG_LEAD_EVIDENCE holds of an ordinary shape taken more than LONG_LEAD_DAYS ahead (summer
 * houses booked in winter), or whole weeks of a weekly rental taken more than GUEST_WINDOW_DAYS
 * ahead: then a year, as platforms allow.
 */
const GUEST_WINDOW_DAYS = 90;
const LONG_LEAD_DAYS = 120;
const LONG_LEAD_EVIDENCE = 2;
const GUEST_MAX_LEAD = 365;
/**
 * A listing asking at least this many nights is let for holidays (most of a week, or more): guests
 * plan such stays months ahead, further than the guest window, as travellers book longer trips
 * earlier than short ones. Asking fewer, it is let for weekends and short breaks too, and a host
 * blocks nights in runs of such lengths: a hold of four nights taken months ahead is as likely the
 * host's.
 */
const HOLIDAY_MIN_STAY = 5;
/** At most this many nights longer than a minimum stay, a hold is the stay the listing asks for, a night or two over (a host's hold keeps to no minimum): nearMinimumStay. */
const HOLIDAY_EXCESS = 2;
/**
 * At most this many nights longer than a holiday listing's minimum, a hold is a holiday: a week's
 * stay where five nights are asked, or two guests' stays of the minimum run together (taken before
 * observation began), both guests'. A host's hold keeps to no minimum.
 */
const HOLIDAY_STAY_EXCESS = 5;
/**
 * A hold of the stay a listing let for holidays asks for (HOLIDAY_MIN_STAY, HOLIDAY_STAY_EXCESS),
 * seen taken or taken before observation began: a guest's holiday, booked further ahead than the
 * guest window (where no booking window keeps guests nearer). Of the first night's minimum stay `min`.
 */
const holidayStay = (g: Group, min: number) => min >= HOLIDAY_MIN_STAY && g.nights.length - min <= HOLIDAY_STAY_EXCESS;
/**
 * A hold of the stay a guest books (the first night's minimum `min`, or up to HOLIDAY_EXCESS nights
 * more) taken more than LONG_LEAD_DAYS ahead, where no booking window keeps guests nearer: a guest
 * planning a trip months ahead (listings guests book that far ahead show few holds so early, fewer
 * than readGuestWindow's evidence). A host's hold so far ahead is an owner's stay of weeks, which
 * keeps to no minimum; a host blocking a few nights does so nearer, within a season.
 */
const nearMinimumStay = (g: Group, min: number, lead: number) => lead > LONG_LEAD_DAYS && g.nights.length - min <= HOLIDAY_EXCESS;
/** A hold this much longer than its minimum stay is no ordinary guest stay (the guest window's evidence). */
const LONG_EXCESS = 12;
/**
 * A hold more than this longer than its minimum stay is the host's (owner stays, renovations,
 * snoozes): a two-week stay where one night is the minimum is still a guest's.
 */
const LONG_HOLD_EXCESS = 13;

/** The host's holds a listing showed while observed (readHostHolds), at least this many, to read a hold it took before observation began that the rules refuse as seen as the host's. */
const HOST_HOLD_EVIDENCE = 2;
/** The least share of the listing's holds seen taken (HostHolds' seen) those host's holds must be. */
const HOST_HOLD_SHARE = 0.25;

/** What a listing's holds seen taken while observed say of its host (readHostHolds). */
export interface HostHolds {
  /** Holds seen taken (their nights seen free before), both neighbours observed. */
  seen: number;
  /** Of those, the ones the rules refuse: shorter than their first night's minimum stay, or starting on a day guests could not check in on. */
  refused: number;
  /** Of those, the ones more than LONG_HOLD_EXCESS nights longer than their minimum stay, less the listing's p preparation nights each side (a guest's stay carries them). */
  long: number;
}

/** The host's holds a listing showed while observed (HostHolds), from its holds (grouped as they were taken) and its p preparation nights. */
export function readHostHolds(groups: readonly Group[], reads: Map<number, NightRead>, closed: ReadonlySet<number>, p: number): HostHolds {
  const out = { seen: 0, refused: 0, long: 0 };
  for (const g of groups) {
    const f = g.nights[0]!;
    if (g.after === null || !reads.has(f.day - 1) || !reads.has(g.nights.at(-1)!.day + 1)) continue;
    out.seen++;
    if (g.nights.length < minOf(f) || refusedCheckIn(f) || closed.has(weekday(f.day))) out.refused++;
    if (g.nights.length - 2 * p - minOf(f) > LONG_HOLD_EXCESS) out.long++;
  }
  return out;
}

/** A host who blocks nights: HOST_HOLD_EVIDENCE of its holds seen taken the rules refuse, HOST_HOLD_SHARE of them at least. */
const blocksNights = (h: HostHolds) => h.refused >= HOST_HOLD_EVIDENCE && h.refused >= HOST_HOLD_SHARE * h.seen;

/**
 * The nights beside hold g from `day` on, a night at a time by `step` (past the nights taken in the
 * same change: its preparation nights), that came within the booking window already taken (their
 * last free row one freeRow made from closed rows: the window kept them closed until they were
 * taken), in a row.
 */
function windowHidden(g: Group, reads: Map<number, NightRead>, day: number, step: 1 | -1): number {
  const taken = (n: NightRead | undefined): n is NightRead => n !== undefined && !isAvailable(n.latest);
  let d = day;
  for (let n = reads.get(d); taken(n) && n.before === g.before; n = reads.get(d)) d += step;
  let count = 0;
  for (let n = reads.get(d); taken(n) && n.lastFree !== null && unstated.has(n.lastFree); n = reads.get(d)) {
    count++;
    d += step;
  }
  return count;
}

/**
 * Whether a hold whose first night the booking window kept closed until it was seen taken is a
 * piece of a host's hold the window hid: nights that came within the window taken lie just before
 * it, or more than the listing's p preparation nights just after it. A guest books a stay's nights
 * together, all within the window, so they come within it free (or are taken as the last of them
 * opens, the nights beside it free, or its preparation nights); a host's hold made further ahead
 * than the window (an owner's stay) comes within it already taken, a night a day, and is seen a
 * piece at each observation, each piece beside the others.
 */
function windowPiece(g: Group, reads: Map<number, NightRead>, p: number): boolean {
  return windowHidden(g, reads, g.nights[0]!.day - 1, -1) >= 1 || windowHidden(g, reads, g.nights.at(-1)!.day + 1, 1) > p;
}

/**
 * The nights past the booking window (closed by it at the last observation, or opened since) that
 * a host's hold the window hid runs on into: the k nights just within the window's edge came
 * within it already taken (never seen free: freeRow), one after another, and were judged blocked.
 * A guest books nothing past the window, so a hold that was there before its nights opened was
 * made further ahead than guests may book (an owner's stay, seen a piece at each observation:
 * windowPiece), and what reached the edge runs on past it for some nights. Read so for half as
 * many nights as it was seen to run within the window, rounded up: a host's hold ends on any
 * night, and seen at a random night of it, the longer it ran the further it runs on.
 */
export function heldPastWindow(reads: Map<number, NightRead>, blocked: (day: number) => boolean, signals: Signals): Set<number> {
  const out = new Set<number>();
  if (signals.windowDays === null || signals.windowClosed.size === 0) return out;
  const edge = Math.min(...signals.windowClosed);
  let k = 0;
  for (let d = edge - 1; ; d--) {
    const n = reads.get(d);
    if (!n || isAvailable(n.latest) || !blocked(d) || n.lastFree === null || !unstated.has(n.lastFree)) break;
    k++;
  }
  for (let d = edge; d < edge + Math.ceil(k / 2) && signals.windowClosed.has(d); d++) out.add(d);
  return out;
}

/**
 * Booked or blocked: the stay rules a guest's booking obeys (minimum stay, check-in and check-out
 * days as the calendar stated them just before), then its shape and how far ahead it was taken.
 */
export function classifyV2(g: Group, closed: Set<number>, reads: Map<number, NightRead>, signals: Signals): { state: 'booked' | 'blocked'; path: ConfidencePath } {
  const first = g.nights[0]!;
  const length = g.nights.length;
  const end = g.nights.at(-1)!.day + 1;
  // A hold running past the first or last night observed: its true start or end is not known.
  // On a sparse listing, a hold whose free neighbour before it passed before the hold was seen may
  // have begun on that night or earlier: its start is not known either.
  const left = reads.get(first.day - 1);
  const cutLeft = !left || (signals.sparse && g.after !== null && isAvailable(left.latest) && left.latest.lastSeen < g.before);
  const cutRight = !reads.has(end);
  const v = (first.lastFree ?? first.latest).value;
  const min = typeof v.minNights === 'number' ? v.minNights : 1;
  // Shorter than its minimum stay: no guest could book it. A hold taken before observation began
  // is judged by the minimum stated now, not the one it was booked under: on a listing whose host
  // changed the minimum while observed (minStayChanged), that says nothing.
  const short = length < min && !(g.after === null && signals.minStayChanged);
  if (!cutLeft && !cutRight && short) return { state: 'blocked', path: 'blockedShort' };
  // A first night the window kept closed until it was taken states no check-in rule of its own
  // (freeRow): the hold is refused for it only when it is a piece of a host's hold (windowPiece).
  const windowHid = first.lastFree !== null && unstated.has(first.lastFree);
  if (!cutLeft && first.lastFree && !checkInAllowed(first.lastFree.value) && (!windowHid || windowPiece(g, reads, signals.prepNights))) return { state: 'blocked', path: 'blockedCheckIn' };
  if (!cutLeft && closed.has(weekday(first.day))) return { state: 'blocked', path: 'blockedCheckIn' };
  // Ending on a day that refused check-out (as stated just before it was taken): a guest's stay ends
  // where guests may check out, a host's hold anywhere. The end is known even where the start is not.
  // Not a day the window kept closed then (freeRow): a calendar refuses check-out on closed nights,
  // and that row states no rule of the day's own. Named with the check-in refusals: the stay rules' days.
  const endRow = g.after === null ? null : rowAt(reads.get(end), g.after);
  if (!cutRight && endRow !== null && !unstated.has(endRow) && checkOutRefused(reads, end, g)) return { state: 'blocked', path: 'blockedCheckIn' };
  // A hold taken before observation began and running past the first night observed, that the
  // rules refuse as seen (shorter than its minimum stay, or starting on a closed check-in weekday):
  // a guest's stay begun before that night, or the host's hold. A listing whose holds seen taken
  // are the host's often enough (readHostHolds) is a host who blocks nights: it is the host's.
  if (!left && !cutRight && g.after === null && (short || closed.has(weekday(first.day)))) {
    if (blocksNights(signals.hostHolds)) return { state: 'blocked', path: short ? 'blockedShort' : 'blockedCheckIn' };
  }
  // A long hold is the host's, unless it keeps to a listing's restricted check-in weekdays (weekly
  // rentals), or runs past the first night observed: taken before observation began, its nights
  // never seen free, it may be several stays run together, and its start is not known.
  const aligned = closed.size > 0 && !closed.has(weekday(first.day)) && !checkOutRefused(reads, end, g);
  if (!aligned && !cutLeft && length - min > LONG_HOLD_EXCESS) return { state: 'blocked', path: g.after === null ? 'blockedLongNeverSeenFree' : 'blockedLong' };
  // A long hold running past the first night observed (taken before observation began, never seen
  // free): guests' stays run together, or the owner's stay. A listing whose holds seen taken show
  // the host taking its own nights (a long hold, or the holds the rules refuse: blocksNights) is
  // an owner's: it is the host's. Not on a listing rented by the week, whose weeks run together.
  if (!left && g.after === null && !aligned && !rentedByWeek(closed) && length - min > LONG_HOLD_EXCESS) {
    if (signals.hostHolds.long >= 1 || blocksNights(signals.hostHolds)) return { state: 'blocked', path: 'blockedLongNeverSeenFree' };
  }
  const lead = (first.day * DAY_MS - g.before) / DAY_MS;
  // A booking window lets guests book its last night as it opens, taken a day later at most.
  // Without one, a holiday stay (holidayStay) is booked months ahead, and so is a stay of the
  // minimum or a night or two more taken further ahead than LONG_LEAD_DAYS (nearMinimumStay), and on a
  // listing rented by the week a hold of whole weeks from its check-in weekday (weekStay: a guest's
  // holiday; a host's hold seldom keeps to the weeks): a year at most, as platforms allow.
  const reach = signals.windowDays !== null ? signals.windowDays + 1 : holidayStay(g, min) || nearMinimumStay(g, min, lead) || weekStay(g, closed) !== null ? GUEST_MAX_LEAD : signals.guestWindow;
  if (lead > reach) return { state: 'blocked', path: 'blockedEarly' };
  return { state: 'booked', path: g.after === null ? 'bookedNeverSeenFree' : 'booked' };
}

/** calendar-diff/2 in words (the market answer's `methods`), from its own parameters. */
const c = (path: ConfidencePath) => {
  const dense = CALIBRATION_V2[`${path}|dense`];
  const sparse = CALIBRATION_V2[`${path}|sparse`];
  return dense === undefined || sparse === undefined ? `${dense ?? sparse}` : `${dense}/${sparse}`;
};
export const BOOKING_METHOD_TEXT_V2 =
  'Booking inference from consecutive calendar observations, reading the holds platforms make by themselves first (docs/analytics.md): ' +
  `a listing whose free nights close a fixed time before they begin (an advance notice, up to ${MAX_NOTICE_DAYS} days) has those nights read as free (confidence ${c('noticeFree')}), ` +
  `and one whose nights past a fixed number of days ahead are always closed (a booking window) has those read as free and not yet bookable (unbookable, ${c('windowClosed')}), and available once the window, moved to the time of the answer, reaches them where a stay of the listing's rules (its check-in weekdays, the minimum stay asked at the window's edge) can cover them, else unbookable (${c('windowOpened')}), except those a host's hold reaching the window's edge runs on into (its nights there came within the window already taken: blocked, half as many nights past the edge as it was seen within the window); ` +
  `consecutive nights taken in one change are one hold, less its preparation nights (read per listing: blocked, ${c('prep')}; ` +
  "or per hold, a hold starting on a day guests cannot check in on whose stay a night or two in from each side starts on one, as the listing's other holds show, " +
  'and on a listing rented by the week, the whole weeks from its check-in weekday a hold seen taken holds, less a night or two at each end); ' +
  `a hold is blocked when it is shorter than its first night's minimum stay (${c('blockedShort')}), starts on a day guests cannot check in on or ends on one they cannot check out on (${c('blockedCheckIn')}), ` +
  `is more than ${LONG_HOLD_EXCESS} nights longer than its minimum stay without keeping to restricted check-in days (and does not run past the first night observed) ` +
  `(${c('blockedLong')}; ${c('blockedLongNeverSeenFree')} when never seen free) or was taken further ahead than the booking window or, without one, the listing's guest window (${GUEST_WINDOW_DAYS} days; a year where its holds showed guests booking further ahead, and for a hold of the minimum stay or up to ${HOLIDAY_STAY_EXCESS} nights more where that minimum is ${HOLIDAY_MIN_STAY} nights or more, or for any hold of the minimum or up to ${HOLIDAY_EXCESS} nights more taken more than ${LONG_LEAD_DAYS} days ahead, or for whole weeks from the check-in weekday of a listing rented by the week) (${c('blockedEarly')}); ` +
  `otherwise booked: confidence ${c('booked')} when it was seen free and then taken, ${c('bookedNeverSeenFree')} when its nights were never seen free (taken before observation began); ` +
  `where the listing's reviews are read, a review within ${REVIEW_WINDOW_DAYS} days after a hold's check-out (hosts' holds are never reviewed) names it a guest's stay (${c('bookedReviewed')}), and a hold whose review window closed without one keeps its judgement with the confidence such holds earned; ` +
  'a booking is priced at the last price seen for a stay including its first night. ' +
  `A free night no stay can use is unbookable (${c('unbookable')}), else available (${c('available')}), judged by the minimum stay the host asks now where it changed while observed; a night never observed is unknown. ` +
  `Confidences a/b: a for a listing observed at least every ${SPARSE_GAP_DAYS} days, b less often; each the share of nights right on the mixed development world (every development calendar family at once, even seeds), ` +
  "then refined by the hold's length, whether it is past, and the preparation nights read, and mapped to the share right of such nights on development seeds the fit left out " +
  '(docs/analytics.md, "Calibration").';
