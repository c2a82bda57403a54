// Family S (stay-centric, snake_case): the Stay resource, its sub-resources, the S search body and
// the batch body (spec "Stay (Family S)", "SearchRequest (Family S)", D8–D11, D26). One source for
// validation, the OpenAPI document and the typed client, as Family U's schemas are.
import { z } from 'zod';
import { currency, date, int, num, str } from './fields.js';
import { MAX_ADULTS, MAX_CHILDREN } from './param-schemas.js';

const nullableNum = z.number().nullable();
const nullableStr = z.string().nullable();

const StayLocationSchema = z.object({
  latitude: nullableNum,
  longitude: nullableNum,
  address: nullableStr,
  city: nullableStr.describe('From the search query on search rows; may be null on a lookup.'),
  country: nullableStr.describe('ISO-3166 alpha-2 where known.'),
});

const StayHostSchema = z.object({
  id: nullableStr,
  name: nullableStr,
  is_superhost: z.boolean(),
  profile_image_url: nullableStr,
  profile_url: nullableStr,
  rating: nullableNum,
});

const StayPricingSchema = z
  .object({
    price: nullableNum.describe('Nightly price for the searched dates.'),
    currency: nullableStr,
    rate_type: nullableStr.describe('"nightly" on the dated search path.'),
    breakdown: z.array(z.object({ label: z.string(), amount: z.number() })).nullable(),
  })
  .describe('All null on lookups and /pricing; populated on the dated search path.');

const RatingBreakdownSchema = z
  .object({
    accuracy: nullableNum,
    cleanliness: nullableNum,
    communication: nullableNum,
    location: nullableNum,
    value: nullableNum,
    check_in: nullableNum,
    guest_satisfaction: nullableNum,
  })
  .describe('Every component is currently null (spec, Field availability rule 3).');

const StayPhotoSchema = z.object({ url: z.string(), caption: nullableStr });
const StayReviewSchema = z.object({ id: z.string(), author_name: z.string(), rating: z.number(), text: z.string(), created_at: z.string() });
const AmenityGroupSchema = z.object({ category: z.string(), items: z.array(z.string()) });
const StayDaySchema = z.object({ date: z.string(), available: z.boolean(), min_nights: nullableNum, price: nullableNum });

export const StaySchema = z
  .object({
    id: z.string().describe('The airbnb listing id (a string: ids can exceed 2^53).'),
    url: z.string(),
    title: z.string(),
    description: nullableStr.describe('Null on search rows (discovery fields only).'),
    property_type: nullableStr,
    room_type: nullableStr,
    person_capacity: nullableNum,
    star_rating: nullableNum,
    location: StayLocationSchema,
    host: StayHostSchema,
    pricing: StayPricingSchema,
    reviews_count: z.number().int(),
    rating_breakdown: RatingBreakdownSchema,
    photos: z.array(StayPhotoSchema),
    reviews: z.array(StayReviewSchema).describe('Often empty even when reviews_count > 0.'),
    amenities: z.array(AmenityGroupSchema).describe('One group, named General, of canonical amenity tokens.'),
    availability: z.array(StayDaySchema).describe('The next 30 days on a lookup; empty on search rows.'),
  })
  .describe('A stay (Family S).');

export type Stay = z.infer<typeof StaySchema>;

/** The eight sub-resources of GET /v1/stays/{id}/{part}, each `{ id, … }` exactly as the spec's table. */
export const STAY_PARTS = ['photos', 'reviews', 'host', 'amenities', 'availability', 'pricing', 'location', 'rating'] as const;
export type StayPart = (typeof STAY_PARTS)[number];

export const StayPartSchemas = {
  photos: z.object({ id: z.string(), photos: z.array(StayPhotoSchema) }),
  reviews: z.object({ id: z.string(), reviews_count: z.number().int(), rating_breakdown: RatingBreakdownSchema, reviews: z.array(StayReviewSchema) }),
  host: z.object({ id: z.string(), host: StayHostSchema }),
  amenities: z.object({ id: z.string(), amenities: z.array(AmenityGroupSchema) }),
  availability: z.object({ id: z.string(), availability: z.array(StayDaySchema) }),
  pricing: z.object({ id: z.string(), pricing: StayPricingSchema }),
  location: z.object({ id: z.string(), location: StayLocationSchema }),
  rating: z.object({ id: z.string(), star_rating: nullableNum, reviews_count: z.number().int(), rating_breakdown: RatingBreakdownSchema }),
} satisfies Record<StayPart, z.ZodObject>;

export const StayPathParams = z.object({
  id: str(z.string().min(1)).describe('An airbnb listing id, a stays_airbnb_<id> id or a room URL (URL-encoded).'),
});

