// Parameter sets of every Family U operation, each made on its first use (params.ts exports them
// built): a call builds only its own. Field-level rules live here; rules that relate several
// fields (date order, childAges length, exclusivity) live in core/validate.ts.
import { z } from 'zod';
import { REVIEWS_LIMIT, SEARCH_LIMIT } from '../limits.js';
import { ALL_PLATFORMS } from '../platforms.js';
import { AMENITIES, PROPERTY_TYPES } from './enums.js';
import { bool, country, currency, date, int, language, list, lowerEnum, num, str } from './fields.js';
import { once } from './once.js';

export const SEARCH_SORTS = ['recommended', 'price_asc', 'price_desc', 'rating_desc'] as const;
export const REVIEW_SORTS = ['recent', 'rating_desc', 'rating_asc'] as const;

/** Bounds the spec leaves open; see docs/decisions.md. */
export const MAX_ADULTS = 50;
export const MAX_CHILDREN = 20;
export const MAX_ROOMS = 30;
export const MAX_CHILD_AGE = 17;

const platform = () => lowerEnum(ALL_PLATFORMS);

const occupancy = once(() => ({
  adults: int(z.number().min(1).max(MAX_ADULTS)).default(2).describe('Adults, >= 1. Default 2.'),
  children: int(z.number().min(0).max(MAX_CHILDREN)).default(0).describe('Children, >= 0; needs matching childAges.'),
  childAges: list(int(z.number().min(0).max(MAX_CHILD_AGE)))
    .optional()
    .describe('One age (0-17) per child; comma-separated or repeated.'),
}));

const curr = () => currency().default('USD').describe('ISO-4217 currency, echoed. Default USD.');

export const searchParams = once(() =>
  z.object({
    location: str(z.string().min(1)).describe('Place name or a lat,lng pair.'),
    bbox: str()
      .optional()
      .describe(
        'minLng,minLat,maxLng,maxLat (WGS84 degrees): a map search, answering the listings inside the box (the location then only names the search; issue 38). With a bbox, priceMin and priceMax go to the platform as its nightly price filter (dates or not) before its result cap.',
      ),
    checkIn: date().optional().describe('YYYY-MM-DD; required if checkOut is given; not in the past (UTC).'),
    checkOut: date().optional().describe('YYYY-MM-DD; required if checkIn is given; after checkIn.'),
    ...occupancy(),
    rooms: int(z.number().min(1).max(MAX_ROOMS)).default(1).describe('Rooms, >= 1. Default 1.'),
    propertyType: list(lowerEnum(PROPERTY_TYPES))
      .optional()
      .describe(`Property types: ${PROPERTY_TYPES.join(', ')}.`),
    amenities: list(lowerEnum(AMENITIES)).optional().describe('Canonical amenity tokens; all must match.'),
    minBedrooms: int(z.number().min(0)).optional().describe('Minimum bedrooms, >= 0.'),
    priceMin: num(z.number().min(0)).optional().describe('Minimum nightly price in currency, >= 0.'),
    priceMax: num(z.number().min(0)).optional().describe('Maximum nightly price in currency, >= priceMin.'),
    minGuestRating: num(z.number().min(0)).optional().describe("Minimum guest rating, on each platform's native ratingScale."),
    platforms: list(platform()).optional().describe('Platforms to fan out to (default vrbo,booking,airbnb,google); drives billing.'),
    platform: platform().optional().describe('Alias for platforms with one value.'),
    limit: int(z.number().min(1).max(SEARCH_LIMIT.max)).default(SEARCH_LIMIT.default).describe(`Results per platform, 1 to ${SEARCH_LIMIT.max}. Default ${SEARCH_LIMIT.default}.`),
    cursor: str().optional().describe('Opaque cursor from meta.pagination.nextCursor.'),
    sort: lowerEnum(SEARCH_SORTS).default('recommended').describe('recommended (round-robin across platforms), price_asc, price_desc, rating_desc.'),
    currency: curr(),
  }),
);

