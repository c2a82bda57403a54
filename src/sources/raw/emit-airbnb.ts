// Unified → airbnb raw rows, in tri_angle/airbnb-scraper's shapes with its quirks (money as text,
// amenity groups with a "Not included" group, rooms only as subDescription text, an SEO title
// suffix, calendar_months days), so the simulated upstream exercises normalize/airbnb.ts.
import { listingUrl } from '../../core/listing-ref.js';
import type { Amenity, Availability, Price, Property, Review } from '../../core/schemas/resources.js';
import type { StayQuery } from '../../core/upstream.js';
import type { ListingBody } from '../normalize/common.js';
import { round2 } from '../normalize/money.js';
import { AMENITY_LABELS, TYPE_LABELS, countryName, formatMoney } from './labels.js';
import type { AirbnbAmenityGroup, AirbnbCalendarDay, AirbnbListingItem, AirbnbPrice, AirbnbPriceBreakDown, AirbnbReviewItem } from './types.js';

const P = 'airbnb';

const GROUPS: readonly (readonly [string, readonly Amenity[]])[] = [
  ['Scenic views', ['sea_view']],
  ['Bathroom', ['hot_tub']],
  ['Bedroom and laundry', ['washer', 'dryer']],
  ['Family', ['crib', 'family_friendly']],
  ['Heating and cooling', ['air_conditioning', 'heating', 'fireplace']],
  ['Home safety', ['smoke_alarm']],
  ['Internet and office', ['wifi', 'workspace']],
  ['Kitchen and dining', ['kitchen', 'dishwasher', 'breakfast']],
  ['Location features', ['beachfront']],
  ['Outdoor', ['balcony', 'bbq', 'garden']],
  ['Parking and facilities', ['pool', 'parking_free', 'parking_paid', 'ev_charger', 'gym', 'elevator', 'spa']],
  ['Services', ['pet_friendly', 'self_check_in', 'non_smoking']],
  ['Accessibility', ['wheelchair_accessible']],
];
/** Amenities airbnb shows as missing when a listing lacks them. */
const NOT_INCLUDED: readonly Amenity[] = ['air_conditioning', 'wifi', 'washer', 'smoke_alarm'];
const PLURAL: Record<Property['propertyType'], string> = {
  hotel: 'Hotel rooms',
  apartment: 'Apartments',
  house: 'Houses',
  villa: 'Villas',
  cottage: 'Cottages',
  other: 'Places',
};

