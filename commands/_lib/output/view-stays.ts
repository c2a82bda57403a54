// What a Family S result looks like (snake_case data): a stay (search, batch and lookup rows), the
// rows or fields of one of its parts (`stays stay get --part`, which names the part's Kind), and
// rows projected with --fields, whose columns are the paths asked for.
import type { DataColumn, Datum, Row, StayKind } from './columns.js';
import { grouped, money, rating } from './numbers.js';
import type { Field, TableColumn, View } from './view-types.js';

const o = (v: unknown) => (v ?? {}) as Row;
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
const plain = (v: unknown) => (typeof v === 'number' ? String(v) : null);
const yes = (v: unknown) => (typeof v === 'boolean' ? (v ? 'yes' : 'no') : null);
const plural = (n: number, one: string, many = `${one}s`) => `${grouped(n, 0)} ${n === 1 ? one : many}`;
/**
 * Family S is airbnb, whose ratings are out of 5: written as Family U tables write them ("4.5/5",
 * issue 22 item 18), star_rating included (it holds the guest rating when there are no stars).
 */
const S_RATING_SCALE = 5;
const stars = (v: unknown) => rating(v, S_RATING_SCALE);
const amenityItems = (v: unknown) => (Array.isArray(v) ? v.flatMap((g) => (Array.isArray(o(g).items) ? (o(g).items as string[]) : [])) : []);
const price = (p: Row) => {
  const m = money(p.price, p.currency);
  return m && typeof p.rate_type === 'string' ? `${m} ${p.rate_type}` : m;
};

const address = (l: Row): string | null => {
  const parts: string[] = [];
  for (const p of [l.address, l.city, l.country]) {
    if (typeof p === 'string' && p !== '' && !parts.some((q) => q.toLowerCase().includes(p.toLowerCase()))) parts.push(p);
  }
  return parts.length ? parts.join(', ') : null;
};
const coordinates = (l: Row) => (typeof l.latitude === 'number' && typeof l.longitude === 'number' ? `${l.latitude},${l.longitude}` : null);

const STAY: TableColumn[] = [
  { header: 'TITLE', text: (r) => str(r.title), min: 20 },
  { header: 'TYPE', text: (r) => str(r.room_type) ?? str(r.property_type), min: 10, drop: 2 },
  { header: 'NIGHTLY', text: (r) => money(o(r.pricing).price, o(r.pricing).currency), align: 'right', drop: 6 },
  { header: 'RATING', text: (r) => stars(r.star_rating), align: 'right', drop: 5 },
  { header: 'REVIEWS', text: (r) => (typeof r.reviews_count === 'number' ? grouped(r.reviews_count, 0) : null), align: 'right', drop: 4 },
  { header: 'GUESTS', text: (r) => plain(r.person_capacity), align: 'right', drop: 3 },
  { header: 'SUPERHOST', text: (r) => yes(o(r.host).is_superhost), drop: 1 },
  { header: 'CITY', text: (r) => str(o(r.location).city), min: 10, drop: 1 },
  { header: 'ID', text: (r) => str(r.id), id: true },
];

const hostLine = (h: Row) => {
  const name = str(h.name);
  if (!name) return null;
  return `${name}${h.is_superhost === true ? ' (superhost)' : ''}${typeof h.rating === 'number' ? `, rated ${h.rating}` : ''}`;
};

