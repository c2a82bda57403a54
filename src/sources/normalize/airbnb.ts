// Airbnb rows (tri_angle/airbnb-scraper, its reviews sibling, calendar_months days) → unified.
// Quirks handled (research 2.1–2.3): money as localized text with no currency, fee keys that lie,
// rating objects that can be a bare number, "Not included" amenities with available "", bedrooms
// and baths only as text, SEO suffixes on titles, 19-digit string ids, two calendar spellings.
import { RATING_SCALE } from '../../core/platforms.js';
import { UNKNOWN_INCLUDES } from '../../core/price-parts.js';
import type { Availability, Price, Property, Review } from '../../core/schemas/resources.js';
import type { AirbnbCalendarDay, AirbnbListingItem, AirbnbPriceLine, AirbnbReviewItem } from '../raw/types.js';
import { propertyAmenities } from './amenities.js';
import {
  type CalendarContext,
  calendarOf,
  type ListingBody,
  type PriceContext,
  type ReviewContext,
  type SearchContext,
  bool,
  count,
  countryCode,
  currencyOf,
  httpUrl,
  idFrom,
  isoDate,
  language,
  listingBody,
  nightsOf,
  nonNeg,
  num,
  positiveInt,
  priceOf,
  propertyTypeOf,
  ratingOn,
  str,
  unusable,
} from './common.js';
import { parseMoney, round2 } from './money.js';

const P = 'airbnb';

// " - Apartments for Rent in London, England, United Kingdom - Airbnb". The part before "for Rent
// in" may not span a " - " (so a title's own dashes stay); the place after it may.
const SEO_SUFFIX = /\s+-\s+(?:(?!\s-\s).)+?\bfor Rent in\b.*\s+-\s+Airbnb\s*$/i;

function name(raw: AirbnbListingItem, id: string): string {
  const title = str(raw.title)?.replace(SEO_SUFFIX, '') ?? str(raw.name);
  return str(title) ?? str(raw.subDescription?.title) ?? `Airbnb listing ${id}`;
}

/** Bedrooms and baths from subDescription items ("Studio", "2 bedrooms", "1.5 baths", "Half-bath"). */
function rooms(items: readonly unknown[]): { bedrooms: number | null; bathrooms: number | null } {
  let bedrooms: number | null = null;
  let bathrooms: number | null = null;
  for (const item of items) {
    const s = str(item)?.toLowerCase();
    if (s === undefined) continue;
    if (s === 'studio') bedrooms ??= 0;
    const bed = /^(\d+)\s+bedrooms?\b/.exec(s);
    if (bed) bedrooms ??= Number(bed[1]);
    const bath = /^(\d+(?:\.\d+)?)\s+(?:(?:private|shared)\s+)?(?:half-)?baths?\b/.exec(s);
    if (bath) bathrooms ??= Number(bath[1]);
    else if (/^(?:private |shared )?half-bath\b/.test(s)) bathrooms ??= 0.5;
  }
  return { bedrooms, bathrooms };
}

function host(raw: AirbnbListingItem): ListingBody['host'] {
  const h = raw.host ?? raw.primaryHost;
  if (h) return { name: str(h.name ?? h.firstName), isSuperhost: bool(h.isSuperHost) ?? bool(raw.isSuperHost) };
  return typeof raw.isSuperHost === 'boolean' ? { name: null, isSuperhost: raw.isSuperHost } : null;
}

function images(raw: AirbnbListingItem): string[] {
  const list = [...(raw.images ?? []).map((i) => i.imageUrl), ...(raw.photos ?? []).map((i) => i.pictureUrl)].map(httpUrl).filter((u): u is string => u !== null);
  if (list.length > 0) return list;
  const thumb = httpUrl(raw.thumbnail);
  return thumb ? [thumb] : [];
}

