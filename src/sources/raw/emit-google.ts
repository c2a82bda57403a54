// Unified → google raw rows, in martin.forejt/google-hotels-scraper's shape (prices[] of
// provider/price/link) with eiv's pricePerNight/totalPrice and SerpApi-like details. Seller
// prices alternate between "$139" text and numbers, since both are seen and both must read.
import { listingUrl } from '../../core/listing-ref.js';
import type { Availability, Offer, Price, Property } from '../../core/schemas/resources.js';
import type { StayQuery } from '../../core/upstream.js';
import type { ListingBody } from '../normalize/common.js';
import { AMENITY_LABELS, TYPE_LABELS, formatMoney } from './labels.js';
import type { GoogleCalendarDay, GoogleHotelItem } from './types.js';

const P = 'google';

function item(x: ListingBody): GoogleHotelItem {
  const { lat, lng, city, region, country, address } = x.location;
  const out: GoogleHotelItem = {
    name: x.name,
    url: listingUrl(P, x.platformListingId),
    type: TYPE_LABELS[x.propertyType].google,
    rating: x.guestRating,
    reviewsCount: x.reviewCount,
    hotelClass: x.starRating,
    gpsCoordinates: lat !== null && lng !== null ? { latitude: lat, longitude: lng } : null,
    city,
    region,
    countryCode: country,
    maxGuests: x.maxOccupancy,
    amenities: x.amenities.map((a) => AMENITY_LABELS[a].google),
    images: x.images.map((u) => ({ thumbnail: u, originalImage: u })),
    prices: [],
  };
  if (address !== null) out.address = address;
  return out;
}

function priced(out: GoogleHotelItem, q: Price, stay: StayQuery): GoogleHotelItem {
  return { ...out, checkInDate: stay.checkIn, checkOutDate: stay.checkOut, currency: q.currency, pricePerNight: formatMoney(q.nightlyPrice, q.currency), totalPrice: q.totalPrice };
}

/** @public read through the module namespace (raw/emit.ts, apify/answers.ts) */
export function emitListing(x: ListingBody): GoogleHotelItem {
  return item(x);
}

/** @public read through the module namespace (raw/emit.ts, apify/answers.ts) */
export function emitSearchItem(x: Property, stay: StayQuery | undefined): GoogleHotelItem {
  return stay && x.price ? priced(item(x), x.price, stay) : item(x);
}

/** @public read through the module namespace (raw/emit.ts, apify/answers.ts) */
export function emitQuote(x: Price, stay: StayQuery): GoogleHotelItem {
  return priced({ url: listingUrl(P, x.listingId) }, x, stay);
}

/** The hotel as a comparison run returns it: its name and one price per seller. */
export function emitHotelOffers(x: { property: string; offers: Offer[] }, stay: StayQuery): GoogleHotelItem {
  return {
    name: x.property,
    checkInDate: stay.checkIn,
    checkOutDate: stay.checkOut,
    currency: x.offers[0]?.currency ?? stay.currency,
    prices: x.offers.map((o, i) => ({ provider: o.ota, price: i % 2 === 0 ? formatMoney(o.totalPrice, o.currency) : o.totalPrice, link: o.url })),
  };
}

/** @public read through the module namespace (raw/emit.ts, apify/answers.ts) */
export function emitCalendar(x: Availability): GoogleCalendarDay[] {
  return x.dates.map((d) => ({ date: d.date, available: d.available }));
}
