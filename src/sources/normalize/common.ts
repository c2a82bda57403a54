// Shared pieces of the per-platform normalizers: contexts, tolerant field readers, canonical ids,
// and the builders that give every unified object one key order (the sandbox world's), so a
// normalized answer serializes byte-for-byte like the world's own.
import { ServiceError } from '../../core/errors.js';
import { listingUrl, parseListingId, staysId } from '../../core/listing-ref.js';
import { type EnabledPlatform, RATING_SCALE } from '../../core/platforms.js';
import { type Includes, priceParts } from '../../core/price-parts.js';
import type { Availability, AvailabilityDay, Price, Property, PropertyType } from '../../core/schemas/resources.js';
import type { StayQuery } from '../../core/upstream.js';

/** Search rows: a stay makes the row's price readable (occupancy and currency come from the request). */
export interface SearchContext {
  stay?: StayQuery | undefined;
}
/** Quotes: the stay asked for. Airbnb money text carries no currency, so the request's is used. */
export interface PriceContext {
  stay: StayQuery;
}
/** Calendars: the listing asked for (day rows do not name it) and the window, when known. */
export interface CalendarContext {
  listingId: string;
  startDate?: string | undefined;
  endDate?: string | undefined;
}
/** Reviews: the listing asked for; a row's own startUrl is used only without it. */
export interface ReviewContext {
  listingId?: string | undefined;
}

/** Listing detail as the upstream port answers it: no price, no identity (composed at read time). */
export type ListingBody = Omit<Property, 'price' | 'identity'>;

/** A row we cannot turn into a unified object: a failure of this source, so the chain moves on. */
export function unusable(platform: EnabledPlatform, what: string): never {
  throw new ServiceError('all_actors_failed', `${platform}: an upstream row ${what}, so it cannot be normalized.`);
}

/**
 * The canonical native id from the first candidate that reads as one (a native id, a stays_ id or a
 * listing URL), through the same parser as user input. Numbers are taken only while exact: airbnb
 * ids beyond 2^53 lose digits as numbers (research 2.1 #7).
 */
export function idFrom(platform: EnabledPlatform, candidates: readonly unknown[]): string {
  for (const c of candidates) {
    const s = typeof c === 'number' && Number.isSafeInteger(c) ? String(c) : typeof c === 'string' ? c : null;
    if (s === null || s.trim() === '') continue;
    try {
      return parseListingId(platform, s, { param: 'id' });
    } catch (e) {
      if (!(e instanceof ServiceError)) throw e;
    }
  }
  return unusable(platform, 'has no usable listing id or url');
}

export function str(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const s = v.trim();
  return s === '' ? null : s;
}

/** A number, or a numeric string (booking sends lat/lng and older builds stars as strings). */
export function num(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && /^\s*-?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?\s*$/i.test(v)) return Number(v);
  return null;
}

export function nonNeg(v: unknown): number | null {
  const n = num(v);
  return n !== null && n >= 0 ? n : null;
}

export function count(v: unknown): number | null {
  const n = num(v);
  return n !== null && Number.isInteger(n) && n >= 0 ? n : null;
}

export function positiveInt(v: unknown): number | null {
  const n = count(v);
  return n !== null && n > 0 ? n : null;
}

export function bool(v: unknown): boolean | null {
  return typeof v === 'boolean' ? v : null;
}

/** YYYY-MM-DD from a date or an ISO timestamp ("2024-07-15T22:43:11Z" → "2024-07-15"), else null. */
export function isoDate(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/.exec(v.trim());
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCDate() === Number(m[3]) && d.getUTCMonth() === Number(m[2]) - 1 ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

/** Nights of a stay: whole days between the dates, at least 1 (as quotes count them). */
export function nightsOf(checkIn: string, checkOut: string): number {
  const ms = Date.parse(`${checkOut}T00:00:00Z`) - Date.parse(`${checkIn}T00:00:00Z`);
  return Number.isFinite(ms) ? Math.max(1, Math.round(ms / 86_400_000)) : 1;
}

/** An ISO-4217 code, or the fallback (booking rooms send a symbol such as "€ " instead). */
export function currencyOf(v: unknown, fallback: string): string {
  const s = str(v);
  return s !== null && /^[A-Za-z]{3}$/.test(s) ? s.toUpperCase() : fallback;
}

export function countryCode(v: unknown): string | null {
  const s = str(v);
  return s !== null && /^[A-Za-z]{2}$/.test(s) ? s.toUpperCase() : null;
}

/** An http(s) URL (images, offer links), else null. */
export function httpUrl(v: unknown): string | null {
  const s = str(v);
  if (s === null) return null;
  try {
    const u = new URL(s);
    return u.protocol === 'https:' || u.protocol === 'http:' ? s : null;
  } catch {
    return null;
  }
}

/** ISO-639-1 from "en", "en-US", "pt_BR"; anything else is null. */
export function language(v: unknown): string | null {
  const m = /^([A-Za-z]{2})(?:[-_][A-Za-z0-9]+)*$/.exec(str(v) ?? '');
  return m ? m[1]!.toLowerCase() : null;
}

/** Trip types as the platforms word them ("Couple", "Solo traveller", "Traveled with family"). */
export function tripType(v: unknown): string | null {
  const s = str(v)?.toLowerCase();
  if (s === undefined) return null;
  if (/famil/.test(s)) return 'family';
  if (/couple|partner/.test(s)) return 'couple';
  if (/solo|alone/.test(s)) return 'solo';
  if (/business|work/.test(s)) return 'business';
  if (/group|friends/.test(s)) return 'group';
  return s.replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '') || null;
}

