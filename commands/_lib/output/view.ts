// What a result looks like: the view each command names for its result (a Kind, or a builder for
// a shape no Kind covers), which says where the rows are in `data`, the tsv/csv columns
// (columns.ts), the table columns (with what a narrow terminal may shrink or drop first, table.ts)
// and, for a single resource, the fields of its vertical key/value view. The printer never guesses
// a result's kind from its keys: a command says what it prints (`stays jobs get|wait`, whose poll
// does not name the call, is the one reader of shapes: jobs/result-view.ts).
import { DATA_COLUMNS, type Datum, type Kind, type Row } from './columns.js';
import { grouped, money, rating } from './numbers.js';
import { STAY_FIELDS, STAY_PART_ROWS, STAY_TABLES, projectedView } from './view-stays.js';
import { HISTORY_FIELDS, HISTORY_TABLES } from './view-history.js';
import type { Field, TableColumn, View, ViewOf, ViewSpec } from './view-types.js';

export type { View, ViewOf, ViewSpec } from './view-types.js';

const o = (v: unknown) => (v ?? {}) as Row;
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
const plain = (v: unknown) => (typeof v === 'number' ? String(v) : null);
const yes = (v: unknown) => (typeof v === 'boolean' ? (v ? 'yes' : 'no') : null);
const plural = (n: number, one: string, many = `${one}s`) => `${grouped(n, 0)} ${n === 1 ? one : many}`;

export { money } from './numbers.js';
const count = (v: unknown) => (typeof v === 'number' ? grouped(v, 0) : null);

const PROPERTY: TableColumn[] = [
  { header: 'NAME', text: (r) => str(r.name), min: 20 },
  { header: 'PLATFORM', text: (r) => str(r.platform) },
  { header: 'TYPE', text: (r) => str(r.propertyType), drop: 2 },
  // The service sorts price_asc/price_desc by the nightly price: it comes first.
  { header: 'NIGHTLY', text: (r) => money(o(r.price).nightlyPrice, o(r.price).currency), align: 'right', drop: 7 },
  { header: 'TOTAL', text: (r) => money(o(r.price).totalPrice, o(r.price).currency), align: 'right', drop: 5 },
  { header: 'RATING', text: (r) => rating(r.guestRating, r.ratingScale), align: 'right', drop: 6 },
  { header: 'REVIEWS', text: (r) => count(r.reviewCount), align: 'right', drop: 4 },
  { header: 'BEDROOMS', text: (r) => plain(r.bedrooms), align: 'right', drop: 3 },
  { header: 'CITY', text: (r) => str(o(r.location).city), min: 10, drop: 1 },
  { header: 'LISTING ID', text: (r) => str(r.platformListingId), id: true },
];

const fees = (p: Row): string | null => {
  const f = o(p.fees);
  const parts = (['cleaning', 'service', 'taxes'] as const).filter((k) => typeof f[k] === 'number').map((k) => `${k} ${money(f[k], p.currency)}`);
  return parts.length ? parts.join(', ') : null;
};

const guests = (p: Row): string | null => {
  const occ = o(p.occupancy);
  if (typeof occ.adults !== 'number') return null;
  const ages = Array.isArray(occ.childAges) && occ.childAges.length ? ` (ages ${occ.childAges.join(', ')})` : '';
  return typeof occ.children === 'number' && occ.children > 0 ? `${plural(occ.adults, 'adult')}, ${plural(occ.children, 'child', 'children')}${ages}` : plural(occ.adults, 'adult');
};

/** A quote's lines: the same NIGHTLY and TOTAL as the search table. */
const priceFields = (of: (r: Row) => Row): Field[] => [
  { label: 'NIGHTLY', text: (r) => money(of(r).nightlyPrice, of(r).currency) },
  {
    label: 'TOTAL',
    text: (r) => {
      const t = money(of(r).totalPrice, of(r).currency);
      const n = of(r).nights;
      return t && typeof n === 'number' ? `${t} for ${plural(n, 'night')}` : t;
    },
  },
  { label: 'FEES', text: (r) => fees(of(r)), wrap: 'list' },
  { label: 'GUESTS', text: (r) => guests(of(r)) },
];

/** Address parts, each left out when an earlier one already says it ("Rua Augusta 177, Lisbon", "Lisbon"). */
const address = (r: Row): string | null => {
  const l = o(r.location);
  const parts: string[] = [];
  for (const p of [l.address, l.city, l.region, l.country]) {
    if (typeof p === 'string' && p !== '' && !parts.some((q) => q.toLowerCase().includes(p.toLowerCase()))) parts.push(p);
  }
  return parts.length ? parts.join(', ') : null;
};