const STAY_FIELDS_VIEW: Field[] = [
  { label: 'TITLE', text: (r) => str(r.title), wrap: 'words' },
  { label: 'ID', text: (r) => str(r.id), wrap: 'none' },
  { label: 'TYPE', text: (r) => [str(r.property_type), str(r.room_type)].filter(Boolean).join(', ') || null },
  { label: 'GUESTS', text: (r) => (typeof r.person_capacity === 'number' ? `up to ${plural(r.person_capacity, 'guest')}` : null) },
  {
    label: 'RATING',
    text: (r) => {
      const s = stars(r.star_rating);
      return s && typeof r.reviews_count === 'number' ? `${s} (${plural(r.reviews_count, 'review')})` : s;
    },
  },
  { label: 'PRICE', text: (r) => price(o(r.pricing)) },
  { label: 'HOST', text: (r) => hostLine(o(r.host)), wrap: 'words' },
  { label: 'ADDRESS', text: (r) => address(o(r.location)), wrap: 'words' },
  { label: 'COORDINATES', text: (r) => coordinates(o(r.location)) },
  { label: 'AMENITIES', text: (r) => amenityItems(r.amenities).join(', ') || null, wrap: 'list' },
  { label: 'PHOTOS', text: (r) => (Array.isArray(r.photos) ? grouped(r.photos.length, 0) : null) },
  {
    label: 'AVAILABLE',
    text: (r) =>
      Array.isArray(r.availability) && r.availability.length ? `${r.availability.filter((d) => o(d).available === true).length} of the next ${plural(r.availability.length, 'day')}` : null,
  },
  { label: 'DESCRIPTION', text: (r) => str(r.description), wrap: 'words' },
  { label: 'URL', text: (r) => str(r.url), wrap: 'none' },
];

const PHOTO: TableColumn[] = [
  { header: 'URL', text: (r) => str(r.url), id: true },
  { header: 'CAPTION', text: (r) => str(r.caption), min: 10, drop: 1 },
];
const REVIEW: TableColumn[] = [
  { header: 'DATE', text: (r) => str(r.created_at) },
  { header: 'RATING', text: (r) => stars(r.rating), align: 'right' },
  { header: 'AUTHOR', text: (r) => str(r.author_name), min: 10, drop: 1 },
  { header: 'TEXT', text: (r) => str(r.text), min: 20 },
];
const AMENITY: TableColumn[] = [
  { header: 'CATEGORY', text: (r) => str(r.category) },
  { header: 'ITEMS', text: (r) => (Array.isArray(r.items) ? r.items.join(', ') : null), min: 20 },
];
const DAY: TableColumn[] = [
  { header: 'DATE', text: (r) => str(r.date) },
  { header: 'AVAILABLE', text: (r) => yes(r.available) },
  { header: 'MIN NIGHTS', text: (r) => plain(r.min_nights), align: 'right', drop: 2 },
  { header: 'PRICE', text: (r) => money(r.price, null), align: 'right', drop: 1 },
];

const RATING_KEYS = ['accuracy', 'cleanliness', 'communication', 'location', 'value', 'check_in', 'guest_satisfaction'] as const;
const fields: Partial<Record<StayKind, Field[]>> = {
  stay: STAY_FIELDS_VIEW,
  stay_host: [
    { label: 'STAY ID', text: (r) => str(r.id), wrap: 'none' },
    { label: 'HOST', text: (r) => str(o(r.host).name), wrap: 'words' },
    { label: 'HOST ID', text: (r) => str(o(r.host).id), wrap: 'none' },
    { label: 'SUPERHOST', text: (r) => yes(o(r.host).is_superhost) },
    { label: 'RATING', text: (r) => plain(o(r.host).rating) },
    { label: 'PROFILE', text: (r) => str(o(r.host).profile_url), wrap: 'none' },
    { label: 'IMAGE', text: (r) => str(o(r.host).profile_image_url), wrap: 'none' },
  ],
  stay_pricing: [
    { label: 'STAY ID', text: (r) => str(r.id), wrap: 'none' },
    { label: 'PRICE', text: (r) => price(o(r.pricing)) ?? 'not known without dates (stays stay get ID --part pricing --check-in D --check-out D)' },
    {
      label: 'BREAKDOWN',
      text: (r) => {
        const b = o(r.pricing).breakdown;
        return Array.isArray(b) && b.length ? b.map((x) => `${String(o(x).label)} ${money(o(x).amount, o(r.pricing).currency)}`).join(', ') : null;
      },
      wrap: 'list',
    },
  ],
  stay_location: [
    { label: 'STAY ID', text: (r) => str(r.id), wrap: 'none' },
    { label: 'ADDRESS', text: (r) => address(o(r.location)), wrap: 'words' },
    { label: 'COORDINATES', text: (r) => coordinates(o(r.location)) },
  ],
  stay_rating: [
    { label: 'STAY ID', text: (r) => str(r.id), wrap: 'none' },
    { label: 'RATING', text: (r) => stars(r.star_rating) },
    { label: 'REVIEWS', text: (r) => (typeof r.reviews_count === 'number' ? grouped(r.reviews_count, 0) : null) },
    ...RATING_KEYS.map((k): Field => ({ label: k.replace(/_/g, ' ').toUpperCase(), text: (r) => plain(o(r.rating_breakdown)[k]) })),
  ],
};