// Ordered: the catch-all "other" kinds first so "Guest house" is not a house, then the specific kinds.
const TYPE_RULES: readonly (readonly [PropertyType, RegExp])[] = [
  ['other', /guest ?house|bed (?:and|&) breakfast|\bb ?& ?b\b|\bcamp|\bboat|farm ?stay|\btent\b|yurt|\brv\b|capsule/],
  ['villa', /villa/],
  ['cottage', /cottage|cabin|chalet|lodge|bungalow/],
  ['hotel', /hotel|hostel|resort|motel|\binn\b/],
  ['apartment', /apartment|\bapt\b|condo|\bflat\b|rental unit|loft|studio|suite/],
  ['house', /house|home|townho/],
];

/** A property type from a platform's type label ("Entire rental unit", "Holiday home", "Condo"). */
export function propertyTypeOf(v: unknown): PropertyType | null {
  const s = str(v)?.toLowerCase();
  if (s === undefined) return null;
  for (const [type, re] of TYPE_RULES) if (re.test(s)) return type;
  return null;
}

/**
 * A guest rating on the platform's native scale. `max` is the scale the raw value is on; only
 * vrbo ever needs it (see vrbo.ts): elsewhere the raw value is already native and passes through.
 */
export function ratingOn(platform: EnabledPlatform, value: unknown, max?: number | null): number | null {
  const v = nonNeg(value);
  if (v === null) return null;
  const scale = RATING_SCALE[platform];
  if (max === null || max === undefined || max === scale) return v;
  return Math.round(v * (scale / max) * 100) / 100;
}

type BodyFields = Omit<ListingBody, 'id' | 'platform' | 'platformListingId' | 'url' | 'ratingScale'>;

/** A listing body with the derived fields filled in: stays id, canonical url, native rating scale. */
export function listingBody(platform: EnabledPlatform, id: string, f: BodyFields): ListingBody {
  return {
    id: staysId(platform, id),
    platform,
    platformListingId: id,
    url: listingUrl(platform, id),
    name: f.name,
    propertyType: f.propertyType,
    location: {
      lat: f.location.lat,
      lng: f.location.lng,
      city: f.location.city,
      region: f.location.region,
      country: f.location.country,
      address: f.location.address,
    },
    starRating: f.starRating,
    guestRating: f.guestRating,
    ratingScale: RATING_SCALE[platform],
    reviewCount: f.reviewCount,
    maxOccupancy: f.maxOccupancy,
    bedrooms: f.bedrooms,
    bathrooms: f.bathrooms,
    amenities: f.amenities,
    images: f.images,
    host: f.host,
  };
}

export interface QuoteFields {
  currency: string;
  nightlyPrice: number | null;
  totalPrice: number | null;
  fees: Price['fees'];
  nights: number;
  /** What the total includes, as the source says (price-parts.ts). */
  includes: Includes;
  /** The source itemized the price: line items are given. */
  itemized: boolean;
  /** The nights' subtotal when the source states it. */
  base?: number | null;
}

/** A Price for the listing and stay, or null when the row states no usable amount. */
export function priceOf(platform: EnabledPlatform, id: string, stay: StayQuery, q: QuoteFields): Price | null {
  const { nightlyPrice, totalPrice } = q;
  if (nightlyPrice === null || totalPrice === null || nightlyPrice < 0 || totalPrice < 0) return null;
  const fee = (n: number | null) => (n !== null && n >= 0 ? n : null);
  const fees = { cleaning: fee(q.fees.cleaning), service: fee(q.fees.service), taxes: fee(q.fees.taxes) };
  return {
    platform,
    listingId: id,
    currency: q.currency,
    nightlyPrice,
    totalPrice,
    fees,
    nights: q.nights,
    occupancy: { adults: stay.adults, children: stay.children, childAges: [...stay.childAges] },
    source: platform,
    url: listingUrl(platform, id),
    ...priceParts({ currency: q.currency, nightlyPrice, nights: q.nights, totalPrice, fees, includes: q.includes, itemized: q.itemized, base: q.base }),
  };
}

type DayRules = Omit<AvailabilityDay, 'date' | 'available'>;

/**
 * A calendar from day rows: the platform's rules per day (null where it states none). Rows without
 * a date or an availability say nothing and are skipped; days outside the window are dropped
 * (airbnb answers whole months).
 */
export function calendarOf<R extends { date: string; available?: boolean }>(
  platform: EnabledPlatform,
  rows: readonly R[],
  ctx: CalendarContext,
  rules: (row: R, available: boolean) => DayRules,
): Availability {
  const listingId = idFrom(platform, [ctx.listingId]);
  const dates: AvailabilityDay[] = [];
  for (const row of rows) {
    const date = isoDate(row.date);
    const available = bool(row.available);
    if (date === null || available === null) continue;
    if ((ctx.startDate && date < ctx.startDate) || (ctx.endDate && date >= ctx.endDate)) continue;
    const r = rules(row, available);
    dates.push({ date, available, minNights: r.minNights, checkIn: r.checkIn, checkOut: r.checkOut, bookable: r.bookable });
  }
  return { platform, listingId, dates };
}
