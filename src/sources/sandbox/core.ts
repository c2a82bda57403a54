// A listing's id-derived facts: everything about a property that does not depend on where it was
// seen (type, rooms, ratings, amenities, host, price basis, stay rules), plus native ids and image urls.
// Search rows and listing detail are both built from these and the id's place (rows.ts), so they agree.
// Listing urls and stays ids come from src/core/listing-ref.ts.
import type { EnabledPlatform } from '../../core/platforms.js';
import { RATING_SCALE } from '../../core/platforms.js';
import { AMENITIES, type Amenity, type PropertyType } from '../../core/schemas/enums.js';
import { hostName, inferTypeFromSlug } from './names.js';
import type { PriceBasis } from './money.js';
import { type Rng, rng } from './prng.js';

export function imageUrls(platform: EnabledPlatform, id: string, count: number): string[] {
  const path = id
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/');
  return Array.from({ length: count }, (_v, i) => `https://images.stays.example/${platform}/${path}/${i + 1}.jpg`);
}

/** The range of numeric native ids, by platform. */
const ID_RANGE = { airbnb: [10_000_000, 999_999_999], vrbo: [1_000_000, 99_999_999] } as const;

/**
 * A fresh native id for a search row (booking ids are built from the name instead) that says place
 * `code` (places.ts placeCode): a numeric id is ≡ code modulo `codes`; a google id ends in
 * alphabet[code].
 */
export function nativeId(platform: Exclude<EnabledPlatform, 'booking'>, r: Rng, code: number, codes: number, alphabet: string): string {
  if (platform === 'google') return `ChIJ${r.chars(alphabet, r.int(13, 19))}${alphabet[code]}`;
  const [lo, hi] = ID_RANGE[platform];
  let n = r.int(lo, hi);
  n = n - (n % codes) + code;
  if (n < lo) n += codes;
  if (n > hi) n -= codes;
  return String(n);
}

export interface Core {
  type: PropertyType;
  starRating: number | null;
  guestRating: number | null;
  ratingScale: number;
  reviewCount: number;
  maxOccupancy: number;
  bedrooms: number | null;
  bathrooms: number | null;
  amenities: Amenity[];
  host: { name: string | null; isSuperhost: boolean | null } | null;
  basis: PriceBasis;
  /** Base minimum stay (airbnb, vrbo calendars). */
  minNights: number;
  /** A weekday (0 = Sunday) check-in is refused on, or null. */
  noCheckInDay: number | null;
  photos: number;
}

const TYPE_WEIGHTS: Record<EnabledPlatform, readonly (readonly [PropertyType, number])[]> = {
  booking: [
    ['hotel', 74],
    ['apartment', 16],
    ['villa', 4],
    ['other', 6],
  ],
  google: [
    ['hotel', 86],
    ['apartment', 9],
    ['other', 5],
  ],
  airbnb: [
    ['apartment', 52],
    ['house', 24],
    ['villa', 8],
    ['cottage', 8],
    ['other', 8],
  ],
  vrbo: [
    ['house', 40],
    ['apartment', 26],
    ['villa', 16],
    ['cottage', 14],
    ['other', 4],
  ],
};

export function typeFor(platform: EnabledPlatform, id: string, r: Rng): PropertyType {
  if (platform === 'booking') {
    const inferred = inferTypeFromSlug(id.split('/').pop() ?? '');
    if (inferred) return inferred;
  }
  return r.weighted(TYPE_WEIGHTS[platform]);
}

/** Reviews a listing has in total (0–150): the length of reviews() and the row's reviewCount. */
function reviewCountFor(platform: EnabledPlatform, id: string): number {
  const r = rng('review-count', platform, id);
  if (r.chance(0.06)) return r.int(0, 4);
  return r.int(8, 150);
}

/**
 * The listing's average guest rating on the native scale, one decimal, skewed high as on the real
 * platforms. Only IEEE-exact operations (sqrt, products), never Math.pow.
 */
function guestRatingFor(platform: EnabledPlatform, r: Rng): number {
  const u = r.next();
  const high = 1 - (1 - u) * (1 - u);
  const x = platform === 'airbnb' ? 4.3 + 0.7 * Math.sqrt(u) : platform === 'vrbo' ? 4.0 + 1.0 * Math.sqrt(u) : platform === 'booking' ? 6.8 + 2.9 * high : 3.6 + 1.3 * high;
  return Math.round(x * 10) / 10;
}

type Odds = Partial<Record<PropertyType | 'any', number>>;
/** Chance of each amenity by property type ('any' for the rest). */
const AMENITY_ODDS: Record<Amenity, Odds> = {
  pool: { villa: 0.7, house: 0.2, hotel: 0.2, any: 0.05 },
  hot_tub: { villa: 0.3, cottage: 0.2, any: 0.04 },
  kitchen: { hotel: 0.04, any: 0.95 },
  wifi: { any: 0.96 },
  air_conditioning: { cottage: 0.2, any: 0.6 },
  heating: { any: 0.8 },
  parking_free: { villa: 0.8, house: 0.6, cottage: 0.8, any: 0.2 },
  parking_paid: { hotel: 0.4, any: 0.1 },
  pet_friendly: { cottage: 0.4, any: 0.18 },
  washer: { hotel: 0.02, any: 0.7 },
  dryer: { hotel: 0, any: 0.35 },
  ev_charger: { any: 0.05 },
  gym: { hotel: 0.4, apartment: 0.08, any: 0.01 },
  sea_view: { villa: 0.35, any: 0.12 },
  beachfront: { villa: 0.12, any: 0.04 },
  balcony: { any: 0.4 },
  bbq: { villa: 0.5, house: 0.4, cottage: 0.4, any: 0.03 },
  workspace: { hotel: 0.3, any: 0.45 },
  crib: { any: 0.3 },
  elevator: { hotel: 0.9, apartment: 0.5, any: 0.02 },
  wheelchair_accessible: { hotel: 0.35, any: 0.05 },
  smoke_alarm: { hotel: 0.5, any: 0.85 },
  breakfast: { hotel: 0.55, other: 0.5, any: 0.03 },
  spa: { hotel: 0.15, any: 0.01 },
  garden: { villa: 0.7, house: 0.6, cottage: 0.7, any: 0.05 },
  fireplace: { cottage: 0.5, house: 0.15, any: 0.03 },
  dishwasher: { hotel: 0, any: 0.4 },
  self_check_in: { hotel: 0.1, any: 0.6 },
  non_smoking: { any: 0.7 },
  family_friendly: { any: 0.4 },
};

