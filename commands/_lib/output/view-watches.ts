// What a watch result looks like (issue 26): a watch (stays watch add, list, show, rm) and a
// watch's events (stays watch events, stays watch run), each named by its command; each
// line of a table says in a few words what the API's nested call, rules and changes hold, and tsv
// and csv keep the data (numbers plain, the nested parts as JSON). Command definition files read
// the column keys for their --help at start-up: this module imports only types and numbers.ts.
import type { DataColumn, Datum, Row } from './columns.js';
import { money } from './numbers.js';
import type { Field, TableColumn, View } from './view-types.js';

const o = (v: unknown) => (v ?? {}) as Row;
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown) => (typeof v === 'number' ? v : null);
const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

/** "15 min", "1 h", "1 h 30 min", "7 d". */
function minutesText(m: unknown): string | null {
  if (typeof m !== 'number') return null;
  if (m % 1440 === 0) return `${m / 1440} d`;
  if (m < 60) return `${m} min`;
  return m % 60 === 0 ? `${m / 60} h` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** A searched place in a list's CALL: a person's text, so cut here (the column keeps ids whole). */
const PLACE_CHARS = 30;

/**
 * What a list's CALL shows: the form and what it watches, "price airbnb 906295957", "calendar vrbo
 * 4886746", "search Lisbon": never cut, as the listing id is what the next command takes (issue
 * 36, item 17); the dates are their own column, dropped first on a narrow terminal.
 */
function callTarget(r: Row): string | null {
  const c = o(r.call);
  const p = o(c.params);
  const type = str(c.type);
  if (type === null) return null;
  const listing = [str(p.platform), str(p.listingId) ?? str(p.url)].filter(Boolean).join(' ');
  if (type === 'search') {
    const place = str(p.location) ?? '';
    return `search ${place.length > PLACE_CHARS ? `${place.slice(0, PLACE_CHARS - 1)}…` : place}`.trim();
  }
  return `${type === 'price' ? 'price' : 'calendar'} ${listing}`;
}

/** The call's dates: the stay's or the window's. */
function callDates(r: Row): string | null {
  const c = o(r.call);
  const p = o(c.params);
  if (c.type === 'price') return `${p.checkIn ?? '?'}..${p.checkOut ?? '?'}`;
  if (c.type === 'availability') return `${p.startDate ?? '?'}..${p.endDate ?? '?'}`;
  return str(p.checkIn) && str(p.checkOut) ? `${p.checkIn}..${p.checkOut}` : null;
}

/** The call in a few words: "price airbnb 100 2027-03-01..2027-03-04", "availability vrbo 4886746 …", "search Lisbon". */
function callText(r: Row): string | null {
  const c = o(r.call);
  const p = o(c.params);
  const type = str(c.type);
  if (type === null) return null;
  const listing = [str(p.platform), str(p.listingId) ?? str(p.url)].filter(Boolean).join(' ');
  if (type === 'price') return `price ${listing} ${p.checkIn ?? '?'}..${p.checkOut ?? '?'}`;
  if (type === 'availability') return `calendar ${listing} ${p.startDate ?? '?'}..${p.endDate ?? '?'}`;
  return `search ${str(p.location) ?? ''}`.trim();
}

/** One rule in a few words: "below 150", "drop 10%", "total below 900", "nights available". */
function ruleText(rule: unknown): string {
  const r = o(rule);
  const total = r.field === 'totalPrice' ? 'total ' : '';
  if (r.type === 'price_below') return `${total}below ${String(r.amount)}`;
  if (r.type === 'price_drop') return `${total}drop ${String(r.percent)}%`;
  return String(r.type ?? '').replace(/_/g, ' ');
}
const rulesText = (r: Row) => (Array.isArray(r.rules) ? r.rules.map(ruleText).join(', ') : null);
const lastRun = (r: Row) => {
  const l = r.lastRun === null || r.lastRun === undefined ? null : o(r.lastRun);
  if (l === null) return null;
  const err = l.error ? `: ${String(o(l.error).code)}` : '';
  return `${String(l.outcome)}${err}`;
};
/** Minutes precision: a person scans these times, the data columns keep the ISO instant. */
const when = (v: unknown) => (typeof v === 'string' ? v.replace(/:\d\d(\.\d+)?Z$/, 'Z').replace('T', ' ') : null);

// At 80 columns: ID, NAME and CALL, the ids whole (issue 36, item 17); the rest as room allows.
const WATCH: TableColumn[] = [
  { header: 'ID', text: (r) => str(r.id), id: true },
  { header: 'NAME', text: (r) => str(r.name), min: 10 },
  { header: 'CALL', text: callTarget, id: true },
  { header: 'DATES', text: callDates, drop: 3 },
  { header: 'RULES', text: rulesText, min: 12, drop: 6 },
  { header: 'EVERY', text: (r) => minutesText(r.intervalMinutes), drop: 2 },
  { header: 'STATUS', text: (r) => str(r.status), drop: 7 },
  { header: 'NEXT RUN', text: (r) => when(r.nextRunAt), drop: 4 },
  { header: 'LAST RUN', text: lastRun, drop: 1 },
  { header: 'EVENTS', text: (r) => (typeof r.triggers === 'number' ? String(r.triggers) : null), align: 'right', drop: 5 },
];

const WATCH_FIELDS: Field[] = [
  { label: 'ID', text: (r) => str(r.id), wrap: 'none' },
  { label: 'NAME', text: (r) => str(r.name), wrap: 'words' },
  { label: 'CALL', text: callText, wrap: 'words' },
  { label: 'PARAMS', text: (r) => json(o(r.call).params), wrap: 'list' },
  { label: 'RULES', text: rulesText, wrap: 'list' },
  { label: 'EVERY', text: (r) => minutesText(r.intervalMinutes) },
  { label: 'CREDITS A DAY', text: (r) => (typeof r.maxCreditsPerDay === 'number' ? `at most ${r.maxCreditsPerDay}` : 'no cap') },
  { label: 'STATUS', text: (r) => str(r.status) },
  { label: 'ENDED BECAUSE', text: (r) => str(r.endedReason), wrap: 'words' },
  { label: 'CREATED', text: (r) => str(r.createdAt), wrap: 'none' },
  { label: 'NEXT RUN', text: (r) => str(r.nextRunAt), wrap: 'none' },
  {
    label: 'LAST RUN',
    text: (r) => {
      if (r.lastRun === null || r.lastRun === undefined) return null;
      const l = o(r.lastRun);
      const err = l.error ? `, ${String(o(l.error).code)}: ${String(o(l.error).message)}` : '';
      return `${String(l.at)} ${String(l.outcome)}, ${String(l.creditsCharged)} credits${err}`;
    },
    wrap: 'words',
  },
  { label: 'CREDITS TODAY', text: (r) => (typeof r.creditsToday === 'number' ? String(r.creditsToday) : null) },
  { label: 'RUNS', text: (r) => (typeof r.runs === 'number' ? String(r.runs) : null) },
  { label: 'EVENTS', text: (r) => (typeof r.triggers === 'number' ? String(r.triggers) : null) },
];

const col = (key: string, value: (r: Row) => Datum): DataColumn => ({ key, value });

const WATCH_DATA: DataColumn[] = [
  col('id', (r) => str(r.id)),
  col('name', (r) => str(r.name)),
  col('call_type', (r) => str(o(r.call).type)),
  col('platform', (r) => str(o(o(r.call).params).platform)),
  col('listing_id', (r) => str(o(o(r.call).params).listingId)),
  col('location', (r) => str(o(o(r.call).params).location)),
  col('params', (r) => json(o(r.call).params)),
  col('rules', (r) => json(r.rules)),
  col('interval_minutes', (r) => num(r.intervalMinutes)),
  col('max_credits_per_day', (r) => num(r.maxCreditsPerDay)),
  col('status', (r) => str(r.status)),
  col('ended_reason', (r) => str(r.endedReason)),
  col('created_at', (r) => str(r.createdAt)),
  col('next_run_at', (r) => str(r.nextRunAt)),
  col('last_run_at', (r) => str(o(r.lastRun).at)),
  col('last_outcome', (r) => str(o(r.lastRun).outcome)),
  col('last_credits_charged', (r) => num(o(r.lastRun).creditsCharged)),
  col('last_error_code', (r) => str(o(o(r.lastRun).error).code)),
  col('credits_today', (r) => num(r.creditsToday)),
  col('runs', (r) => num(r.runs)),
  col('triggers', (r) => num(r.triggers)),
];

/** A price rule's value before or after (the field the rule reads), else null. */
const priceOf = (r: Row, side: 'before' | 'after') => {
  const field = o(r.rule).field === 'totalPrice' ? 'totalPrice' : 'nightlyPrice';
  return num(o(r[side])[field]);
};
const currencyOf = (r: Row) => str(o(r.after).currency) ?? str(o(r.before).currency);

/** What changed, in a few words: "1,200.00 USD → 45.00 USD", "2 nights: 2027-03-01, 2027-03-02", "1 listing: Casa Azul (airbnb 123)". */
function changeText(r: Row): string | null {
  const type = o(r.rule).type;
  if (type === 'price_below' || type === 'price_drop') {
    const [b, a] = [priceOf(r, 'before'), priceOf(r, 'after')];
    const cur = currencyOf(r);
    return `${b === null ? 'first run' : money(b, cur)} → ${money(a, cur) ?? '-'}`;
  }
  const changes = Array.isArray(r.changes) ? (r.changes as Row[]) : [];
  if (type === 'new_listings') {
    const names = changes.map((l) => `${str(l.name) ?? '?'} (${String(l.platform)} ${String(l.listingId)})`);
    return `${changes.length} new listing${changes.length === 1 ? '' : 's'}: ${names.join(', ')}`;
  }
  const nights = changes.map((c) => {
    const m = o(c.minNights);
    return type === 'min_nights_changed' ? `${String(c.date)} ${String(m.from)}→${String(m.to)}` : String(c.date);
  });
  return `${changes.length} night${changes.length === 1 ? '' : 's'}: ${nights.join(', ')}`;
}

/** One watch's events (stays watch events ID): the watch is the one asked for. */
const EVENT: TableColumn[] = [
  { header: 'OCCURRED', text: (r) => when(r.occurredAt), drop: 2 },
  { header: 'RULE', text: (r) => ruleText(r.rule) },
  { header: 'CHANGE', text: changeText, min: 20 },
  { header: 'EVENT ID', text: (r) => str(r.id), id: true },
];

/**
 * The events of a `stays watch run`, of several watches: the watch's id whole (what stays watch
 * show and rm take) and its name (issue 36, item 17); the event id as room allows.
 */
const RUN_EVENT: TableColumn[] = [
  { header: 'OCCURRED', text: (r) => when(r.occurredAt), drop: 2 },
  { header: 'WATCH', text: (r) => str(r.watchId), id: true },
  { header: 'NAME', text: (r) => str(r.name), min: 10, drop: 3 },
  { header: 'RULE', text: (r) => ruleText(r.rule) },
  { header: 'CHANGE', text: changeText, min: 20 },
  { header: 'EVENT ID', text: (r) => str(r.id), id: true, drop: 1 },
];

const EVENT_FIELDS: Field[] = [
  { label: 'EVENT ID', text: (r) => str(r.id), wrap: 'none' },
  { label: 'WATCH', text: (r) => str(r.watchId), wrap: 'none' },
  { label: 'OCCURRED', text: (r) => str(r.occurredAt), wrap: 'none' },
  { label: 'RULE', text: (r) => ruleText(r.rule) },
  { label: 'CHANGE', text: changeText, wrap: 'list' },
];

const EVENT_DATA: DataColumn[] = [
  col('id', (r) => str(r.id)),
  col('watch_id', (r) => str(r.watchId)),
  col('occurred_at', (r) => str(r.occurredAt)),
  col('rule', (r) => str(o(r.rule).type)),
  col('amount', (r) => num(o(r.rule).amount)),
  col('percent', (r) => num(o(r.rule).percent)),
  col('field', (r) => str(o(r.rule).field)),
  col('price_before', (r) => priceOf(r, 'before')),
  col('price_after', (r) => priceOf(r, 'after')),
  col('currency', currencyOf),
  col('changes', (r) => (Array.isArray(r.changes) && r.changes.length > 0 ? JSON.stringify(r.changes) : null)),
];

/** The tsv/csv columns, for the commands' --help (columnListHelp). */
export const WATCH_COLUMN_KEYS = WATCH_DATA.map((c) => c.key);
export const WATCH_EVENT_COLUMN_KEYS = EVENT_DATA.map((c) => c.key);

const rowsOf = (data: unknown) => ({ rows: (Array.isArray(data) ? data : [data]) as Row[], single: !Array.isArray(data) });

/** A watch (stays watch add, show, rm) or a list of them (stays watch list). */
export const watchView = (data: unknown): View => ({ kind: null, ...rowsOf(data), data: WATCH_DATA, table: WATCH, fields: WATCH_FIELDS });

/** A watch's events (stays watch events). */
export const watchEventView = (data: unknown): View => ({ kind: null, ...rowsOf(data), data: EVENT_DATA, table: EVENT, fields: EVENT_FIELDS });

/** The events of a `stays watch run` (the data and fields of watchEventView; the table names each event's watch). */
export const watchRunEventView = (data: unknown): View => ({ kind: null, ...rowsOf(data), data: EVENT_DATA, table: RUN_EVENT, fields: EVENT_FIELDS });
