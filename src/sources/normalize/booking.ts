// Booking rows (voyager/booking-scraper, booking-reviews-scraper) → unified. Quirks handled
// (research 2.4–2.5): the id is the URL ({cc}/{slug}, with language suffixes and queries), ratings
// on 10 kept on 10, lat/lng as strings (swapped in the oldest builds), stars as a string, room
// currency as a symbol, the price covering the whole stay, reviewTextParts in older builds.
import { RATING_SCALE } from '../../core/platforms.js';
import type { Availability, Price, Property, Review } from '../../core/schemas/resources.js';
import type { BookingAddress, BookingCalendarDay, BookingHotelItem, BookingReviewItem } from '../raw/types.js';
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

const P = 'booking';

function idOf(raw: BookingHotelItem): string {
  return idFrom(P, [raw.url]);
}

/** lat/lng, swapped back when the latitude is out of range (the oldest builds swapped them). */
function coordinates(raw: BookingHotelItem): { lat: number | null; lng: number | null } {
  const lat = num(raw.location?.lat);
  const lng = num(raw.location?.lng);
  if (lat !== null && lng !== null && Math.abs(lat) > 90 && Math.abs(lng) <= 90) return { lat: lng, lng: lat };
  return { lat, lng };
}

function location(raw: BookingHotelItem, id: string): ListingBody['location'] {
  const a: BookingAddress = typeof raw.address === 'string' ? { full: raw.address } : (raw.address ?? {});
  // The country code when the row states it (even as null); else the one in the URL, which is the
  // property's country on booking.
  const country = 'countryCode' in a ? countryCode(a.countryCode) : countryCode(id.slice(0, 2));
  return { ...coordinates(raw), city: str(a.city), region: str(a.region), country, address: str(a.full) };
}

function images(raw: BookingHotelItem): string[] {
  const list = (raw.images ?? []).map(httpUrl).filter((u): u is string => u !== null);
  if (list.length > 0) return list;
  const cover = httpUrl(raw.image);
  return cover ? [cover] : [];
}

/** Listing detail (the body the upstream port answers: no price, no identity). */
export function normalizeListing(raw: BookingHotelItem): ListingBody {
  const id = idOf(raw);
  // Facilities, the rooms' feature lists and a stated breakfast all name amenities.
  const labels = [...(raw.facilities ?? []), ...(raw.rooms ?? []).flatMap((r) => r.features ?? []), ...(str(raw.breakfast) ? ['Breakfast'] : [])];
  return listingBody(P, id, {
    name: str(raw.name) ?? `Booking property ${id}`,
    propertyType: propertyTypeOf(raw.type) ?? 'other',
    location: location(raw, id),
    starRating: nonNeg(raw.stars),
    guestRating: ratingOn(P, raw.rating),
    reviewCount: count(raw.reviews),
    maxOccupancy: positiveInt(raw.maxPersons),
    bedrooms: nonNeg(raw.bedrooms),
    bathrooms: nonNeg(raw.bathrooms),
    amenities: propertyAmenities(labels),
    images: images(raw),
    host: null,
  });
}

/** @public read through the module namespace (raw/emit.ts, apify/answers.ts) */
export function normalizeSearchItem(raw: BookingHotelItem, ctx: SearchContext): Property {
  const body = normalizeListing(raw);
  return { ...body, price: ctx.stay ? normalizePrice(raw, { stay: ctx.stay }) : null };
}

/** What the row's URL query says it priced: dates (checkin/checkout) and selected_currency. */
function urlQuery(url: string | undefined): { checkIn: string | null; checkOut: string | null; currency: string | null } {
  try {
    const q = new URL(url ?? '').searchParams;
    return { checkIn: isoDate(q.get('checkin')), checkOut: isoDate(q.get('checkout')), currency: q.get('selected_currency') };
  } catch {
    return { checkIn: null, checkOut: null, currency: null };
  }
}

/**
 * The quote: price is the stay total ([U]: asserted with the requested nights), taxes come from
 * the room's "taxes and charges"; without a stated nightly rate it is derived from the total.
 */
export function normalizePrice(raw: BookingHotelItem, ctx: PriceContext): Price | null {
  const id = idOf(raw);
  const room = raw.rooms?.find((r) => r.available !== false) ?? raw.rooms?.[0];
  const total = parseMoney(raw.price ?? room?.price);
  if (total === null) return null;
  const d = urlQuery(raw.url);
  const nights = nightsOf(d.checkIn ?? ctx.stay.checkIn, d.checkOut ?? ctx.stay.checkOut);
  const taxes = parseMoney(room?.taxesAndCharges);
  const nightly = parseMoney(room?.pricePerNight) ?? round2((total - (taxes ?? 0)) / nights);
  // Stated taxes and charges are in the stay total (the nightly rate is read net of them); booking
  // states no cleaning or service fee, which is not the same as none.
  return priceOf(P, id, ctx.stay, {
    currency: currencyOf(raw.currency ?? d.currency, ctx.stay.currency),
    nightlyPrice: nightly,
    totalPrice: total,
    fees: { cleaning: null, service: null, taxes },
    nights,
    includes: { cleaning: null, serviceFee: null, taxes: taxes !== null && taxes >= 0 ? true : null },
    itemized: taxes !== null && taxes >= 0,
  });
}

/** Booking states availability (and bookability when it says so); no check-in rules or minimum stay. */
export function normalizeCalendar(rows: readonly BookingCalendarDay[], ctx: CalendarContext): Availability {
  return calendarOf(P, rows, ctx, (row) => ({ minNights: null, checkIn: null, checkOut: null, bookable: bool(row.bookable) }));
}

/** One review, rated on 10 as booking rates. */
export function normalizeReview(raw: BookingReviewItem, ctx: ReviewContext): Review {
  const reviewId = str(raw.id) ?? unusable(P, 'is a review without an id');
  const listingId = idFrom(P, [ctx.listingId, raw.startUrl]);
  const rating = ratingOn(P, raw.rating) ?? unusable(P, `is review ${reviewId} without a rating`);
  const date = isoDate(raw.reviewDate) ?? unusable(P, `is review ${reviewId} without a date`);
  return {
    platform: P,
    listingId,
    reviewId,
    rating,
    ratingScale: RATING_SCALE[P],
    title: str(raw.reviewTitle),
    text: str(raw.text),
    author: str(raw.userName),
    date,
    tripType: tripType(raw.travelerType),
    language: language(raw.reviewLanguage),
    ownerResponse: str(raw.hotelResponse),
    liked: str(raw.likedText ?? raw.reviewTextParts?.Liked),
    disliked: str(raw.dislikedText ?? raw.reviewTextParts?.Disliked),
  };
}
