// The definitions of the resource schemas (resources.ts exports them, built), made on first use:
// building zod schemas is a share of a CLI start, and answering a request does not need these
// (the OpenAPI document, route docs and tests do).
import { z } from 'zod';
import { ALL_ERROR_CODES, ALL_ERROR_TYPES } from '../errors.js';
import { ALL_PLATFORMS } from '../platforms.js';
import { AMENITIES, PLAN_CODES, PLAN_STATUSES, PROPERTY_TYPES, REQUEST_ID_PATTERN } from './enums.js';
import { once } from './once.js';

export const resourceSchemas = once(() => {
  const PlatformSchema = z.enum(ALL_PLATFORMS).describe('Platform value (API spelling, never a brand spelling).');

  const PropertyTypeSchema = z.enum(PROPERTY_TYPES);

  const AmenitySchema = z.enum(AMENITIES);

  const RequestIdSchema = z.string().regex(REQUEST_ID_PATTERN).describe('req_ + 26-character Crockford ULID; also the X-Request-Id header.');
  const DateString = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
  const Currency = z.string().regex(/^[A-Z]{3}$/);
  const Money = z.number().min(0);

  const FeesSchema = z.object({
    cleaning: Money.nullable(),
    service: Money.nullable(),
    taxes: Money.nullable(),
  });

  const IncludesSchema = z
    .object({
      cleaning: z.boolean().nullable(),
      serviceFee: z.boolean().nullable(),
      taxes: z.boolean().nullable(),
    })
    .describe('What totalPrice includes: true = included (its amount is in fees when the source states it), false = not included (payable on top, if charged), null = the source does not say.');

  const LineItemSchema = z.object({
    kind: z.enum(['nightly', 'cleaning', 'service_fee', 'taxes', 'discount', 'other']),
    label: z.string().min(1),
    amount: z.number().describe('Negative for a discount.'),
    currency: Currency,
  });

  const honest = {
    includes: IncludesSchema.optional(),
    lineItems: z.array(LineItemSchema).optional().describe('When the source itemizes the price; they add up to totalPrice.'),
  };

  const OccupancySchema = z.object({
    adults: z.number().int().positive(),
    children: z.number().int().min(0),
    childAges: z.array(z.number().int().min(0)),
  });

  const PriceSchema = z
    .object({
      platform: PlatformSchema,
      listingId: z.string().min(1),
      currency: Currency,
      nightlyPrice: Money.describe('Per night: the rate of one night (the average over nights), before the fees in fees.'),
      totalPrice: Money.describe('For the whole stay of nights nights; includes says which fees and taxes it covers.'),
      fees: FeesSchema,
      nights: z.number().int().positive(),
      occupancy: OccupancySchema,
      source: z.string().min(1).describe('Platform value the quote came from.'),
      url: z.string().url(),
      ...honest,
    })
    .describe('A live price quote for one listing and one stay.');

  const PropertySchema = z
    .object({
      id: z.string().min(1).describe('stays_<platform>_<platformListingId>'),
      platform: PlatformSchema,
      platformListingId: z.string().min(1).describe('Platform-native id: numeric on airbnb and vrbo, a slug on booking and google.'),
      url: z.string().url(),
      name: z.string().min(1),
      propertyType: PropertyTypeSchema,
      location: z.object({
        lat: z.number().nullable(),
        lng: z.number().nullable(),
        city: z.string().nullable(),
        region: z.string().nullable(),
        country: z.string().length(2).nullable().describe('ISO-3166 alpha-2'),
        address: z.string().nullable(),
      }),
      starRating: z.number().min(0).nullable(),
      guestRating: z.number().min(0).nullable().describe('On the scale in ratingScale; native scales are never rescaled.'),
      ratingScale: z.number().int().min(0).nullable(),
      reviewCount: z.number().int().min(0).nullable(),
      maxOccupancy: z.number().int().positive().nullable(),
      bedrooms: z.number().min(0).nullable(),
      bathrooms: z.number().min(0).nullable(),
      amenities: z.array(AmenitySchema),
      images: z.array(z.string().url()),
      host: z.object({ name: z.string().nullable(), isSuperhost: z.boolean().nullable() }).nullable(),
      price: PriceSchema.nullable().optional().describe('Best-effort dated price; may be null.'),
      identity: z
        .object({
          requestedId: z.string().min(1).nullable(),
          resolvedId: z.string().min(1).nullable(),
          canonicalUrl: z.string().url().nullable(),
        })
        .nullable()
        .optional()
        .describe('Listing detail only: assert identity on resolvedId.'),
    })
    .describe('A property in the unified schema.');

  const AvailabilityDaySchema = z.object({
    date: DateString,
    available: z.boolean(),
    minNights: z.number().int().positive().nullable(),
    checkIn: z.boolean().nullable(),
    checkOut: z.boolean().nullable(),
    bookable: z.boolean().nullable(),
  });

  const AvailabilitySchema = z
    .object({ platform: PlatformSchema, listingId: z.string().min(1), dates: z.array(AvailabilityDaySchema) })
    .describe('Day-by-day availability of one listing. A rule the platform does not state is null, never a guess.');

  const OfferSchema = z.object({
    ota: z.string().min(1),
    totalPrice: Money,
    currency: Currency,
    url: z.string().url(),
    platform: PlatformSchema.optional().describe('Direct mode only.'),
    listingId: z.string().min(1).optional().describe('Direct mode only.'),
    nightlyPrice: Money.optional(),
    fees: FeesSchema.optional(),
    nights: z.number().int().positive().optional(),
    ...honest,
  });

  const PriceCompareSchema = z
    .object({
      property: z.string().min(1).describe('Google mode: the hotel\'s name. Direct mode: the listings compared, as platform:id pairs joined by " vs ", in the order given.'),
      checkIn: DateString,
      checkOut: DateString,
      currency: Currency,
      min: Money.nullable().describe('Cheapest offer in `currency` (every offer in it). Offers quoted in another currency are excluded: they are not comparable.'),
      median: Money.nullable().describe('Median offer in `currency`, same offers as `min`.'),
      comparable: z
        .object({
          min: Money.nullable().describe('Cheapest of the offers ranked first (whose totals include the same things).'),
          median: Money.nullable().describe('Median of the offers ranked first.'),
          offers: z.number().int().min(0).describe('How many offers are ranked first: the like-for-like group.'),
        })
        .optional()
        .describe(
          'Only when the offers in `currency` include different things in their totals (warning price_inclusions_differ): the like-for-like figures, over the offers ranked first. min and median stay over every offer in the currency.',
        ),
      offers: z
        .array(OfferSchema)
        .describe(
          'Cheapest total first among offers whose includes agree with the best-known ones; offers whose includes differ follow (warning price_inclusions_differ), then offers in another currency than asked.',
        ),
      source: z.enum(['google_aggregator', 'direct_fanout']).optional(),
    })
    .describe('One property compared across sellers; compare on totalPrice.');

  const ReviewSchema = z.object({
    platform: PlatformSchema,
    listingId: z.string().min(1),
    reviewId: z.string().min(1),
    rating: z.number().min(0),
    ratingScale: z.number().int().min(0),
    title: z.string().nullable(),
    text: z.string().nullable(),
    author: z.string().nullable(),
    date: DateString,
    tripType: z.string().nullable(),
    language: z
      .string()
      .regex(/^[a-z]{2}$/)
      .nullable(),
    ownerResponse: z.string().nullable(),
    liked: z.string().nullable(),
    disliked: z.string().nullable(),
  });

  const CreditsSchema = z.object({
    balance: z.number().int(),
    available: z.number().int().describe('balance - held: the figure the admission gate uses.'),
    held: z.number().int().min(0),
    expiringSoon: z.number().int().min(0),
  });

  const AccountSchema = z.object({
    id: z.string().describe("The account id (acct_…), as `stays admin` names it. Beyond the spec's table, for `stays auth status`; clients of the spec ignore it."),
    plan: z.object({ code: z.enum(PLAN_CODES), name: z.string(), status: z.enum(PLAN_STATUSES) }),
    key: z.object({ env: z.enum(['live', 'sandbox']) }),
    credits: CreditsSchema,
    rateLimit: z.object({ requestsPerMinute: z.number().int().min(1) }),
  });

  const ErrorSchema = z.object({
    type: z.enum(ALL_ERROR_TYPES),
    code: z.string().describe(`Error sub-code; the set grows additively. Known: ${ALL_ERROR_CODES.join(', ')}.`),
    message: z.string().min(1),
    param: z.string().nullable(),
    requestId: RequestIdSchema,
    creditsCharged: z.literal(0),
    retryable: z.boolean(),
    docUrl: z.string().url(),
  });
  const ErrorEnvelopeSchema = z.object({ error: ErrorSchema });

  const PlatformFailureErrorSchema = z.object({
    type: z.enum(ALL_ERROR_TYPES),
    code: z.string(),
    message: z.string().min(1),
    retryable: z.boolean(),
  });

  const PaginationSchema = z.object({
    limit: z.number().int(),
    cursor: z.string().nullable(),
    nextCursor: z.string().nullable().describe('Opaque base64url cursor; null on the last page.'),
    hasMore: z.boolean(),
  });

  const PlatformResultSchema = z.object({
    platform: PlatformSchema,
    status: z.enum(['ok', 'failed', 'skipped']),
    reason: z.enum(['not_enabled', 'requires_dates']).optional(),
    message: z.string().optional(),
    creditsCharged: z.number().int().min(0),
    cached: z.boolean(),
    count: z.number().int().min(0),
    error: PlatformFailureErrorSchema.optional(),
    source: z
      .string()
      .optional()
      .describe('Which source served this platform\'s data: an actor id (owner~name), "sandbox" or "simulated"; several joined by commas. Absent when every leg came from the cache or failed.'),
  });

  const WarningSchema = z.object({
    code: z.string(),
    message: z.string(),
    platform: PlatformSchema.optional(),
    docUrl: z.string().url(),
  });

  const TruncationSchema = z.object({
    platform: PlatformSchema,
    cap: z.number().int().min(1).describe('The most results the platform answers one search with.'),
    returned: z.number().int().min(0).describe('The results it returned (the search pages over these).'),
    reported: z.number().int().min(0).nullable().describe('How many results the platform said it had; null when it does not say.'),
  });

  const MetaSchema = z.object({
    requestId: RequestIdSchema,
    environment: z.enum(['live', 'test']),
    sandbox: z.boolean(),
    platforms: z.array(PlatformSchema),
    cached: z.boolean(),
    partial: z.boolean(),
    creditsCharged: z.number().int().min(0),
    currency: Currency,
    pagination: PaginationSchema.nullable(),
    platformResults: z.array(PlatformResultSchema),
    warnings: z.array(WarningSchema),
    truncated: z
      .array(TruncationSchema)
      .optional()
      .describe(
        'Search only, present when a platform cut its answer at its result cap (issue 38): which platforms, and what they reported. Each also has a results_truncated warning. Split the area (bbox) or the price range to see the rest.',
      ),
  });
  return {
    PlatformSchema,
    PropertyTypeSchema,
    AmenitySchema,
    RequestIdSchema,
    FeesSchema,
    IncludesSchema,
    LineItemSchema,
    OccupancySchema,
    PriceSchema,
    PropertySchema,
    AvailabilityDaySchema,
    AvailabilitySchema,
    OfferSchema,
    PriceCompareSchema,
    ReviewSchema,
    CreditsSchema,
    AccountSchema,
    ErrorSchema,
    ErrorEnvelopeSchema,
    PlatformFailureErrorSchema,
    PaginationSchema,
    PlatformResultSchema,
    WarningSchema,
    MetaSchema,
  };
});