const identity = (r: Row): string | null => {
  const id = o(r.identity);
  const [asked, got] = [str(id.requestedId), str(id.resolvedId)];
  if (!got) return null;
  return !asked || asked === got ? `${got} (as requested)` : `${asked} resolved to ${got}`;
};

/** `stays listing`: the listing itself, not a search row. */
const LISTING: Field[] = [
  { label: 'NAME', text: (r) => str(r.name), wrap: 'words' },
  { label: 'PLATFORM', text: (r) => str(r.platform) },
  { label: 'LISTING ID', text: (r) => str(r.platformListingId), wrap: 'none' },
  { label: 'ID', text: (r) => str(r.id), wrap: 'none' },
  { label: 'TYPE', text: (r) => str(r.propertyType) },
  { label: 'HOST', text: (r) => str(o(r.host).name), wrap: 'words' },
  { label: 'SUPERHOST', text: (r) => yes(o(r.host).isSuperhost) },
  {
    label: 'RATING',
    text: (r) => {
      const g = rating(r.guestRating, r.ratingScale);
      return g && typeof r.reviewCount === 'number' ? `${g} (${plural(r.reviewCount, 'review')})` : g;
    },
  },
  { label: 'STARS', text: (r) => (typeof r.starRating === 'number' ? plural(r.starRating, 'star') : null) },
  { label: 'BEDROOMS', text: (r) => plain(r.bedrooms) },
  { label: 'BATHROOMS', text: (r) => plain(r.bathrooms) },
  { label: 'OCCUPANCY', text: (r) => (typeof r.maxOccupancy === 'number' ? `up to ${plural(r.maxOccupancy, 'guest')}` : null) },
  { label: 'ADDRESS', text: address, wrap: 'words' },
  {
    label: 'COORDINATES',
    text: (r) => {
      const l = o(r.location);
      return typeof l.lat === 'number' && typeof l.lng === 'number' ? `${l.lat},${l.lng}` : null;
    },
  },
  { label: 'AMENITIES', text: (r) => (Array.isArray(r.amenities) && r.amenities.length ? r.amenities.join(', ') : null), wrap: 'list' },
  { label: 'IMAGES', text: (r) => (Array.isArray(r.images) ? grouped(r.images.length, 0) : null) },
  { label: 'URL', text: (r) => str(r.url), wrap: 'none' },
  { label: 'IDENTITY', text: identity, wrap: 'none' },
  {
    label: 'CANONICAL URL',
    text: (r) => {
      const c = str(o(r.identity).canonicalUrl);
      return c && c !== r.url ? c : null;
    },
    wrap: 'none',
  },
  ...priceFields((r) => o(r.price)),
];

const PRICE: TableColumn[] = [
  { header: 'PLATFORM', text: (r) => str(r.platform) },
  { header: 'NIGHTLY', text: (r) => money(r.nightlyPrice, r.currency), align: 'right' },
  { header: 'TOTAL', text: (r) => money(r.totalPrice, r.currency), align: 'right' },
  { header: 'NIGHTS', text: (r) => plain(r.nights), align: 'right', drop: 4 },
  { header: 'CLEANING', text: (r) => money(o(r.fees).cleaning, r.currency), align: 'right', drop: 1 },
  { header: 'SERVICE', text: (r) => money(o(r.fees).service, r.currency), align: 'right', drop: 2 },
  { header: 'TAXES', text: (r) => money(o(r.fees).taxes, r.currency), align: 'right', drop: 3 },
  { header: 'LISTING ID', text: (r) => str(r.listingId), id: true },
];

const PRICE_FIELDS: Field[] = [
  { label: 'PLATFORM', text: (r) => str(r.platform) },
  { label: 'LISTING ID', text: (r) => str(r.listingId), wrap: 'none' },
  ...priceFields((r) => r),
  { label: 'SOURCE', text: (r) => (r.source !== r.platform ? str(r.source) : null) },
  { label: 'URL', text: (r) => str(r.url), wrap: 'none' },
];

// compare ranks sellers on the total price: it comes first.
const OFFER: TableColumn[] = [
  { header: 'SELLER', text: (r) => str(r.ota), min: 12 },
  { header: 'TOTAL', text: (r) => money(r.totalPrice, r.currency), align: 'right' },
  { header: 'NIGHTLY', text: (r) => money(r.nightlyPrice, r.currency), align: 'right', drop: 2 },
  { header: 'NIGHTS', text: (r) => plain(r.nights), align: 'right', drop: 1 },
  { header: 'PLATFORM', text: (r) => str(r.platform) },
  { header: 'LISTING ID', text: (r) => str(r.listingId), id: true },
];

