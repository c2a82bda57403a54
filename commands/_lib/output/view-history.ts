// How the history reads (issue 26) print: their table columns (tsv/csv are in columns.ts; each
// read names its Kind, history-run.ts), and what only a whole result can show: the presence of each listing
// over the window (a timeline column) and the price series' summary line with its sparkline.
import type { HistoryKind, Row } from './columns.js';
import { money } from './numbers.js';
import { type Point, sample, sparkline } from './chart.js';
import type { Field, TableColumn, View } from './view-types.js';

const o = (v: unknown) => (v ?? {}) as Row;
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
const yes = (v: unknown) => (typeof v === 'boolean' ? (v ? 'yes' : 'no') : null);
const plain = (v: unknown) => (typeof v === 'number' ? String(v) : null);
/** An instant to the minute, UTC, as a table shows it: 2027-01-01 06:00. */
const when = (v: unknown) => (typeof v === 'string' && v.length >= 16 ? `${v.slice(0, 10)} ${v.slice(11, 16)}` : str(v));
const change = (c: unknown, show: (v: unknown) => string | null) => {
  const x = o(c);
  const to = show(x.to) ?? '-';
  return x.from === null || x.from === undefined ? `new: ${to}` : x.from === x.to ? to : `${show(x.from) ?? '-'} → ${to}`;
};

/** A calendar change's rules that changed (check-in, check-out, bookable), e.g. "check-out yes → no"; empty when none did. */
const RULE_NAMES: Record<string, string> = { checkIn: 'check-in', checkOut: 'check-out', bookable: 'bookable' };
function rulesChanged(r: Row): string | null {
  const changed = Array.isArray(r.changed) ? (r.changed as unknown[]) : [];
  const parts = changed.flatMap((k) => (typeof k === 'string' && k in RULE_NAMES ? [`${RULE_NAMES[k]} ${change(r[k], yes)}`] : []));
  return parts.length === 0 ? null : parts.join(', ');
}

export const HISTORY_TABLES: Record<HistoryKind, TableColumn[]> = {
  price_history: [
    { header: 'FIRST SEEN', text: (r) => when(r.firstSeen) },
    { header: 'LAST SEEN', text: (r) => when(r.lastSeen), drop: 3 },
    { header: 'SEEN', text: (r) => plain(r.timesSeen), align: 'right', drop: 2 },
    { header: 'NIGHTLY', text: (r) => money(r.nightlyPrice, r.currency), align: 'right' },
    { header: 'TOTAL', text: (r) => money(r.totalPrice, r.currency), align: 'right' },
    { header: 'SOURCE', text: (r) => str(r.source), min: 10, drop: 1 },
  ],
  calendar_change: [
    { header: 'NIGHT', text: (r) => str(r.date) },
    { header: 'OBSERVED', text: (r) => when(r.observedAt) },
    { header: 'AVAILABLE', text: (r) => change(r.available, yes) },
    { header: 'MIN NIGHTS', text: (r) => change(r.minNights, plain), drop: 1 },
    { header: 'RULES', text: rulesChanged, drop: 2 },
  ],
  inferred_booking: [
    { header: 'CHECK-IN', text: (r) => str(r.checkIn) },
    { header: 'CHECK-OUT', text: (r) => str(r.checkOut) },
    { header: 'NIGHTS', text: (r) => plain(r.nights), align: 'right' },
    { header: 'BOOKED', text: (r) => (r.bookedAfter === null ? `by ${when(r.bookedBefore)}` : when(r.bookedBefore)), drop: 2 },
    { header: 'LEAD DAYS', text: (r) => (r.bookedAfter === null ? `≥${plain(r.leadTimeDays)}` : plain(r.leadTimeDays)), align: 'right' },
    { header: 'LAST PRICE', text: (r) => money(r.lastPriceSeen, r.currency), align: 'right', drop: 3 },
    { header: 'CONFIDENCE', text: (r) => plain(r.confidence), align: 'right', drop: 1 },
  ],
  seen_listing: [
    { header: 'NAME', text: (r) => str(r.name), min: 16 },
    { header: 'PLATFORM', text: (r) => str(r.platform) },
    { header: 'FIRST SEEN', text: (r) => str(r.firstSeen)?.slice(0, 10) ?? null },
    { header: 'LAST SEEN', text: (r) => str(r.lastSeen)?.slice(0, 10) ?? null, drop: 3 },
    { header: 'SEEN', text: (r) => plain(r.timesSeen), align: 'right', drop: 2 },
    { header: 'NOW', text: (r) => yes(r.inLatestSearch), drop: 4 },
    { header: 'LISTING ID', text: (r) => str(r.listingId), id: true },
  ],
  observation: [
    { header: 'PLATFORM', text: (r) => str(r.platform) },
    { header: 'LISTING ID', text: (r) => str(r.listingId), id: true },
    { header: 'KIND', text: (r) => str(r.kind) },
    { header: 'KEY', text: (r) => str(r.key), min: 10, drop: 2 },
    { header: 'FIRST SEEN', text: (r) => when(r.firstSeen), drop: 3 },
    { header: 'LAST SEEN', text: (r) => when(r.lastSeen) },
    { header: 'SEEN', text: (r) => plain(r.timesSeen), align: 'right', drop: 4 },
    { header: 'VALUE', text: (r) => (r.value === undefined ? null : JSON.stringify(r.value)), min: 16, drop: 1 },
  ],
};

