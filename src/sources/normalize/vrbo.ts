// Vrbo rows (jupri/vrbo-property, powerai/vrbo-reviews-scraper) → unified. Quirks handled
// (research 2.6): lists nested twice (items[].items[].value), `coordinate` in the singular,
// `rateSummary` or `ratesummary`, and ratings on 10 where the spec's vrbo scale is 5.
//
// The one rescaling in the service: the spec fixes vrbo's ratingScale at 5, while current vrbo
// data rates on 10 (a `ratingMax` of 10 rides along in review rows). The spec wins, so a vrbo value
// stated on another maximum is converted onto 5 (value × 5 / ratingMax, to 2 decimals; on a 10
// maximum that is an exact halving). A value without ratingMax is on 5 already, unless it exceeds
// 5, which only a 10-scale value can. Every other platform's rating passes through unscaled.
import { RATING_SCALE } from '../../core/platforms.js';
import type { Availability, Price, Property, Review } from '../../core/schemas/resources.js';
import type { VrboCalendarDay, VrboNested, VrboPropertyItem, VrboReviewItem } from '../raw/types.js';
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
  tripType,
  unusable,
} from './common.js';
import { parseMoney, round2 } from './money.js';

const P = 'vrbo';
const SCALE = RATING_SCALE[P];

/** A vrbo rating on the spec scale (see the header). */
export function vrboRating(value: unknown, ratingMax?: unknown): number | null {
  const v = nonNeg(value);
  if (v === null) return null;
  const max = nonNeg(ratingMax) ?? (v > SCALE ? 10 : SCALE);
  return max > 0 ? ratingOn(P, v, max) : null;
}

/** The values of a twice-nested list, in order. */
function values(list: VrboNested | undefined): string[] {
  return (list?.items ?? []).flatMap((g) => (g.items ?? []).map((i) => i.value)).filter((v): v is string => typeof v === 'string');
}

function images(raw: VrboPropertyItem): string[] {
  const all = (raw.gallery ?? []).flatMap((g) => (g.images ?? []).map((i) => httpUrl(i.url)));
  // Galleries repeat photos across their sections ("All photos", "Living room"…).
  return [...new Set(all.filter((u): u is string => u !== null))];
}

/** Listing detail (the body the upstream port answers: no price, no identity). */
export function normalizeListing(raw: VrboPropertyItem): ListingBody {
  const id = idFrom(P, [raw.id, raw.url]);
  const h = raw.highlights ?? {};
  return listingBody(P, id, {
    name: str(raw.name) ?? `Vrbo property ${id}`,
    propertyType: propertyTypeOf(raw.propertyType) ?? 'other',
    location: {
      lat: num(raw.coordinate?.latitude),
      lng: num(raw.coordinate?.longitude),
      city: str(raw.address?.city),
      region: str(raw.address?.province),
      country: countryCode(raw.address?.countryCode),
      address: null,
    },
    starRating: null,
    guestRating: vrboRating(raw.reviews?.averageRating, raw.reviews?.ratingMax),
    reviewCount: count(raw.reviews?.total),
    maxOccupancy: positiveInt(h.sleepsCount),
    bedrooms: nonNeg(h.bedroomsCount),
    bathrooms: nonNeg(h.bathroomsCount),
    amenities: propertyAmenities(values(raw.amenities)),
    images: images(raw),
    host: raw.host ? { name: str(raw.host.name), isSuperhost: bool(raw.host.isPremierHost) } : null,
  });
}

/** @public read through the module namespace (raw/emit.ts, apify/answers.ts) */
export function normalizeSearchItem(raw: VrboPropertyItem, ctx: SearchContext): Property {
  const body = normalizeListing(raw);
  return { ...body, price: ctx.stay ? normalizePrice(raw, { stay: ctx.stay }) : null };
}

/**
 * The estimate vrbo gives (spec: derived from the nightly rate): per-night rents, preferably the
 * ones converted to the requested currency; the total when stated, else nights × rate plus fees.
 */
export function normalizePrice(raw: VrboPropertyItem, ctx: PriceContext): Price | null {
  const rs = raw.rateSummary ?? raw.ratesummary;
  if (!rs) return null;
  const id = idFrom(P, [raw.id, raw.url]);
  const converted = (rs.rentNightsConverted ?? []).length > 0;
  const rents = (converted ? rs.rentNightsConverted! : (rs.rentNights ?? [])).map(nonNeg).filter((n): n is number => n !== null);
  if (rents.length === 0) return null;
  // An even rate is taken as is: averaging equal floats can drift in the last bit.
  const nightly = rents.every((r) => r === rents[0]) ? rents[0]! : round2(rents.reduce((a, b) => a + b, 0) / rents.length);
  const nights = nightsOf(ctx.stay.checkIn, ctx.stay.checkOut);
  const fees = { cleaning: parseMoney(rs.cleaningFee), service: parseMoney(rs.serviceFee), taxes: parseMoney(rs.taxes) };
  const stated = parseMoney(rs.total);
  const total = stated ?? round2(nightly * nights + (fees.cleaning ?? 0) + (fees.service ?? 0) + (fees.taxes ?? 0));
  // Unconverted rents are in the property's own currency, which the row names only in [U] fields.
  const currency = currencyOf(rs.currency, ctx.stay.currency);
  // A stated fee is in the total; an unstated one is unknown beside a stated total, and not in a
  // total computed here from the rents and the stated fees.
  const has = (v: number | null) => (v !== null && v >= 0 ? true : stated === null ? false : null);
  const includes = { cleaning: has(fees.cleaning), serviceFee: has(fees.service), taxes: has(fees.taxes) };
  const itemized = [fees.cleaning, fees.service, fees.taxes].some((v) => v !== null && v >= 0);
  return priceOf(P, id, ctx.stay, { currency, nightlyPrice: nightly, totalPrice: total, fees, nights, includes, itemized });
}

function validity(v: unknown): boolean | null {
  return v === 'VALID' ? true : v === 'INVALID' ? false : null;
}

/**
 * Calendar days. Bookable is derived from two stated rules, not guessed: an unavailable night
 * cannot be booked, and an available one can be exactly when arriving that day is valid.
 */
export function normalizeCalendar(rows: readonly VrboCalendarDay[], ctx: CalendarContext): Availability {
  return calendarOf(P, rows, ctx, (row, available) => {
    const checkIn = validity(row.checkinValidity);
    return { minNights: positiveInt(row.stayConstraint?.minNights), checkIn, checkOut: validity(row.checkoutValidity), bookable: available ? checkIn : false };
  });
}

/** One review, on the spec scale 5 (see the header). */
export function normalizeReview(raw: VrboReviewItem, ctx: ReviewContext): Review {
  const reviewId = str(raw.reviewId) ?? unusable(P, 'is a review without an id');
  const listingId = idFrom(P, [ctx.listingId]);
  const rating = vrboRating(raw.rating, raw.ratingMax) ?? unusable(P, `is review ${reviewId} without a rating`);
  const date = isoDate(raw.reviewDate) ?? unusable(P, `is review ${reviewId} without a date`);
  return {
    platform: P,
    listingId,
    reviewId,
    rating,
    ratingScale: SCALE,
    title: str(raw.title),
    text: str(raw.reviewText ?? raw.text),
    author: str(raw.author ?? raw.reviewer?.name),
    date,
    tripType: tripType(raw.travelerType),
    language: language(raw.language),
    ownerResponse: str(raw.response),
    liked: null,
    disliked: null,
  };
}