const DAY: TableColumn[] = [
  { header: 'LISTING ID', text: (r) => str(r.listingId), id: true },
  { header: 'DATE', text: (r) => str(r.date) },
  { header: 'AVAILABLE', text: (r) => yes(r.available) },
  { header: 'BOOKABLE', text: (r) => yes(r.bookable) },
  { header: 'MIN NIGHTS', text: (r) => plain(r.minNights), align: 'right', drop: 3 },
  { header: 'CHECK-IN', text: (r) => yes(r.checkIn), drop: 2 },
  { header: 'CHECK-OUT', text: (r) => yes(r.checkOut), drop: 1 },
];

const REVIEW: TableColumn[] = [
  { header: 'DATE', text: (r) => str(r.date) },
  { header: 'RATING', text: (r) => rating(r.rating, r.ratingScale), align: 'right' },
  { header: 'AUTHOR', text: (r) => str(r.author), min: 10, drop: 3 },
  { header: 'LANG', text: (r) => str(r.language), drop: 1 },
  { header: 'TRIP', text: (r) => str(r.tripType), min: 8, drop: 2 },
  { header: 'TEXT', text: (r) => [r.title, r.text].filter((t) => typeof t === 'string' && t !== '').join(': ') || null, min: 20 },
];

const REVIEW_FIELDS: Field[] = [
  { label: 'DATE', text: (r) => str(r.date) },
  { label: 'RATING', text: (r) => rating(r.rating, r.ratingScale) },
  { label: 'AUTHOR', text: (r) => str(r.author) },
  { label: 'TITLE', text: (r) => str(r.title), wrap: 'words' },
  { label: 'TEXT', text: (r) => str(r.text), wrap: 'words' },
  { label: 'REVIEW ID', text: (r) => str(r.reviewId), wrap: 'none' },
];

const ACCOUNT: TableColumn[] = [
  { header: 'PLAN', text: (r) => str(o(r.plan).code) },
  { header: 'STATUS', text: (r) => str(o(r.plan).status) },
  { header: 'KEY', text: (r) => str(o(r.key).env) },
  { header: 'BALANCE', text: (r) => count(o(r.credits).balance), align: 'right' },
  { header: 'AVAILABLE', text: (r) => count(o(r.credits).available), align: 'right' },
  { header: 'HELD', text: (r) => count(o(r.credits).held), align: 'right', drop: 2 },
  { header: 'RPM', text: (r) => count(o(r.rateLimit).requestsPerMinute), align: 'right', drop: 1 },
];

const JOB: TableColumn[] = [
  { header: 'JOB ID', text: (r) => str(r.jobId), id: true },
  { header: 'STATUS', text: (r) => str(r.status) },
  { header: 'ESTIMATED', text: (r) => (typeof r.estimatedSeconds === 'number' ? `${r.estimatedSeconds} s` : null), align: 'right', drop: 1 },
  { header: 'ERROR', text: (r) => (r.error ? `${String(o(r.error).code)}: ${String(o(r.error).message)}` : null), min: 20 },
];

const fieldsOf = (cols: TableColumn[]): Field[] => cols.map((c) => ({ label: c.header, text: c.text, wrap: c.id ? 'none' : 'words' }));

const TABLES: Record<Kind, TableColumn[]> = { property: PROPERTY, price: PRICE, offer: OFFER, day: DAY, review: REVIEW, account: ACCOUNT, job: JOB, ...HISTORY_TABLES, ...STAY_TABLES };
const FIELDS: Record<Kind, Field[]> = {
  property: LISTING,
  price: PRICE_FIELDS,
  offer: fieldsOf(OFFER),
  day: fieldsOf(DAY),
  review: REVIEW_FIELDS,
  account: [
    {
      label: 'PLAN',
      text: (r) => {
        const p = o(r.plan);
        return str(p.code) && str(p.name) && p.name !== p.code ? `${p.code} (${p.name})` : str(p.code);
      },
    },
    { label: 'STATUS', text: (r) => str(o(r.plan).status) },
    { label: 'KEY', text: (r) => str(o(r.key).env) },
    { label: 'BALANCE', text: (r) => count(o(r.credits).balance) },
    { label: 'AVAILABLE', text: (r) => count(o(r.credits).available) },
    { label: 'HELD', text: (r) => count(o(r.credits).held) },
    { label: 'EXPIRING SOON', text: (r) => count(o(r.credits).expiringSoon) },
    {
      label: 'RATE LIMIT',
      text: (r) => {
        const n = o(r.rateLimit).requestsPerMinute;
        return typeof n === 'number' ? `${grouped(n, 0)} requests a minute` : null;
      },
    },
  ],
  job: [...fieldsOf(JOB), { label: 'POLL URL', text: (r) => str(r.pollUrl), wrap: 'none' }],
  ...HISTORY_FIELDS,
  ...STAY_FIELDS,
};

