// Family S shapes from the unified ones: a Stay is written from a Property (the same listing body
// and search rows Family U serves), plus a calendar and reviews on lookups. The spec's field
// availability rules live here: pricing all-null off the dated search path, rating_breakdown
// components null, room_type and property_type null, amenities as one General group.
import type { Availability, Price, Property, Review } from '../schemas/resources.js';
import type { Stay, StayPart } from '../schemas/stays.js';

const NULL_PRICING: Stay['pricing'] = Object.freeze({ price: null, currency: null, rate_type: null, breakdown: null });

const NULL_BREAKDOWN: Stay['rating_breakdown'] = Object.freeze({
  accuracy: null,
  cleanliness: null,
  communication: null,
  location: null,
  value: null,
  check_in: null,
  guest_satisfaction: null,
});

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The dated search path's pricing: the nightly price, with the stay's lines as the breakdown. */
export function pricingOf(price: Price | null | undefined): Stay['pricing'] {
  if (!price) return NULL_PRICING;
  const breakdown = [{ label: `${price.nights} night${price.nights === 1 ? '' : 's'}`, amount: round2(price.nightlyPrice * price.nights) }];
  if (price.fees.cleaning !== null) breakdown.push({ label: 'Cleaning fee', amount: price.fees.cleaning });
  if (price.fees.service !== null) breakdown.push({ label: 'Service fee', amount: price.fees.service });
  if (price.fees.taxes !== null) breakdown.push({ label: 'Taxes', amount: price.fees.taxes });
  return { price: price.nightlyPrice, currency: price.currency, rate_type: 'nightly', breakdown };
}

const TYPE_WORDS: Record<Property['propertyType'], string> = {
  hotel: 'Hotel room',
  apartment: 'Apartment',
  house: 'House',
  villa: 'Villa',
  cottage: 'Cottage',
  other: 'Place to stay',
};

/**
 * A lookup's description. The sources state no free text yet (docs/decisions.md), so it is a
 * sentence of the listing's own facts; a source that gives the platform's text will replace it.
 */
export function describe(p: Property): string {
  const facts: string[] = [];
  if (p.bedrooms !== null) facts.push(p.bedrooms === 0 ? 'studio' : `${p.bedrooms} bedroom${p.bedrooms === 1 ? '' : 's'}`);
  if (p.bathrooms !== null) facts.push(`${p.bathrooms} bath${p.bathrooms === 1 ? '' : 's'}`);
  if (p.maxOccupancy !== null) facts.push(`sleeps ${p.maxOccupancy}`);
  const where = p.location.city ? ` in ${p.location.city}` : '';
  return `${TYPE_WORDS[p.propertyType]}${where}${facts.length ? `: ${facts.join(', ')}` : ''}.`;
}

export interface StayExtras {
  /** Lookups: the listing's calendar (next 30 days). */
  availability?: Availability | null;
  /** Lookups: the most recent reviews. */
  reviews?: Review[] | null;
  /** Search rows: the place asked for, when the row does not name one (rule 5). */
  query?: { city: string | null; country: string | null };
  /** Lookups carry a description; search rows only discovery fields. */
  detail: boolean;
}

const LOOKUP_REVIEWS = 20;

function stayReview(r: Review): Stay['reviews'][number] {
  return { id: r.reviewId, author_name: r.author ?? 'Anonymous', rating: r.rating, text: r.text ?? r.title ?? '', created_at: r.date };
}

export function toStay(p: Property, x: StayExtras): Stay {
  const host = p.host;
  return {
    id: p.platformListingId,
    url: p.url,
    title: p.name,
    description: x.detail ? describe(p) : null,
    property_type: null, // rule 4
    room_type: null,
    person_capacity: p.maxOccupancy,
    star_rating: p.starRating ?? p.guestRating,
    location: {
      latitude: p.location.lat,
      longitude: p.location.lng,
      address: p.location.address,
      city: p.location.city ?? x.query?.city ?? null,
      country: p.location.country ?? x.query?.country ?? null,
    },
    host: { id: null, name: host?.name ?? null, is_superhost: host?.isSuperhost === true, profile_image_url: null, profile_url: null, rating: null },
    pricing: x.detail ? NULL_PRICING : pricingOf(p.price), // rule 1
    reviews_count: p.reviewCount ?? 0,
    rating_breakdown: NULL_BREAKDOWN, // rule 3
    photos: p.images.map((url) => ({ url, caption: null })),
    reviews: (x.reviews ?? []).slice(0, LOOKUP_REVIEWS).map(stayReview),
    amenities: [{ category: 'General', items: [...p.amenities] }],
    availability: (x.availability?.dates ?? []).map((d) => ({ date: d.date, available: d.bookable ?? d.available, min_nights: d.minNights, price: null })),
  };
}

/** A sub-resource of a stay, exactly as the spec's table shapes it. */
export function stayPart(s: Stay, part: StayPart): Record<string, unknown> {
  switch (part) {
    case 'photos':
      return { id: s.id, photos: s.photos };
    case 'reviews':
      return { id: s.id, reviews_count: s.reviews_count, rating_breakdown: s.rating_breakdown, reviews: s.reviews };
    case 'host':
      return { id: s.id, host: s.host };
    case 'amenities':
      return { id: s.id, amenities: s.amenities };
    case 'availability':
      return { id: s.id, availability: s.availability };
    case 'pricing':
      return { id: s.id, pricing: s.pricing };
    case 'location':
      return { id: s.id, location: s.location };
    case 'rating':
      return { id: s.id, star_rating: s.star_rating, reviews_count: s.reviews_count, rating_breakdown: s.rating_breakdown };
  }
}