const fieldsOf = (cols: TableColumn[]): Field[] => cols.map((c) => ({ label: c.header, text: c.text, wrap: c.id ? 'none' : 'words' }));
/** The single-object parts as one-row tables (rarely wanted: they print as fields). */
const rowOf = (f: Field[]): TableColumn[] => f.map((x) => ({ header: x.label, text: x.text, min: 10 }));

export const STAY_TABLES: Record<StayKind, TableColumn[]> = {
  stay: STAY,
  stay_photo: PHOTO,
  stay_review: REVIEW,
  stay_amenity: AMENITY,
  stay_day: DAY,
  stay_host: rowOf(fields.stay_host!),
  stay_pricing: rowOf(fields.stay_pricing!),
  stay_location: rowOf(fields.stay_location!),
  stay_rating: rowOf(fields.stay_rating!),
};
export const STAY_FIELDS: Record<StayKind, Field[]> = {
  stay: STAY_FIELDS_VIEW,
  stay_photo: fieldsOf(PHOTO),
  stay_review: fieldsOf(REVIEW),
  stay_amenity: fieldsOf(AMENITY),
  stay_day: fieldsOf(DAY),
  stay_host: fields.stay_host!,
  stay_pricing: fields.stay_pricing!,
  stay_location: fields.stay_location!,
  stay_rating: fields.stay_rating!,
};

/** A part's list, one row per item, each carrying the stay's id. */
const itemsOf =
  (key: string) =>
  (data: unknown): Row[] => {
    const r = o(data);
    return Array.isArray(r[key]) ? (r[key] as Row[]).map((x) => ({ stay_id: r.id, ...x })) : [];
  };

/** The parts of a stay that are lists (stays stay get --part photos|amenities|availability|reviews): their items are the rows. */
export const STAY_PART_ROWS = {
  stay_photo: itemsOf('photos'),
  stay_amenity: itemsOf('amenities'),
  stay_day: itemsOf('availability'),
  stay_review: itemsOf('reviews'),
} satisfies Partial<Record<StayKind, (data: unknown) => Row[]>>;

/** A dotted path's value: through arrays, every item's (joined with commas). */
function at(v: unknown, path: string[]): unknown {
  if (path.length === 0) return v;
  if (Array.isArray(v)) return v.map((x) => at(x, path));
  if (v === null || typeof v !== 'object') return undefined;
  return at((v as Row)[path[0]!], path.slice(1));
}
const datum = (v: unknown): Datum => {
  if (Array.isArray(v)) return v.every((x) => x === null || typeof x !== 'object') ? v.join(',') : JSON.stringify(v);
  return v !== null && typeof v === 'object' ? JSON.stringify(v) : (v as Datum);
};

/** --fields: the columns are the projected paths, in the order asked, headed by the paths themselves. */
export function projectedView(data: unknown, paths: string[]): View {
  const single = !Array.isArray(data);
  const rows = (single ? [data] : data) as Row[];
  const cols: DataColumn[] = paths.map((p) => ({ key: p, value: (r: Row) => datum(at(r, p.split('.'))) }));
  const text = (c: DataColumn) => (r: Row) => {
    const v = c.value(r);
    return v === null || v === undefined || v === '' ? null : String(v);
  };
  return {
    kind: null,
    rows,
    single,
    data: cols,
    table: cols.map((c) => ({ header: c.key.toUpperCase(), text: text(c), ...(c.key === 'id' ? { id: true } : { min: 10 }) })),
    fields: cols.map((c) => ({ label: c.key.toUpperCase(), text: text(c), wrap: c.key === 'id' || c.key.endsWith('url') ? 'none' : 'words' })),
  };
}