function amenitiesFor(r: Rng, type: PropertyType, stars: number | null): Amenity[] {
  const out: Amenity[] = [];
  for (const a of AMENITIES) {
    const odds = AMENITY_ODDS[a];
    let p = odds[type] ?? odds.any ?? 0;
    if (a === 'spa' && (stars ?? 0) >= 4) p = 0.5;
    if (a === 'parking_free' && out.includes('parking_paid')) p = 0;
    if (r.chance(p)) out.push(a);
  }
  if (out.includes('parking_paid') && out.includes('parking_free')) out.splice(out.indexOf('parking_paid'), 1);
  return out;
}

const HOTEL_BASE_USD: Record<number, readonly [number, number]> = { 1: [45, 80], 2: [60, 110], 3: [90, 170], 4: [140, 260], 5: [260, 600] };

function homeRooms(r: Rng, type: PropertyType): { bedrooms: number; bathrooms: number; baseUsd: number } {
  const bedrooms =
    type === 'apartment'
      ? r.weighted([
          [0, 12],
          [1, 38],
          [2, 32],
          [3, 14],
          [4, 4],
        ] as const)
      : type === 'house'
        ? r.int(2, 5)
        : type === 'villa'
          ? r.int(3, 7)
          : type === 'cottage'
            ? r.int(1, 3)
            : 1;
  const bathrooms = bedrooms <= 1 ? 1 : 1 + 0.5 * r.int(0, bedrooms - 1);
  const per = type === 'villa' ? 80 : type === 'house' ? 45 : 35;
  const floor = type === 'villa' ? 180 : type === 'house' ? 90 : type === 'other' ? 45 : 60;
  return { bedrooms, bathrooms, baseUsd: (floor + per * bedrooms) * r.range(0.85, 1.3) };
}

/** The id-derived facts of a listing: a pure function of (platform, id). */
export function coreFor(platform: EnabledPlatform, id: string): Core {
  const r = rng('core', platform, id);
  const type = typeFor(platform, id, r);
  const home = platform === 'airbnb' || platform === 'vrbo';
  const reviewCount = reviewCountFor(platform, id);
  const guestRating = guestRatingFor(platform, r);
  let starRating: number | null = null;
  let bedrooms: number | null;
  let bathrooms: number | null;
  let maxOccupancy: number;
  let baseUsd: number;
  if (type === 'hotel') {
    const stars = r.weighted([
      [1, 3],
      [2, 10],
      [3, 35],
      [4, 38],
      [5, 14],
    ] as const);
    starRating = stars;
    const [lo, hi] = HOTEL_BASE_USD[stars]!;
    baseUsd = r.range(lo, hi);
    maxOccupancy = r.weighted([
      [2, 55],
      [3, 25],
      [4, 20],
    ] as const);
    bedrooms = platform === 'google' ? null : 1;
    bathrooms = platform === 'google' ? null : 1;
  } else {
    const rooms = homeRooms(r, type);
    bedrooms = rooms.bedrooms;
    bathrooms = rooms.bathrooms;
    baseUsd = rooms.baseUsd;
    maxOccupancy = Math.min(16, rooms.bedrooms === 0 ? 2 : rooms.bedrooms * 2 + r.int(0, 2));
    if (platform === 'google') [bedrooms, bathrooms] = [null, null];
  }
  const amenities = amenitiesFor(r, type, starRating);
  const host = home ? { name: hostName(r, platform), isSuperhost: r.chance(0.33) } : null;
  const minNights =
    platform === 'vrbo'
      ? r.weighted([
          [1, 10],
          [2, 25],
          [3, 35],
          [4, 10],
          [5, 8],
          [7, 12],
        ] as const)
      : r.weighted([
          [1, 35],
          [2, 30],
          [3, 20],
          [4, 5],
          [5, 4],
          [7, 6],
        ] as const);
  return {
    type,
    starRating,
    guestRating: reviewCount === 0 ? null : guestRating,
    ratingScale: RATING_SCALE[platform],
    reviewCount,
    maxOccupancy,
    bedrooms,
    bathrooms,
    amenities,
    host,
    basis: { type: type === 'hotel' ? 'hotel' : 'home', baseUsd, cleaningUsd: bedrooms === null ? 0 : 25 + 18 * bedrooms + r.int(0, 20) },
    minNights,
    noCheckInDay: home && r.chance(0.25) ? r.int(0, 6) : null,
    photos: r.int(3, 8),
  };
}
