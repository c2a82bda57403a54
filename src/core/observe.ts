// What an upstream answer tells about listings, as observations (issue 26): the legs that fetch
// searches, listings, quotes and calendars name how their answer reads (Leg.observe), and the live
// path records it when the upstream answered (src/core/execute.ts; never a cache hit, never the
// sandbox).
import type { NewObservation } from './ports/store.js';
import type { Availability, Price, Property } from './schemas/resources.js';
import { type StayQuery, allCandidates } from './upstream.js';

/** A stay as a series key: `checkIn/checkOut/adults`. */
export const stayKey = (s: Pick<StayQuery, 'checkIn' | 'checkOut' | 'adults'>) => `${s.checkIn}/${s.checkOut}/${s.adults}`;

/** A searched location as a series key: case and spacing do not make another place. */
export const locationKey = (location: string) => location.trim().replace(/\s+/g, ' ').toLowerCase();

function rating(p: Property): NewObservation[] {
  if (p.guestRating === null && p.reviewCount === null) return [];
  return [
    {
      platform: p.platform,
      listingId: p.platformListingId,
      kind: 'rating',
      key: '',
      currency: null,
      value: { guestRating: p.guestRating, ratingScale: p.ratingScale, reviewCount: p.reviewCount },
    },
  ];
}

/**
 * Where a listing is and how many bedrooms it has, as a search row or the listing shows them
 * (issue 27: market metrics by bounding box, comp sets by radius, by bedroom count): only the
 * facts the answer states, so a row without them reads as it did before.
 */
function place(p: Property): { lat?: number; lng?: number; bedrooms?: number } {
  const out: { lat?: number; lng?: number; bedrooms?: number } = {};
  const lat = p.location?.lat;
  const lng = p.location?.lng;
  if (typeof lat === 'number' && typeof lng === 'number') {
    out.lat = lat;
    out.lng = lng;
  }
  if (typeof p.bedrooms === 'number') out.bedrooms = p.bedrooms;
  return out;
}

/** A search's rows (every candidate, whichever form the upstream answered in): each listing's price in that search (and for its dates), and its rating. */
export function observeSearch(location: string, stay: StayQuery | undefined) {
  const key = stay ? `${locationKey(location)}@${stayKey(stay)}` : locationKey(location);
  return (value: unknown): NewObservation[] =>
    allCandidates(value).flatMap((p) => [
      {
        platform: p.platform,
        listingId: p.platformListingId,
        kind: 'search' as const,
        key,
        currency: p.price?.currency ?? null,
        value: { name: p.name, nightlyPrice: p.price?.nightlyPrice ?? null, totalPrice: p.price?.totalPrice ?? null, ...place(p) },
      },
      ...rating(p),
    ]);
}

/** A listing's own facts, and its rating. */
export function observeListing(value: unknown): NewObservation[] {
  const p = value as Property;
  return [
    {
      platform: p.platform,
      listingId: p.platformListingId,
      kind: 'listing',
      key: '',
      currency: null,
      value: { name: p.name, propertyType: p.propertyType, maxOccupancy: p.maxOccupancy, bedrooms: p.bedrooms, bathrooms: p.bathrooms, ...place(p) },
    },
    ...rating(p),
  ];
}

/** A price quote for one stay. */
export function observeQuote(stay: StayQuery) {
  return (value: unknown): NewObservation[] => {
    const q = value as Price;
    return [{ platform: q.platform, listingId: q.listingId, kind: 'quote', key: stayKey(stay), currency: q.currency, value: { nightlyPrice: q.nightlyPrice, totalPrice: q.totalPrice, fees: q.fees } }];
  };
}

/** A calendar: one observation per day. */
export function observeCalendar(value: unknown): NewObservation[] {
  const a = value as Availability;
  return a.dates.map((d) => ({
    platform: a.platform,
    listingId: a.listingId,
    kind: 'day' as const,
    key: d.date,
    currency: null,
    value: { available: d.available, minNights: d.minNights, checkIn: d.checkIn, checkOut: d.checkOut, bookable: d.bookable },
  }));
}