export const HISTORY_FIELDS: Record<HistoryKind, Field[]> = Object.fromEntries(
  Object.entries(HISTORY_TABLES).map(([k, cols]) => [k, cols.map((c) => ({ label: c.header, text: c.text, wrap: c.id ? 'none' : 'words' }) as Field)]),
) as Record<HistoryKind, Field[]>;

/** The summary line under the bookings table: the method, the nights by state and what they rest on. */
export function bookingsSummary(d: Row): string {
  const counts = o(d.counts);
  const sample = o(d.sample);
  const states = ['available', 'booked', 'blocked', 'unbookable', 'unknown'].map((s) => `${plain(counts[s]) ?? '0'} ${s}`).join(', ');
  const nights = Array.isArray(d.nights) ? d.nights.length : 0;
  const bookings = Array.isArray(d.bookings) ? d.bookings.length : 0;
  const window = sample.firstObserved ? `, observed ${when(sample.firstObserved)} to ${when(sample.lastObserved)}` : '';
  // calendar-diff/2 says how many reviews it read (dated by the listing's review count).
  const reviews = typeof sample.reviews === 'number' ? ` and ${sample.reviews} review${sample.reviews === 1 ? '' : 's'}` : '';
  const min = typeof d.minConfidence === 'number' ? ` (below ${d.minConfidence} sure: unknown)` : '';
  return `${str(d.method)}: ${nights} nights: ${states}${min}; ${bookings} booking${bookings === 1 ? '' : 's'}; from ${plain(sample.observations)} observations${reviews}${window}`;
}

/** Columns of the presence timeline: each a slice of the window, lit when the listing was seen in it. */
const PRESENCE = 16;

/**
 * The listings table with a SEEN OVER TIME column: one character per slice of the span the rows
 * cover, filled while the listing was seen (first to last seen), so new and gone listings show
 * at a glance. Other views pass through.
 */
export function withPresence(view: View, unicode: boolean): View {
  if (view.kind !== 'seen_listing' || view.rows.length === 0) return view;
  const ms = (v: unknown) => Date.parse(String(v));
  const start = Math.min(...view.rows.map((r) => ms(r.firstSeen)));
  const end = Math.max(...view.rows.map((r) => ms(r.lastSeen)));
  const slice = Math.max(1, (end - start) / PRESENCE);
  const [on, off] = unicode ? ['█', '·'] : ['#', '.'];
  const bar = (r: Row) => {
    const [a, b] = [ms(r.firstSeen), ms(r.lastSeen)];
    let s = '';
    for (let i = 0; i < PRESENCE; i++) s += b >= start + i * slice && a < start + (i + 1) * slice ? on : off;
    return s;
  };
  const column: TableColumn = { header: 'SEEN OVER TIME', text: bar, drop: 5 };
  const at = view.table.findIndex((c) => c.header === 'FIRST SEEN');
  return { ...view, table: [...view.table.slice(0, at), column, ...view.table.slice(at)] };
}

/** A price series as points: each row's nightly price from when it was first seen. */
export const pricePoints = (rows: readonly Row[]): Point[] => rows.filter((r) => typeof r.nightlyPrice === 'number').map((r) => ({ t: Date.parse(String(r.firstSeen)), v: r.nightlyPrice as number }));

/** The summary line under a price series table: first and last nightly price, the range and a sparkline. */
export function priceSummary(rows: readonly Row[], unicode: boolean): string | null {
  const points = pricePoints(rows);
  if (points.length === 0) return null;
  const cur = str(rows[0]!.currency);
  const values = points.map((p) => p.v);
  const end = Date.parse(String(rows.at(-1)!.lastSeen));
  const spark = sparkline(sample(points, Math.min(24, Math.max(points.length, 8)), end), unicode);
  return `nightly ${money(values[0], cur)} → ${money(values.at(-1), cur)} ${spark} (min ${money(Math.min(...values), cur)}, max ${money(Math.max(...values), cur)}; ${points.length} value${points.length === 1 ? '' : 's'})`;
}

/**
 * Nights available over time from a calendar's changes (oldest first): after each instant with
 * changes, how many nights of the window were available. Nights never observed count as not.
 */
export function availablePoints(changes: readonly Row[]): Point[] {
  const state = new Map<string, boolean>();
  const points: Point[] = [];
  for (const c of changes) {
    state.set(String(c.date), o(c.available).to === true);
    const t = Date.parse(String(c.observedAt));
    const n = [...state.values()].filter(Boolean).length;
    if (points.at(-1)?.t === t) points.at(-1)!.v = n;
    else points.push({ t, v: n });
  }
  return points;
}

/** The latest snapshot of a calendar in one line: how many nights are available, and each night as a character. */
export function calendarSummary(latest: readonly Row[], unicode: boolean): string | null {
  if (latest.length === 0) return null;
  const free = latest.filter((d) => d.available === true).length;
  const [on, off] = unicode ? ['█', '░'] : ['#', '.'];
  const strip = latest.map((d) => (d.available === true ? on : off)).join('');
  return `latest: ${free} of ${latest.length} nights available ${strip.length <= 60 ? strip : ''}`.trimEnd();
}