export const StayByUrlParams = z.object({
  url: str(z.string().min(1)).describe('An airbnb room URL, e.g. https://www.airbnb.com/rooms/12345.'),
});

export const BatchBody = z.object({
  entries: z.array(z.unknown()).describe('1 to 50 entries, each { id } or { url } (exactly one).'),
});

export { FAMILY_S_SEARCH_KEYS } from '../search-family.js';

export { MAX_BATCH_ENTRIES, PRESET_MAX_ITEMS, S_DEFAULT_MAX_ITEMS, S_MAX_ITEMS, S_SYNC_MAX_ITEMS } from '../limits.js';

/** A list of free-text values; one value alone is a list of one (never split on commas: places have them). */
const strings = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? [v] : v),
    z
      .array(str(z.string().min(1)))
      .min(1)
      .max(10),
  );

export const SSearchBody = z.object({
  location: str(z.string().min(1)).optional().describe('Free text; exactly one of location, locationQueries or searchUrls.'),
  locationQueries: strings().optional().describe('Several places in one call (at most 10); rows are interleaved.'),
  searchUrls: strings().optional().describe('airbnb search-results URLs (not room URLs), at most 10.'),
  checkIn: date().optional().describe('YYYY-MM-DD; with both dates omitted, a 2-night stay starting 14 days from today (UTC).'),
  checkOut: date().optional().describe('YYYY-MM-DD, after checkIn.'),
  adults: int(z.number().min(1).max(MAX_ADULTS)).default(2).describe('Adults, >= 1. Default 2.'),
  children: int(z.number().min(0).max(MAX_CHILDREN)).default(0).describe('Children, >= 0.'),
  infants: int(z.number().min(0).max(MAX_CHILDREN)).default(0).describe('Infants, >= 0 (they do not count towards capacity).'),
  pets: int(z.number().min(0).max(10)).default(0).describe('A count; above 0 keeps only pet-friendly stays.'),
  priceMin: num(z.number().min(0)).optional().describe('Minimum nightly price in currency.'),
  priceMax: num(z.number().min(0)).optional().describe('Maximum nightly price in currency, >= priceMin.'),
  minBeds: int(z.number().min(0).max(50)).optional().describe('Accepted; the sources state no bed count yet, so it is ignored with a warning.'),
  minBedrooms: int(z.number().min(0).max(50)).optional().describe('Minimum bedrooms.'),
  minBathrooms: num(z.number().min(0).max(50)).optional().describe('Minimum bathrooms.'),
  currency: currency().default('USD').describe('ISO-4217 code. Default USD.'),
  locale: str(z.string().regex(/^[A-Za-z]{2}(?:[-_][A-Za-z]{2})?$/, { message: 'must be a language code such as en or en-US' }))
    .optional()
    .describe('e.g. en or en-US; echoed, not applied.'),
  maxItems: int(z.number().min(1)).optional().describe('Rows per page: default 50; up to 240 synchronous, 241–250 async, above 250 clamped to 250 (presets: 50).'),
  nextPageToken: str().optional().describe('meta.next_page_token of the previous page; resend the same body with it.'),
  fields: str().optional().describe('Projection: comma-separated dotted paths of Stay, e.g. id,title,pricing.price.'),
});

export type SSearchInput = z.infer<typeof SSearchBody>;

/** Meta of a Family S list (spec) plus what a client needs to reconcile credits. */
export const ListMetaSSchema = z.object({
  count: z.number().int(),
  limit: z.number().int(),
  has_more: z.boolean(),
  next_page_token: z.string().nullable(),
  credits_charged: z.number().int().describe('Credits this call charged (D26); 0 for sandbox keys.'),
  environment: z.enum(['live', 'test']),
  cached: z.boolean(),
  warnings: z.array(z.object({ code: z.string(), message: z.string() })),
  warning: z.string().optional().describe('instant-book only: "experimental".'),
  default_dates: z
    .object({ check_in: z.string(), check_out: z.string() })
    .optional()
    .describe('Present when the body gave no dates: the stay the rows are priced for (today + 14 to today + 16, UTC).'),
});

export const ObjectMetaSSchema = ListMetaSSchema.pick({ credits_charged: true, environment: true, cached: true, warnings: true });

export const BatchMetaSSchema = ObjectMetaSSchema.extend({
  count: z.number().int(),
  requested: z.number().int(),
  missing: z.number().int().describe('Entries the upstream could not resolve: left out of data, not billed.'),
});

/** Rows of an S search, a preset or a batch (one named component in the OpenAPI document). */
export const StayListSchema = z.array(StaySchema);
