// Sandbox properties: the 60 search candidates of a (platform, location) and the detail of any id.
// Both take the id-derived facts from coreFor; search rows take name and place from the search
// location, listing detail from the id alone (so the two names may differ, as the spec allows).
import type { EnabledPlatform } from '../../core/platforms.js';
import type { Property } from '../../core/schemas/resources.js';
import { listingUrl, staysId } from '../../core/listing-ref.js';
import { type Core, coreFor, imageUrls, nativeId, typeFor } from './core.js';
import { airbnbTitle, hotelStyleName, nameFromSlug, slugify, vrboTitle } from './names.js';
import { type Place, addressFor, placeForListing, placeKey, resolvePlace, scatter } from './places.js';
import { type Rng, rng } from './prng.js';

export const SEARCH_CANDIDATES = 60;

export interface Row {
  id: string;
  core: Core;
  property: Property;
}

function build(platform: EnabledPlatform, id: string, core: Core, name: string, location: Property['location'], images: string[]): Property {
  return {
    id: staysId(platform, id),
    platform,
    platformListingId: id,
    url: listingUrl(platform, id),
    name,
    propertyType: core.type,
    location,
    starRating: core.starRating,
    guestRating: core.guestRating,
    ratingScale: core.ratingScale,
    reviewCount: core.reviewCount,
    maxOccupancy: core.maxOccupancy,
    bedrooms: core.bedrooms,
    bathrooms: core.bathrooms,
    amenities: [...core.amenities],
    images,
    host: core.host ? { ...core.host } : null,
    price: null,
  };
}

/** A name in the platform's style for a listing of this core at this place. */
function styledName(platform: EnabledPlatform, r: Rng, core: Core, place: Place): string {
  if (platform === 'airbnb') return airbnbTitle(r, core, place);
  if (platform === 'vrbo') return vrboTitle(r, core, place);
  return hotelStyleName(r, core.type, place);
}

function located(r: Rng, platform: EnabledPlatform, place: Place, radiusKm: number): Property['location'] {
  const at = scatter(r, place.lat, place.lng, radiusKm);
  // Home platforms hide the street address until booking; hotel platforms show it.
  const address = platform === 'booking' || platform === 'google' ? addressFor(r, place) : null;
  return { lat: at.lat, lng: at.lng, city: place.city, region: place.region, country: place.country, address };
}

/**
 * The full candidate set of a platform at a location, in recommended order, prices unset.
 * Search rows carry one image (the cover photo, the first of the detail's images).
 */
export function searchRows(platform: EnabledPlatform, location: string): Row[] {
  const place = resolvePlace(location);
  const key = placeKey(location);
  const used = new Set<string>();
  const rows: Row[] = [];
  for (let i = 0; i < SEARCH_CANDIDATES; i++) {
    const r = rng('search', platform, key, i);
    let id: string;
    let core: Core;
    let name: string;
    if (platform === 'booking') {
      const type = typeFor('booking', '', r);
      const cc = (place.country ?? 'US').toLowerCase();
      name = hotelStyleName(r, type, place);
      id = `${cc}/${slugify(name)}`;
      for (let attempt = 0; used.has(id) && attempt < 12; attempt++) {
        name = hotelStyleName(r, type, place);
        id = `${cc}/${slugify(name)}`;
      }
      if (used.has(id)) id = `${id}-${i}`;
      core = coreFor(platform, id);
    } else {
      id = nativeId(platform, r);
      while (used.has(id)) id = nativeId(platform, r);
      core = coreFor(platform, id);
      name = styledName(platform, r, core, place);
    }
    used.add(id);
    const property = build(platform, id, core, name, located(r, platform, place, place.radiusKm), imageUrls(platform, id, 1));
    rows.push({ id, core, property });
  }
  return rows;
}

/** Listing detail from the id alone: images, no price, no identity (the world adds those). */
export function detailRow(platform: EnabledPlatform, id: string): Row {
  const core = coreFor(platform, id);
  const place = placeForListing(platform, id);
  const r = rng('listing', platform, id);
  let name: string;
  if (platform === 'booking') name = nameFromSlug(id.split('/').pop() ?? '') ?? hotelStyleName(r, core.type, place);
  else name = place ? styledName(platform, r, core, place) : hotelStyleName(r, core.type, null);
  let location: Property['location'];
  if (place) location = located(r, platform, place, 5);
  else {
    const cc = id.includes('/') ? id.split('/')[0]!.toUpperCase() : null;
    location = { lat: null, lng: null, city: null, region: null, country: cc && /^[A-Z]{2}$/.test(cc) ? cc : null, address: null };
  }
  return { id, core, property: build(platform, id, core, name, location, imageUrls(platform, id, core.photos)) };
}