/** Listing detail (the body the upstream port answers: no price, no identity). */
export function normalizeListing(raw: AirbnbListingItem): ListingBody {
  const id = idFrom(P, [raw.id, raw.url]);
  const rating = raw.rating;
  const scalar = typeof rating === 'number';
  const at = raw.coordinates ?? (typeof raw.location === 'object' ? { latitude: raw.location.lat, longitude: raw.location.lng } : null);
  const labels = (raw.amenities ?? []).filter((g) => !/not included/i.test(g.title)).flatMap((g) => g.values.filter((v) => v.available !== '' && v.available !== false).map((v) => v.title));
  return listingBody(P, id, {
    name: name(raw, id),
    // roomType ("Entire home/apt") says least about the kind of place, so it is the last resort.
    propertyType: propertyTypeOf(raw.propertyType) ?? propertyTypeOf(raw.subDescription?.title) ?? propertyTypeOf(raw.roomType) ?? 'other',
    location: { lat: num(at?.latitude), lng: num(at?.longitude), city: str(raw.city), region: str(raw.state), country: countryCode(raw.countryCode), address: null },
    starRating: nonNeg(raw.stars),
    guestRating: ratingOn(P, scalar ? rating : rating?.guestSatisfaction),
    reviewCount: scalar ? null : count(rating?.reviewsCount),
    maxOccupancy: positiveInt(raw.personCapacity ?? raw.numberOfGuests),
    ...rooms(raw.subDescription?.items ?? []),
    amenities: propertyAmenities(labels),
    images: images(raw),
    host: host(raw),
  });
}

/** A search result: the listing fields plus, on a dated search, the price. @public read through the module namespace (raw/emit.ts, apify/answers.ts) */
export function normalizeSearchItem(raw: AirbnbListingItem, ctx: SearchContext): Property {
  const body = normalizeListing(raw);
  return { ...body, price: ctx.stay ? normalizePrice(raw, { stay: ctx.stay }) : null };
}

type Line = 'base' | 'cleaning' | 'service' | 'taxes' | 'total' | 'beforeTaxes' | 'other';

/** What a breakdown line is: by its description first, since the keys have been seen to lie. */
function lineKind(key: string, line: AirbnbPriceLine): Line {
  const d = (line.description ?? '').toLowerCase();
  if (/clean/.test(d)) return 'cleaning';
  if (/service fee/.test(d)) return 'service';
  if (/total before tax/.test(d)) return 'beforeTaxes';
  if (/\btax/.test(d)) return 'taxes';
  if (/^total\b/.test(d) && !/base/.test(d)) return 'total';
  const byKey: Record<string, Line> = { basePrice: 'base', cleaningFee: 'cleaning', serviceFee: 'service', taxes: 'taxes', total: 'total', totalBeforeTaxes: 'beforeTaxes' };
  return byKey[key] ?? 'other';
}

/** The quote of a dated run, in the requested currency (the text carries only a symbol). */
export function normalizePrice(raw: AirbnbListingItem, ctx: PriceContext): Price | null {
  const p = raw.price;
  if (!p) return raw.pricing ? legacyPrice(raw, ctx) : null;
  const id = idFrom(P, [raw.id, raw.url]);
  const nights = nightsOf(isoDate(raw.checkIn) ?? ctx.stay.checkIn, isoDate(raw.checkOut) ?? ctx.stay.checkOut);
  const lines: Partial<Record<Line, number>> = {};
  for (const [key, line] of Object.entries(p.breakDown ?? {})) {
    if (Array.isArray(line) || !line) continue;
    const amount = parseMoney(line.price);
    const kind = lineKind(key, line);
    if (amount !== null && lines[kind] === undefined) lines[kind] = amount;
  }
  const amount = parseMoney(p.discountedPrice ?? p.amount ?? p.price ?? p.label);
  // "$1,079 total", "$321 for 3 nights" (pyairbnb #39): the amount is the stay's, not a night's.
  const isTotal = /total|\bfor\s+\d+\s+nights?\b/i.test(p.qualifier ?? '') || (!p.qualifier && /\bfor\s+\d+\s+nights?\b/i.test(p.label ?? ''));
  const fees = { cleaning: lines.cleaning ?? null, service: lines.service ?? null, taxes: lines.taxes ?? null };
  let nightly = isTotal ? null : amount;
  if (nightly === null && lines.base !== undefined) nightly = round2(lines.base / nights);
  let total = lines.total ?? (isTotal ? amount : null);
  if (total === null && lines.beforeTaxes !== undefined) total = round2(lines.beforeTaxes + (fees.taxes ?? 0));
  if (nightly === null && total !== null) nightly = round2(total / nights);
  const computed = total === null;
  if (total === null && nightly !== null) total = round2(nightly * nights + (fees.cleaning ?? 0) + (fees.service ?? 0) + (fees.taxes ?? 0));
  // A breakdown down to a total (or to the total before taxes) lists every fee Airbnb charges: a
  // fee without a line is none. A total computed here holds exactly the stated lines; a stated
  // total without a breakdown says nothing about what it holds.
  const complete = lines.total !== undefined || lines.beforeTaxes !== undefined;
  const has = (v: number | null, whenComplete: boolean | null): boolean | null => (v !== null ? true : complete ? whenComplete : computed ? false : null);
  const includes = { cleaning: has(fees.cleaning, true), serviceFee: has(fees.service, true), taxes: has(fees.taxes, lines.total !== undefined ? null : false) };
  const itemized = Object.keys(lines).length > 0;
  return priceOf(P, id, ctx.stay, { currency: ctx.stay.currency, nightlyPrice: nightly, totalPrice: total, fees, nights, includes, itemized, base: lines.base ?? null });
}