function amenityGroups(tokens: readonly Amenity[]): AirbnbAmenityGroup[] {
  const value = (a: Amenity, available: true | '') => ({ title: AMENITY_LABELS[a].airbnb, subtitle: '', icon: `SYSTEM_${a.toUpperCase()}`, available });
  const groups: AirbnbAmenityGroup[] = [];
  const placed = new Set<Amenity>();
  for (const [title, members] of GROUPS) {
    const here = members.filter((a) => tokens.includes(a));
    here.forEach((a) => placed.add(a));
    if (here.length > 0) groups.push({ title, values: here.map((a) => value(a, true)) });
  }
  const rest = tokens.filter((a) => !placed.has(a));
  if (rest.length > 0) groups.push({ title: 'Other', values: rest.map((a) => value(a, true)) });
  const missing = NOT_INCLUDED.filter((a) => !tokens.includes(a));
  if (missing.length > 0) groups.push({ title: 'Not included', values: missing.map((a) => value(a, '')) });
  return groups;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function subDescription(x: ListingBody): AirbnbListingItem['subDescription'] {
  const items: string[] = [];
  if (x.maxOccupancy !== null) items.push(plural(x.maxOccupancy, 'guest', 'guests'));
  if (x.bedrooms !== null) items.push(x.bedrooms === 0 ? 'Studio' : plural(x.bedrooms, 'bedroom', 'bedrooms'));
  if (x.bedrooms !== null) items.push(plural(Math.max(1, x.bedrooms), 'bed', 'beds'));
  if (x.bathrooms !== null) items.push(plural(x.bathrooms, 'bath', 'baths'));
  const where = x.location.city ?? 'the area';
  return { title: `${TYPE_LABELS[x.propertyType].airbnb} in ${where}`, items };
}

function item(x: ListingBody): AirbnbListingItem {
  const id = x.platformListingId;
  const { city, region, country, lat, lng } = x.location;
  const place = city !== null && country !== null ? `${city}, ${countryName(country)}` : null;
  const g = x.guestRating;
  const out: AirbnbListingItem = {
    id,
    url: `https://www.airbnb.com/rooms/${id}?source_impression_id=p3_stays`,
    title: place ? `${x.name} - ${PLURAL[x.propertyType]} for Rent in ${place} - Airbnb` : x.name,
    description: `${TYPE_LABELS[x.propertyType].airbnb} in ${city ?? 'the area'}.`,
    roomType: x.propertyType === 'hotel' ? 'Private room' : 'Entire home/apt',
    propertyType: TYPE_LABELS[x.propertyType].airbnb,
    coordinates: lat !== null && lng !== null ? { latitude: lat, longitude: lng } : null,
    subDescription: subDescription(x),
    amenities: amenityGroups(x.amenities),
    images: x.images.length > 1 ? x.images.map((imageUrl) => ({ caption: '', imageUrl })) : [],
    city,
    state: region,
    countryCode: country,
    locale: 'en',
    language: 'en',
  };
  if (x.images[0] !== undefined) out.thumbnail = x.images[0];
  if (place) out.location = place;
  if (g !== null || x.reviewCount !== null) {
    out.rating = {};
    if (g !== null) out.rating.guestSatisfaction = g;
    if (x.reviewCount !== null) out.rating.reviewsCount = x.reviewCount;
  }
  if (x.maxOccupancy !== null) out.personCapacity = x.maxOccupancy;
  if (x.starRating !== null) out.stars = x.starRating;
  if (x.host) {
    out.host = { name: x.host.name, isSuperHost: x.host.isSuperhost };
    if (x.host.isSuperhost !== null) out.isSuperHost = x.host.isSuperhost;
  }
  return out;
}

/** The price block of a dated run: nightly amount, fee lines and total as localized text. */
function priceBlock(q: Price): AirbnbPrice {
  const f = (n: number) => formatMoney(n, q.currency);
  const breakDown: AirbnbPriceBreakDown = {
    basePrice: { description: `${f(q.nightlyPrice)} x ${plural(q.nights, 'night', 'nights')}`, price: f(round2(q.nightlyPrice * q.nights)) },
  };
  if (q.fees.cleaning !== null) breakDown.cleaningFee = { description: 'Cleaning fee', price: f(q.fees.cleaning) };
  if (q.fees.service !== null) breakDown.serviceFee = { description: 'Airbnb service fee', price: f(q.fees.service) };
  if (q.fees.taxes !== null) breakDown.taxes = { description: 'Taxes', price: f(q.fees.taxes) };
  breakDown.total = { description: 'Total', price: f(q.totalPrice) };
  return { label: `${f(q.nightlyPrice)} per night`, amount: f(q.nightlyPrice), qualifier: 'night', breakDown };
}

export function emitListing(x: ListingBody): AirbnbListingItem {
  return item(x);
}

export function emitSearchItem(x: Property, stay: StayQuery | undefined): AirbnbListingItem {
  const out = item(x);
  if (stay && x.price) Object.assign(out, { checkIn: stay.checkIn, checkOut: stay.checkOut, price: priceBlock(x.price) });
  return out;
}

/** A dated run on the room URL (tri_angle/airbnb-rooms-urls-scraper): the listing's price. */
export function emitQuote(x: Price, stay: StayQuery): AirbnbListingItem {
  const url = `${listingUrl(P, x.listingId)}?check_in=${stay.checkIn}&check_out=${stay.checkOut}&adults=${stay.adults}`;
  return { id: x.listingId, url, checkIn: stay.checkIn, checkOut: stay.checkOut, price: priceBlock(x) };
}

/** calendar_months days, in Airbnb's own snake_case; unstated rules are left out. */
export function emitCalendar(x: Availability): AirbnbCalendarDay[] {
  return x.dates.map((d) => {
    const day: AirbnbCalendarDay = { date: d.date, available: d.available };
    if (d.checkIn !== null) day.available_for_checkin = d.checkIn;
    if (d.checkOut !== null) day.available_for_checkout = d.checkOut;
    if (d.bookable !== null) day.bookable = d.bookable;
    if (d.minNights !== null) day.min_nights = d.minNights;
    return day;
  });
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export function emitReview(x: Review): AirbnbReviewItem {
  const out: AirbnbReviewItem = {
    id: x.reviewId,
    createdAt: `${x.date}T12:00:00Z`,
    localizedDate: `${MONTHS[Number(x.date.slice(5, 7)) - 1] ?? ''} ${x.date.slice(0, 4)}`,
    rating: x.rating,
    response: x.ownerResponse,
    startUrl: listingUrl(P, x.listingId),
  };
  if (x.language !== null) out.language = x.language;
  if (x.text !== null) Object.assign(out, { text: x.text, localizedText: x.text });
  if (x.author !== null) out.reviewer = { firstName: x.author, hostName: x.author };
  return out;
}
