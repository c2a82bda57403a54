// What a result looks like as rows: the columns an analyst wants for each resource. The shape of
// `data` decides (so `stays jobs wait` renders a finished job like the call that started it).
type Row = Record<string, unknown>;
type Cell = string | number | boolean | null | undefined;

export interface Column {
  header: string;
  value: (row: Row) => Cell;
  /** Widest a table cell may be before it is cut (tsv and csv are never cut). */
  max?: number;
  /** Long values (URLs) are left out of tables and kept in tsv/csv. */
  wide?: boolean;
}

export interface View {
  rows: Row[];
  columns: Column[];
  /** A single resource: tables print it as field/value pairs. */
  single: boolean;
}

const o = (v: unknown) => (v ?? {}) as Row;
const money = (amount: unknown, currency: unknown) => (typeof amount === 'number' ? `${amount.toFixed(currency === 'JPY' || currency === 'KRW' ? 0 : 2)} ${String(currency)}` : null);
const rating = (value: unknown, scale: unknown) => (typeof value === 'number' ? `${value}/${String(scale)}` : null);
const yes = (v: unknown) => (v === null || v === undefined ? null : v ? 'yes' : 'no');

const PROPERTY: Column[] = [
  { header: 'NAME', value: (r) => r.name as string, max: 40 },
  { header: 'PLATFORM', value: (r) => r.platform as string },
  { header: 'TYPE', value: (r) => r.propertyType as string },
  { header: 'PRICE', value: (r) => money(o(r.price).totalPrice, o(r.price).currency) },
  { header: 'NIGHTLY', value: (r) => money(o(r.price).nightlyPrice, o(r.price).currency) },
  { header: 'RATING', value: (r) => rating(r.guestRating, r.ratingScale) },
  { header: 'REVIEWS', value: (r) => r.reviewCount as number },
  { header: 'BEDROOMS', value: (r) => r.bedrooms as number },
  { header: 'CITY', value: (r) => o(r.location).city as string, max: 20 },
  { header: 'LISTING ID', value: (r) => r.platformListingId as string, max: 32 },
  { header: 'URL', value: (r) => r.url as string, wide: true },
];

const PRICE: Column[] = [
  { header: 'PLATFORM', value: (r) => r.platform as string },
  { header: 'LISTING ID', value: (r) => r.listingId as string },
  { header: 'TOTAL', value: (r) => money(r.totalPrice, r.currency) },
  { header: 'NIGHTLY', value: (r) => money(r.nightlyPrice, r.currency) },
  { header: 'NIGHTS', value: (r) => r.nights as number },
  { header: 'CLEANING', value: (r) => money(o(r.fees).cleaning, r.currency) },
  { header: 'SERVICE', value: (r) => money(o(r.fees).service, r.currency) },
  { header: 'TAXES', value: (r) => money(o(r.fees).taxes, r.currency) },
  { header: 'URL', value: (r) => r.url as string, wide: true },
];

const OFFER: Column[] = [
  { header: 'SELLER', value: (r) => r.ota as string },
  { header: 'TOTAL', value: (r) => money(r.totalPrice, r.currency) },
  { header: 'NIGHTLY', value: (r) => money(r.nightlyPrice, r.currency) },
  { header: 'PLATFORM', value: (r) => r.platform as string },
  { header: 'LISTING ID', value: (r) => r.listingId as string, max: 32 },
  { header: 'URL', value: (r) => r.url as string, wide: true },
];

const DAY: Column[] = [
  { header: 'LISTING ID', value: (r) => r.listingId as string },
  { header: 'DATE', value: (r) => r.date as string },
  { header: 'AVAILABLE', value: (r) => yes(r.available) },
  { header: 'BOOKABLE', value: (r) => yes(r.bookable) },
  { header: 'MIN NIGHTS', value: (r) => r.minNights as number },
  { header: 'CHECK-IN', value: (r) => yes(r.checkIn) },
  { header: 'CHECK-OUT', value: (r) => yes(r.checkOut) },
];

const REVIEW: Column[] = [
  { header: 'DATE', value: (r) => r.date as string },
  { header: 'RATING', value: (r) => rating(r.rating, r.ratingScale) },
  { header: 'AUTHOR', value: (r) => r.author as string, max: 18 },
  { header: 'LANG', value: (r) => r.language as string },
  { header: 'TRIP', value: (r) => r.tripType as string, max: 12 },
  { header: 'TEXT', value: (r) => [r.title, r.text].filter(Boolean).join(': '), max: 60 },
  { header: 'REVIEW ID', value: (r) => r.reviewId as string, wide: true },
];

const ACCOUNT: Column[] = [
  { header: 'PLAN', value: (r) => o(r.plan).code as string },
  { header: 'STATUS', value: (r) => o(r.plan).status as string },
  { header: 'KEY', value: (r) => o(r.key).env as string },
  { header: 'BALANCE', value: (r) => o(r.credits).balance as number },
  { header: 'AVAILABLE', value: (r) => o(r.credits).available as number },
  { header: 'HELD', value: (r) => o(r.credits).held as number },
  { header: 'RPM', value: (r) => o(r.rateLimit).requestsPerMinute as number },
];

const JOB: Column[] = [
  { header: 'JOB ID', value: (r) => r.jobId as string },
  { header: 'STATUS', value: (r) => r.status as string },
  { header: 'ESTIMATED', value: (r) => (typeof r.estimatedSeconds === 'number' ? `${r.estimatedSeconds} s` : null) },
  { header: 'ERROR', value: (r) => (r.error ? `${o(r.error).code}: ${o(r.error).message}` : null), max: 60 },
  { header: 'POLL URL', value: (r) => r.pollUrl as string, wide: true },
];

function columnsFor(sample: Row): Column[] | null {
  if ('platformListingId' in sample) return PROPERTY;
  if ('reviewId' in sample) return REVIEW;
  if ('ota' in sample) return OFFER;
  if ('nightlyPrice' in sample && 'totalPrice' in sample) return PRICE;
  if ('plan' in sample && 'credits' in sample) return ACCOUNT;
  if ('jobId' in sample && 'status' in sample) return JOB;
  return null;
}

const generic = (rows: Row[]): Column[] =>
  [...new Set(rows.flatMap((r) => Object.keys(r)))].map((k) => ({
    header: k.toUpperCase(),
    value: (r: Row) => {
      const v = r[k];
      return v !== null && typeof v === 'object' ? JSON.stringify(v) : (v as Cell);
    },
    max: 40,
  }));

/** Rows and columns for any `data` the API returns. */
export function viewOf(data: unknown): View {
  if (Array.isArray(data)) {
    const rows = data as Row[];
    // Availability: one row per listing-day, flattened, as analysts read calendars.
    if (rows.length > 0 && Array.isArray(rows[0]?.dates)) {
      return { rows: rows.flatMap((a) => (a.dates as Row[]).map((d) => ({ listingId: a.listingId, ...d }))), columns: DAY, single: false };
    }
    return { rows, columns: (rows[0] && columnsFor(rows[0])) ?? PROPERTY, single: false };
  }
  const row = o(data);
  // A comparison is read as its offers; property, min and median go to the footer.
  if (Array.isArray(row.offers)) return { rows: row.offers as Row[], columns: OFFER, single: false };
  const cols = columnsFor(row);
  return { rows: [row], columns: cols ?? generic([row]), single: true };
}

export function cellText(v: Cell): string {
  if (v === null || v === undefined) return '';
  return String(v);
}
