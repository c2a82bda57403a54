// Unified → booking raw rows, in voyager/booking-scraper's shapes with its quirks (identity only
// in a URL with a language suffix and a query, lat/lng as strings, room currency as a symbol,
// the price as the stay total, a breakfast string, room features mixed into the amenities).
import { listingUrl } from '../../core/listing-ref.js';
import type { Amenity, Availability, Price, Property, Review } from '../../core/schemas/resources.js';
import type { StayQuery } from '../../core/upstream.js';
import type { ListingBody } from '../normalize/common.js';
import { AMENITY_LABELS, TRIP_LABELS, TYPE_LABELS, bookingSymbol, countryName, formatMoney } from './labels.js';
import type { BookingCalendarDay, BookingHotelItem, BookingReviewItem, BookingRoom } from './types.js';

const P = 'booking';

/** Amenities booking lists per room as well as for the property. */
const ROOM_LEVEL: readonly Amenity[] = ['air_conditioning', 'wifi', 'balcony', 'kitchen'];

/** hotel/{cc}/{slug}.en-gb.html: the language suffix also keeps dotted slugs ("hotel.fr") intact. */
function hotelUrl(id: string, stay?: StayQuery): string {
  const url = listingUrl(P, id).replace(/\.html$/, '.en-gb.html');
  if (!stay) return url;
  return `${url}?checkin=${stay.checkIn}&checkout=${stay.checkOut}&group_adults=${stay.adults}&group_children=${stay.children}&selected_currency=${stay.currency}`;
}

/** A coordinate as booking's string, keeping -0 (String(-0) is "0"). */
function coord(n: number): string {
  return Object.is(n, -0) ? '-0' : String(n);
}

function room(x: Price, features: string[]): BookingRoom {
  return {
    available: true,
    roomType: 'Standard Double Room',
    price: x.totalPrice,
    currency: bookingSymbol(x.currency),
    pricePerNight: x.nightlyPrice,
    taxesAndCharges: x.fees.taxes === null ? null : `+${formatMoney(x.fees.taxes, x.currency)} taxes and charges`,
    features: ['18 m²', ...features],
    conditions: ['Free cancellation before check-in', 'Pay at the property'],
  };
}

function item(x: ListingBody, price: Price | null, stay: StayQuery | undefined): BookingHotelItem {
  const { lat, lng, address, city, region, country } = x.location;
  const out: BookingHotelItem = {
    url: hotelUrl(x.platformListingId, price ? stay : undefined),
    name: x.name,
    type: TYPE_LABELS[x.propertyType].booking,
    stars: x.starRating,
    rating: x.guestRating,
    reviews: x.reviewCount,
    breakfast: x.amenities.includes('breakfast') ? 'Continental, Buffet' : null,
    location: lat !== null && lng !== null ? { lat: coord(lat), lng: coord(lng) } : null,
    address: { full: address ?? '', country: countryName(country) ?? '', region: region ?? '', city, countryCode: country?.toLowerCase() ?? null },
    facilities: x.amenities.filter((a) => a !== 'breakfast').map((a) => AMENITY_LABELS[a].booking),
    maxPersons: x.maxOccupancy,
    bedrooms: x.bedrooms,
    bathrooms: x.bathrooms,
  };
  if (x.images[0] !== undefined) out.image = x.images[0];
  if (x.images.length > 1) out.images = [...x.images];
  if (price) {
    out.price = price.totalPrice;
    out.currency = price.currency;
    out.rooms = [
      room(
        price,
        ROOM_LEVEL.filter((a) => x.amenities.includes(a)).map((a) => AMENITY_LABELS[a].booking),
      ),
    ];
  }
  return out;
}

export function emitListing(x: ListingBody): BookingHotelItem {
  return item(x, null, undefined);
}

export function emitSearchItem(x: Property, stay: StayQuery | undefined): BookingHotelItem {
  return { order: 1, ...item(x, stay ? (x.price ?? null) : null, stay) };
}

/** A dated detail run: the URL carries the dates, the first room the quote. */
export function emitQuote(x: Price, stay: StayQuery): BookingHotelItem {
  return { url: hotelUrl(x.listingId, stay), price: x.totalPrice, currency: x.currency, rooms: [room(x, [])] };
}

export function emitCalendar(x: Availability): BookingCalendarDay[] {
  return x.dates.map((d) => (d.bookable === null ? { date: d.date, available: d.available } : { date: d.date, available: d.available, bookable: d.bookable }));
}

export function emitReview(x: Review): BookingReviewItem {
  const out: BookingReviewItem = {
    id: x.reviewId,
    reviewTitle: x.title,
    rating: x.rating,
    reviewDate: `${x.date}T00:00:00.000Z`,
    likedText: x.liked,
    dislikedText: x.disliked,
    text: x.text,
    hotelResponse: x.ownerResponse,
    startUrl: hotelUrl(x.listingId),
  };
  if (x.author !== null) out.userName = x.author;
  if (x.tripType !== null) out.travelerType = TRIP_LABELS[x.tripType]?.booking ?? x.tripType;
  if (x.language !== null) out.reviewLanguage = x.language;
  return out;
}
