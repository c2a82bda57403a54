// Unified → vrbo raw rows, in jupri/vrbo-property's and powerai/vrbo-reviews-scraper's shapes with
// their quirks: lists nested twice, `coordinate` singular, per-night rents, and ratings on 10 (as
// current vrbo data is) that normalize/vrbo.ts must bring back onto the spec's 5.
import { listingUrl } from '../../core/listing-ref.js';
import type { Availability, Price, Property, Review } from '../../core/schemas/resources.js';
import type { StayQuery } from '../../core/upstream.js';
import type { ListingBody } from '../normalize/common.js';
import { AMENITY_LABELS, TRIP_LABELS, TYPE_LABELS } from './labels.js';
import type { VrboCalendarDay, VrboNested, VrboPropertyItem, VrboRateSummary, VrboReviewItem } from './types.js';

const P = 'vrbo';
/** Vrbo's current rating maximum; halving back onto 5 is exact in binary floating point. */
const RAW_MAX = 10;

/** items[].items[].value, in groups of up to `size`. */
function nested(values: readonly string[], size = 6): VrboNested {
  const items: { items: { value: string }[] }[] = [];
  for (let i = 0; i < values.length; i += size) items.push({ items: values.slice(i, i + size).map((value) => ({ value })) });
  return { items };
}

function rateSummary(x: Price): VrboRateSummary {
  const rs: VrboRateSummary = { rentNights: [], rentNightsConverted: Array.from({ length: x.nights }, () => x.nightlyPrice), currency: x.currency, total: x.totalPrice };
  if (x.fees.cleaning !== null) rs.cleaningFee = x.fees.cleaning;
  if (x.fees.service !== null) rs.serviceFee = x.fees.service;
  if (x.fees.taxes !== null) rs.taxes = x.fees.taxes;
  return rs;
}

function item(x: ListingBody): VrboPropertyItem {
  const { lat, lng, city, region, country } = x.location;
  const highlights: NonNullable<VrboPropertyItem['highlights']> = {};
  if (x.bedrooms !== null) highlights.bedroomsCount = x.bedrooms;
  if (x.bathrooms !== null) highlights.bathroomsCount = x.bathrooms;
  if (x.maxOccupancy !== null) highlights.sleepsCount = x.maxOccupancy;
  const reviews: NonNullable<VrboPropertyItem['reviews']> = { total: x.reviewCount };
  if (x.guestRating !== null) Object.assign(reviews, { averageRating: x.guestRating * (RAW_MAX / 5), ratingMax: RAW_MAX });
  return {
    id: x.platformListingId,
    name: x.name,
    url: listingUrl(P, x.platformListingId),
    propertyType: TYPE_LABELS[x.propertyType].vrbo,
    description: { about: nested([`Welcome to ${x.name}.`]) },
    highlights,
    address: { city, province: region, countryCode: country },
    coordinate: lat !== null && lng !== null ? { latitude: lat, longitude: lng } : null,
    amenities: nested(x.amenities.map((a) => AMENITY_LABELS[a].vrbo)),
    gallery: [{ name: 'All photos', images: x.images.map((url) => ({ url, name: '' })) }],
    reviews,
    host: x.host ? { name: x.host.name, isPremierHost: x.host.isSuperhost } : null,
    availabilityCalendar: {},
  };
}

export function emitListing(x: ListingBody): VrboPropertyItem {
  return item(x);
}

export function emitSearchItem(x: Property, stay: StayQuery | undefined): VrboPropertyItem {
  const out = item(x);
  if (stay && x.price) out.rateSummary = rateSummary(x.price);
  return out;
}

export function emitQuote(x: Price, _stay: StayQuery): VrboPropertyItem {
  return { id: x.listingId, url: listingUrl(P, x.listingId), rateSummary: rateSummary(x) };
}

const validity = (b: boolean) => (b ? 'VALID' : 'INVALID');

/** Days with check-in/out validity and the minimum stay; bookability is not a field (it is derived). */
export function emitCalendar(x: Availability): VrboCalendarDay[] {
  return x.dates.map((d) => {
    const day: VrboCalendarDay = { date: d.date, available: d.available };
    if (d.checkIn !== null) day.checkinValidity = validity(d.checkIn);
    if (d.checkOut !== null) day.checkoutValidity = validity(d.checkOut);
    if (d.minNights !== null) day.stayConstraint = { minNights: d.minNights };
    return day;
  });
}

export function emitReview(x: Review): VrboReviewItem {
  const out: VrboReviewItem = {
    reviewId: x.reviewId,
    rating: x.rating * (RAW_MAX / x.ratingScale),
    ratingMax: RAW_MAX,
    title: x.title,
    reviewDate: x.date,
    response: x.ownerResponse,
  };
  if (x.author !== null) out.author = x.author;
  if (x.text !== null) out.reviewText = x.text;
  if (x.language !== null) out.language = x.language;
  if (x.tripType !== null) out.travelerType = TRIP_LABELS[x.tripType]?.vrbo ?? x.tripType;
  return out;
}