export const reviewsParams = once(() =>
  z.object({
    platform: platform().optional().describe('vrbo, booking or airbnb; may be derived from a stays_<platform>_<id> listingId.'),
    listingId: str().optional().describe('Platform-native id, a stays_<platform>_<id> id or (airbnb) a room URL.'),
    url: str().optional().describe('Full listing URL.'),
    country: country().optional().describe('ISO-3166 alpha-2; a bare booking slug needs it.'),
    limit: int(z.number().min(1).max(REVIEWS_LIMIT.max)).default(REVIEWS_LIMIT.default).describe(`1 to ${REVIEWS_LIMIT.max}. Default ${REVIEWS_LIMIT.default}.`),
    cursor: str().optional().describe('Opaque cursor from meta.pagination.nextCursor.'),
    language: language().optional().describe('ISO-639-1 language filter.'),
    minRating: num(z.number().min(0)).optional().describe('Minimum rating on the response ratingScale.'),
    sort: lowerEnum(REVIEW_SORTS).default('recent').describe('recent, rating_desc or rating_asc.'),
  }),
);

export const priceParams = once(() =>
  z.object({
    platform: platform().optional().describe('vrbo, booking, airbnb or google; may be derived from a listing URL or a stays_<platform>_<id> listingId.'),
    listingId: str().describe('Platform-native id from search platformListingId, a stays_ id, or a listing URL.'),
    country: country().optional().describe('ISO-3166 alpha-2; a bare booking slug needs it.'),
    checkIn: date().describe('YYYY-MM-DD, not in the past.'),
    checkOut: date().describe('YYYY-MM-DD, after checkIn.'),
    ...occupancy(),
    currency: curr(),
  }),
);

export const priceCompareParams = once(() =>
  z.object({
    listings: list(str()).optional().describe('Direct mode: 2 to 6 platform:listingId pairs, split on the first colon, or listing URLs (their site names the platform).'),
    name: str().optional().describe('Google mode: property name.'),
    googleHotelId: str().optional().describe('Google mode: Google hotel id; exclusive with name/location.'),
    location: str().optional().describe('Google mode: place or lat,lng.'),
    checkIn: date().describe('YYYY-MM-DD, not in the past.'),
    checkOut: date().describe('YYYY-MM-DD, after checkIn.'),
    ...occupancy(),
    currency: curr(),
  }),
);

export const availabilityParams = once(() =>
  z.object({
    platform: platform()
      .optional()
      .describe(
        'vrbo, booking, airbnb or google; one platform, which may be derived from a listing URL or a stays_<platform>_<id> id. A server whose upstream has no calendar source for the platform (booking and google on the scraping platform) refuses it with platform_not_enabled, free.',
      ),
    listingId: str().optional().describe('One listing id (one identification form).'),
    listingIds: list(str()).optional().describe('Batch of ids: airbnb 1, vrbo at most 12.'),
    url: str().optional().describe('Full listing URL (one identification form).'),
    country: country().optional().describe('ISO-3166 alpha-2; a bare booking slug needs it.'),
    startDate: date().describe('YYYY-MM-DD, not in the past.'),
    endDate: date().describe('YYYY-MM-DD, after startDate; window at most 365 days.'),
    onlyAvailable: bool().default(false).describe('Only bookable dates.'),
  }),
);

export const listingPathParams = once(() =>
  z.object({
    platform: platform().describe('vrbo, booking, airbnb or google.'),
    id: str(z.string().min(1)).describe('Platform-native id (case-sensitive), a stays_ id or a listing URL (URL-encoded).'),
  }),
);

export const listingParams = once(() =>
  z.object({
    country: country().optional().describe('ISO-3166 alpha-2; disambiguates a bare booking slug.'),
    checkIn: date().optional().describe('With checkOut, embeds a best-effort live price.'),
    checkOut: date().optional().describe('After checkIn.'),
    ...occupancy(),
    currency: curr(),
  }),
);

/** Family S lookups' optional stay (issue 22, item 13): with both dates, pricing is quoted. */
export const stayDatesParams = once(() =>
  z.object({
    checkIn: date().optional().describe('With checkOut, pricing is quoted for this stay (else all null, spec rule 1).'),
    checkOut: date().optional().describe('After checkIn.'),
    ...occupancy(),
    currency: curr(),
  }),
);

export const jobPathParams = once(() => z.object({ jobId: str(z.string().min(1)).describe('job_-prefixed id.') }));

export const topupBody = once(() =>
  z.object({
    credits: int(z.number().min(1).max(100_000_000)).describe('Credits to add, a positive integer.'),
  }),
);
