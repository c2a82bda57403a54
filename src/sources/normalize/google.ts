// Google Hotels rows (martin.forejt/google-hotels-scraper and siblings) → unified. Quirks handled
// (research 2.7): per-seller prices[] whose price is "$139" text or a number, ratings on 5 beside a
// separate hotel class (a number or "4-star hotel"), the id only inside the entity URL.
import { UNKNOWN_INCLUDES } from '../../core/price-parts.js';
import type { Availability, Offer, Price, Property } from '../../core/schemas/resources.js';
import type { GoogleCalendarDay, GoogleHotelItem } from '../raw/types.js';
import { propertyAmenities } from './amenities.js';
import {
  type CalendarContext,
  calendarOf,
  type ListingBody,
  type PriceContext,
  type SearchContext,
  count,
  countryCode,
  currencyOf,
  httpUrl,
  idFrom,
  isoDate,
  listingBody,
  nightsOf,
  num,
  positiveInt,
  priceOf,
  propertyTypeOf,
  ratingOn,
  str,
  unusable,
} from './common.js';
import { parseMoney, round2 } from './money.js';

const P = 'google';

/** Stars from 4 or "4-star hotel". */
function hotelClass(v: unknown): number | null {
  const n = num(v);
  if (n !== null) return n >= 0 ? n : null;
  const m = typeof v === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*-?\s*star/i.exec(v) : null;
  return m ? Number(m[1]) : null;
}

function images(raw: GoogleHotelItem): string[] {
  return (raw.images ?? []).map((i) => httpUrl(typeof i === 'string' ? i : (i.originalImage ?? i.original_image ?? i.thumbnail))).filter((u): u is string => u !== null);
}

/** Listing detail (the body the upstream port answers: no price, no identity). */
export function normalizeListing(raw: GoogleHotelItem): ListingBody {
  const id = idFrom(P, [raw.url]);
  const gps = raw.gpsCoordinates ?? raw.gps_coordinates;
  return listingBody(P, id, {
    name: str(raw.name) ?? `Google hotel ${id}`,
    // Google Hotels lists hotels unless it says otherwise.
    propertyType: propertyTypeOf(raw.type) ?? 'hotel',
    location: {
      lat: num(gps?.latitude),
      lng: num(gps?.longitude),
      city: str(raw.city),
      region: str(raw.region),
      country: countryCode(raw.countryCode),
      address: str(raw.address),
    },
    starRating: hotelClass(raw.hotelClass),
    guestRating: ratingOn(P, raw.rating),
    reviewCount: count(raw.reviewsCount),
    maxOccupancy: positiveInt(raw.maxGuests),
    bedrooms: null,
    bathrooms: null,
    amenities: propertyAmenities(raw.amenities ?? []),
    images: images(raw),
    host: null,
  });
}

/** @public read through the module namespace (raw/emit.ts, apify/answers.ts) */
export function normalizeSearchItem(raw: GoogleHotelItem, ctx: SearchContext): Property {
  const body = normalizeListing(raw);
  return { ...body, price: ctx.stay ? normalizePrice(raw, { stay: ctx.stay }) : null };
}

/** The hotel's own quote: per night and in total, as eiv/google-hotels-scraper states them; no fee split. */
export function normalizePrice(raw: GoogleHotelItem, ctx: PriceContext): Price | null {
  const id = idFrom(P, [raw.url]);
  const nights = nightsOf(isoDate(raw.checkInDate) ?? ctx.stay.checkIn, isoDate(raw.checkOutDate) ?? ctx.stay.checkOut);
  let nightly = parseMoney(raw.pricePerNight);
  let total = parseMoney(raw.totalPrice);
  if (nightly === null && total !== null) nightly = round2(total / nights);
  if (total === null && nightly !== null) total = round2(nightly * nights);
  return priceOf(P, id, ctx.stay, {
    currency: currencyOf(raw.currency, ctx.stay.currency),
    nightlyPrice: nightly,
    totalPrice: total,
    fees: { cleaning: null, service: null, taxes: null },
    nights,
    includes: UNKNOWN_INCLUDES,
    itemized: false,
  });
}

/**
 * The sellers' offers for one hotel and stay, in the order Google lists them. prices[].price is
 * taken as the stay total (offers compare on totalPrice). A seller without a readable amount or a
 * usable link is left out: an offer nobody can price or open is not an offer.
 */
export function normalizeHotelOffers(raw: GoogleHotelItem, ctx: PriceContext): { property: string; offers: Offer[] } {
  const property = str(raw.name) ?? unusable(P, 'is a hotel without a name');
  const currency = currencyOf(raw.currency, ctx.stay.currency);
  const offers: Offer[] = [];
  for (const option of raw.prices ?? []) {
    const ota = str(option.provider);
    const totalPrice = parseMoney(option.price);
    const url = httpUrl(option.link);
    if (ota === null || totalPrice === null || totalPrice < 0 || url === null) continue;
    offers.push({ ota, totalPrice, currency, url, includes: { ...UNKNOWN_INCLUDES } });
  }
  return { property, offers };
}

/** A per-night scan states availability only; every rule stays null. */
export function normalizeCalendar(rows: readonly GoogleCalendarDay[], ctx: CalendarContext): Availability {
  return calendarOf(P, rows, ctx, () => ({ minNights: null, checkIn: null, checkOut: null, bookable: null }));
}