const snake = (k: string) =>
  k
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toLowerCase();
const generic = (v: unknown): Datum => (v !== null && typeof v === 'object' ? JSON.stringify(v) : (v as Datum));

/** Rows as they come: a list is its rows, an object one resource (printed as fields). */
const rowsOf = (data: unknown): { rows: Row[]; single: boolean } => (Array.isArray(data) ? { rows: data as Row[], single: false } : { rows: [o(data)], single: true });

/**
 * Rows printed by the keys given (snake_case columns, objects as JSON), for a result whose command
 * knows its keys but no Kind describes it (stays match's candidates and decisions).
 */
export const keysView =
  (keys: readonly string[]): ViewOf =>
  (data) => {
    const { rows, single } = rowsOf(data);
    const text = (k: string) => (r: Row) => (r[k] === null || r[k] === undefined ? null : String(generic(r[k])));
    return {
      kind: null,
      rows,
      single,
      data: keys.map((k) => ({ key: snake(k), value: (r: Row) => generic(r[k]) })),
      table: keys.map((k) => ({ header: snake(k).replace(/_/g, ' ').toUpperCase(), text: text(k), min: 10 })),
      fields: keys.map((k) => ({ label: snake(k).replace(/_/g, ' ').toUpperCase(), text: text(k), wrap: 'words' })),
    };
  };

/**
 * The generic fallback, for a result no command describes: its rows by their own keys. Only
 * `stays jobs get|wait` reaches it (jobs/result-view.ts: a job's poll does not name the call that
 * started it), for a result that is none of the calls that run as jobs. `stays api` prints raw
 * bodies as JSON and needs no view.
 */
export const ownKeysView: ViewOf = (data) => keysView([...new Set(rowsOf(data).rows.flatMap((r) => Object.keys(r)))])(data);

/**
 * Where a Kind's rows are in `data`, when they are not `data` itself: availability is read one row
 * per listing-day (flattened, as analysts read calendars), a comparison as its offers (property,
 * min and median go to the footer), a calendar's history as its changes (the latest snapshot is
 * the command's summary line), a booking inference as its bookings (the nights by state are the
 * summary line), and a stay's listed parts as their items, each with the stay's id.
 */
const ROWS: Partial<Record<Kind, (data: unknown) => Row[]>> = {
  day: (d) => (Array.isArray(d) ? (d as Row[]) : []).flatMap((a) => (Array.isArray(a.dates) ? (a.dates as Row[]) : []).map((x) => ({ platform: a.platform, listingId: a.listingId, ...x }))),
  offer: (d) => (Array.isArray(o(d).offers) ? (o(d).offers as Row[]) : []),
  calendar_change: (d) => (Array.isArray(o(d).changes) ? (o(d).changes as Row[]) : []),
  inferred_booking: (d) => (Array.isArray(o(d).bookings) ? (o(d).bookings as Row[]) : []),
  ...STAY_PART_ROWS,
};

/** A Kind's view of `data`: its rows (ROWS says where, when not `data` itself) with the Kind's columns. */
export function kindView(kind: Kind, data: unknown): View {
  const at = ROWS[kind];
  const { rows, single } = at ? { rows: at(data), single: false } : rowsOf(data);
  return { kind, rows, single, data: DATA_COLUMNS[kind], table: TABLES[kind], fields: FIELDS[kind] };
}

/**
 * The view a command says its result prints with (a Kind or a builder; null where the command
 * prints only JSON, a programming error if a table, tsv or csv is asked for there); with `paths`
 * (Family S --fields), the rows are projections and the columns those paths.
 */
export function viewOf(data: unknown, view: ViewSpec | null, paths: string[] | null = null): View {
  if (paths !== null) return projectedView(data, paths);
  if (view === null) throw new Error('internal: this command prints JSON here and names no view for a table, tsv or csv');
  return typeof view === 'function' ? view(data) : kindView(view, data);
}

/** A tsv/csv cell: numbers as JavaScript writes them (255.62), booleans true/false, unknown empty. */
export function dataText(v: Datum): string {
  if (v === null || v === undefined) return '';
  return String(v);
}