/**
 * Legacy builds' pricing.rate: a number (micros when isMicrosAccuracy) with its ISO currency,
 * nightly unless rateType says total; no fee split.
 */
function legacyPrice(raw: AirbnbListingItem, ctx: PriceContext): Price | null {
  const rate = raw.pricing?.rate;
  let amount = num(rate?.amount) ?? parseMoney(rate?.amountFormatted);
  if (amount === null) return null;
  if (rate?.isMicrosAccuracy === true) amount = round2(amount / 1_000_000);
  const id = idFrom(P, [raw.id, raw.url]);
  const nights = nightsOf(ctx.stay.checkIn, ctx.stay.checkOut);
  const isTotal = /total/i.test(raw.pricing?.rateType ?? '');
  const nightly = isTotal ? round2(amount / nights) : amount;
  const total = isTotal ? amount : round2(amount * nights);
  // A nightly rate times the nights holds no fee; a stated total does not say what it holds.
  const includes = isTotal ? UNKNOWN_INCLUDES : { cleaning: false, serviceFee: false, taxes: false };
  const fees = { cleaning: null, service: null, taxes: null };
  return priceOf(P, id, ctx.stay, { currency: currencyOf(rate?.currency, ctx.stay.currency), nightlyPrice: nightly, totalPrice: total, fees, nights, includes, itemized: false });
}

/** Calendar days in either spelling; what a day does not state stays null. Days without a date or availability are skipped. */
export function normalizeCalendar(rows: readonly AirbnbCalendarDay[], ctx: CalendarContext): Availability {
  return calendarOf(P, rows, ctx, (row) => ({
    minNights: positiveInt(row.min_nights ?? row.minNights ?? row.minimumStay),
    checkIn: bool(row.available_for_checkin ?? row.availableForCheckin),
    checkOut: bool(row.available_for_checkout ?? row.availableForCheckout),
    bookable: bool(row.bookable),
  }));
}

/** One review; airbnb states no title, trip type or liked/disliked text, so those are null. */
export function normalizeReview(raw: AirbnbReviewItem, ctx: ReviewContext): Review {
  const reviewId = str(raw.id) ?? unusable(P, 'is a review without an id');
  const listingId = idFrom(P, [ctx.listingId, raw.startUrl]);
  const rating = nonNeg(raw.rating) ?? unusable(P, `is review ${reviewId} without a rating`);
  const date = isoDate(raw.createdAt) ?? unusable(P, `is review ${reviewId} without a date`);
  return {
    platform: P,
    listingId,
    reviewId,
    rating,
    ratingScale: RATING_SCALE[P],
    title: null,
    text: str(raw.text ?? raw.comments ?? raw.localizedText),
    author: str(raw.reviewer?.firstName ?? raw.reviewer?.hostName),
    date,
    tripType: null,
    language: language(raw.language),
    ownerResponse: str(raw.response),
    liked: null,
    disliked: null,
  };
}
