// Sandbox properties: the 60 search candidates of a (platform, location) and the detail of any id.
// A listing is a function of its id alone (coreFor for its facts, placeForListing for its place),
// and a search picks ids whose place is the place searched: one id is one property wherever it is
// read (search row, lookup, with-details, listing, both families).
import type { EnabledPlatform } from '../../core/platforms.js';
import type { Property } from '../../core/schemas/resources.js';
import { listingUrl, staysId } from '../../core/listing-ref.js';
import { type Core, coreFor, imageUrls, nativeId, typeFor } from './core.js';
import { airbnbTitle, hotelStyleName, nameFromSlug, slugify, vrboTitle } from './names.js';
import { ID_ALPHABET, NOWHERE, PLACELESS, type Place, addressFor, placeForListing, placeKey, resolvePlace, scatter } from './places.js';
import { type Rng, rng } from './prng.js';
import { twinRow } from './twins.js';

const SEARCH_CANDIDATES = 60;

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
function styledName(platform: EnabledPlatform, r: Rng, core: Core, place: Place | null): string {
  if (platform === 'airbnb') return airbnbTitle(r, core, place ?? PLACELESS);
  if (platform === 'vrbo') return vrboTitle(r, core, place ?? PLACELESS);
  return hotelStyleName(r, core.type, place);
}

function located(r: Rng, platform: EnabledPlatform, place: Place, radiusKm: number): Property['location'] {
  const at = scatter(r, place.lat, place.lng, radiusKm);
  // Home platforms hide the street address until booking; hotel platforms show it.
  const address = platform === 'booking' || platform === 'google' ? addressFor(r, place) : null;
  return { lat: at.lat, lng: at.lng, city: place.city, region: place.region, country: place.country, address };
}

/** How many draws a search row may take to find an id of its place before giving up on style. */
const ID_DRAWS = 4096;

/** A booking id `<cc>/<slug>` for a hotel name. */
const bookingId = (cc: string, name: string) => `${cc}/${slugify(name)}`;

/**
 * A booking search row's name and id. The id's slug must say the row's place as the id alone
 * reads it (placeForListing): a built-in city's rows name their city (the name is retried, then
 * the city appended), other places' rows name none.
 */
function bookingRow(r: Rng, place: Place, used: Set<string>, i: number): { id: string; name: string } {
  const type = typeFor('booking', '', r);
  const cc = (place.country ?? 'US').toLowerCase();
  const fits = (id: string) => !used.has(id) && (placeForListing('booking', id)?.cityIndex ?? null) === place.cityIndex;
  let name = hotelStyleName(r, type, place);
  for (let attempt = 0; !fits(bookingId(cc, name)) && attempt < 12; attempt++) name = hotelStyleName(r, type, place);
  if (!fits(bookingId(cc, name))) {
    if (place.cityIndex !== null) name = `${name} ${place.local}`;
    else for (let attempt = 0; !fits(bookingId(cc, name)) && attempt < 64; attempt++) name = hotelStyleName(r, type, null);
  }
  let id = bookingId(cc, name);
  if (used.has(id)) id = `${id}-${i}`;
  return { id, name };
}

/** A native id (airbnb, vrbo, google) whose place code is the search's place. */
function nativeRowId(platform: Exclude<EnabledPlatform, 'booking'>, r: Rng, place: Place, used: Set<string>): string {
  const want = place.cityIndex ?? NOWHERE;
  const draw = () => nativeId(platform, r, want, NOWHERE + 1, ID_ALPHABET);
  let id = draw();
  for (let n = 0; used.has(id) && n < ID_DRAWS; n++) id = draw();
  return id;
}

/**
 * The candidate set of a platform at a location, in recommended order, prices unset, made row by
 * row as it is read (the reader keeps what it needs): a row costs the generation of its listing, and a page reads a prefix (a
 * default search reads 11 of 60 rows). Row i depends only on rows 0..i-1 (the ids taken), so a
 * prefix is the same whether or not the rest is ever made.
 * Each row is its id's listing (detailRow) with one image, the cover photo: the id says the
 * place (placeForListing). Only a row whose id says nowhere (a place outside the built-in table)
 * takes its place from the search (spec rule 5: search rows name the place searched).
 */
export class CandidateRows {
  /** Rows in the set. */
  readonly length = SEARCH_CANDIDATES;
  private readonly place: Place;
  private readonly key: string;
  /** The ids of the rows made so far, all a next row depends on (no row is kept here). */
  private readonly used = new Set<string>();
  private made = 0;

  constructor(
    private readonly platform: EnabledPlatform,
    location: string,
  ) {
    this.place = resolvePlace(location);
    this.key = placeKey(location);
  }

  /** The next row in order (made after every row before it), or undefined after the last. */
  next(): Row | undefined {
    if (this.made >= SEARCH_CANDIDATES) return undefined;
    const i = this.made++;
    const { platform, place, used } = this;
    const r = rng('search', platform, this.key, i);
    const id = platform === 'booking' ? bookingRow(r, place, used, i).id : nativeRowId(platform, r, place, used);
    used.add(id);
    const row = detailRow(platform, id, 1);
    if (placeForListing(platform, id) === null) row.property.location = located(r, platform, place, place.radiusKm);
    return row;
  }
}

/**
 * The name and detail of an id alone: images (all of them, or the first `images`), no price, no
 * identity (the world adds those). A listing of a multi-listed property the truth made (twins.ts:
 * new ids only) is the truth's.
 */
export function detailRow(platform: EnabledPlatform, id: string, images?: number): Row {
  return twinRow(platform, id, images, baseRow) ?? baseRow(platform, id, images);
}

/** detailRow of every id the truth did not make. */
export function baseRow(platform: EnabledPlatform, id: string, images?: number): Row {
  const core = coreFor(platform, id);
  const place = placeForListing(platform, id);
  const r = rng('listing', platform, id);
  let name: string;
  if (platform === 'booking') name = nameFromSlug(id.split('/').pop() ?? '') ?? hotelStyleName(r, core.type, place);
  else name = styledName(platform, r, core, place);
  let location: Property['location'];
  if (place) location = located(r, platform, place, place.radiusKm);
  else {
    const cc = id.includes('/') ? id.split('/')[0]!.toUpperCase() : null;
    location = { lat: null, lng: null, city: null, region: null, country: cc && /^[A-Z]{2}$/.test(cc) ? cc : null, address: null };
  }
  return { id, core, property: build(platform, id, core, name, location, imageUrls(platform, id, images ?? core.photos)) };
}
