// Market metrics and comp sets (issue 27, item 2): figures computed from this deployment's own
// observations, each with its method and sample size. Free; each schema is made on its first use.
import { z } from 'zod';
import { ALL_PLATFORMS } from '../platforms.js';
import { date, int, label, list, lowerEnum, num, str } from './fields.js';
import { bookingMethodParam } from './history.js';
import { once } from './once.js';

/** The longest span of nights a market read covers. */
export const MARKET_MAX_NIGHTS = 366;
/** The window a market read covers when from or to is left out (issue 36, item 15): 30 nights, by default the last 30. */
export const MARKET_DEFAULT_NIGHTS = 30;
/** The most comp sets one account keeps per environment. */
export const MAX_COMPSETS = 100;
/** The largest comp-set radius, in metres. */
const MAX_COMPSET_RADIUS_M = 50_000;

const MARKET_INTERVALS = ['week', 'month'] as const;

export const marketParams = once(() =>
  z.object({
    location: str(z.string().min(1)).optional().describe('The place searched, as it was given to search (case and spacing aside). Exactly one of location, bbox, compSet, collection.'),
    bbox: str().optional().describe('minLng,minLat,maxLng,maxLat (WGS84 degrees): every observed listing whose observed coordinates fall inside. Exactly one of location, bbox, compSet, collection.'),
    compSet: str().optional().describe('A comp set id (cs_…) of the account: its listings. Exactly one of location, bbox, compSet, collection.'),
    collection: str()
      .optional()
      .describe(
        "One of the account's collections (col_… or its name): the listings its latest discovery found, every figure with the coverage it rests on. Exactly one of location, bbox, compSet, collection.",
      ),
    from: date()
      .optional()
      .describe(
        `YYYY-MM-DD: the first night measured (a past or future night). Default: ${MARKET_DEFAULT_NIGHTS} nights before to; with neither from nor to, the last ${MARKET_DEFAULT_NIGHTS} nights (to is today, UTC).`,
      ),
    to: date()
      .optional()
      .describe(`YYYY-MM-DD, after from: the morning after the last night measured; at most ${MARKET_MAX_NIGHTS} nights. Default: ${MARKET_DEFAULT_NIGHTS} nights after from, else today (UTC).`),
    platforms: list(lowerEnum(ALL_PLATFORMS)).optional().describe('Only these platforms (default: every enabled one).'),
    bedrooms: int(z.number().min(0).max(50)).optional().describe('Only listings observed with this many bedrooms.'),
    interval: lowerEnum(MARKET_INTERVALS).optional().describe('Also a series: the figures per week or month of nights (for charts).'),
    method: bookingMethodParam(),
  }),
);

export type MarketInput = z.input<ReturnType<typeof marketParams>>;

const figure = () =>
  z
    .object({
      value: z.number().nullable().describe('The figure; null when its sample is empty (never a zero standing in for no data).'),
      unit: z.string().describe('rate (0 to 1), currency (the answer currency), days, nights or listings.'),
      sampleSize: z.number().int().min(0),
      sampleUnit: z.string().describe('What the sample counts: listings, listing-nights, bookings, prices.'),
      method: z.string().describe('How it was computed: a versioned method id (calendar-diff/1, …).'),
      listings: z
        .number()
        .int()
        .min(0)
        .describe(
          'The listings its sample comes from (of activeListings.sampleSize in scope): occupancy may rest on the few listings whose calendars were observed while supply counts every listing seen.',
        ),
    })
    .describe('One figure with its sample size and method.');

export const metricsSchema = once(() =>
  z.object({
    activeListings: figure(),
    adr: figure(),
    occupancy: z
      .object({
        calendarUnavailableRate: figure(),
        inferredBookedRate: figure(),
        inferredBookedRateInterval: z
          .object({
            low: z.number().nullable().describe('The rate were each night inferred booked wrong with the chance its confidence leaves (1 - confidence) a night for rent.'),
            high: z.number().nullable().describe('The rate were each night inferred for rent or blocked wrong with the chance its confidence leaves (1 - confidence) a booked night.'),
            method: z.string().describe('How the interval was computed: a versioned method id.'),
          })
          .describe(
            "The inferred booked rate's error bar, from the booking inference's calibrated night confidences (docs/analytics.md): null ends when the rate has no sample. The rate itself is unchanged.",
          ),
      })
      .describe('Occupancy as two labelled figures: nights the calendar showed unavailable, and nights inferred booked (with its interval).'),
    revpar: figure(),
    bookingWindowDays: figure(),
    lengthOfStayNights: figure(),
    pricePercentiles: z
      .object({
        p25: z.number().nullable(),
        p50: z.number().nullable(),
        p75: z.number().nullable(),
        p90: z.number().nullable(),
        sampleSize: z.number().int().min(0),
        sampleUnit: z.string(),
        method: z.string(),
        listings: z.number().int().min(0).describe('The listings the prices come from.'),
      })
      .describe('Nightly prices observed for nights of the window (search rows with dates, quotes).'),
  }),
);

export type Figure = z.infer<ReturnType<typeof figure>>;
export type Metrics = z.infer<ReturnType<typeof metricsSchema>>;

export const marketSchema = once(() =>
  z
    .object({
      scope: z.object({
        location: z.string().nullable(),
        bbox: z.array(z.number()).nullable(),
        compSet: z.string().nullable(),
        collection: z.string().nullable().describe('The collection (col_…) whose listings are the scope, when one was asked.'),
        platforms: z.array(z.string()),
        bedrooms: z.number().int().nullable(),
      }),
      nights: z.object({ from: z.string(), to: z.string(), count: z.number().int() }).describe('The nights measured: [from, to).'),
      currency: z.string().describe('The currency of every money figure; prices observed in another currency are left out (counted in excludedPrices).'),
      excludedPrices: z.number().int().min(0),
      observationWindow: z
        .object({
          firstObserved: z.string().describe('ISO 8601, UTC: the earliest observation used.'),
          lastObserved: z.string().describe('ISO 8601, UTC: the latest.'),
          observations: z.number().int().min(0).describe('Observations used (rows of distinct values, each seen one or more times).'),
          listings: z.number().int().min(0).describe('Listings in scope with at least one observation used.'),
        })
        .describe('When what was used was observed.'),
      bookingMethod: z.string().describe('The booking-inference method the booked rate, ADR, booking window and length of stay come from: the one asked for (method) or the default.'),
      methods: z.record(z.string(), z.string()).describe('Each method id, in words.'),
      overall: metricsSchema(),
      byPlatform: z.array(z.object({ platform: z.string(), metrics: metricsSchema() })),
      byBedrooms: z.array(z.object({ bedrooms: z.number().int().nullable().describe('null: bedrooms never observed.'), metrics: metricsSchema() })),
      series: z
        .array(z.object({ from: z.string(), to: z.string(), metrics: metricsSchema() }))
        .nullable()
        .describe('The figures per interval of nights when interval was given; null otherwise.'),
      coverage: z
        .object({
          population: z.number().int().min(0).describe("Listings the collection's latest discovery found (on the platforms asked): the market."),
          tracked: z.number().int().min(0).describe('Listings its latest pass tracks: all of them, or the sample its budget covers.'),
          sampled: z.boolean().describe('true: the budget covers a stratified sample only.'),
          observed: z.number().int().min(0).describe('Listings of the population whose calendars were observed for nights of the window: what occupancy rests on.'),
          share: z.number().min(0).max(1).nullable().describe('observed / population; null for an empty population.'),
          statement: z.string().describe('The coverage in words, as every figure should be read.'),
        })
        .nullable()
        .describe('For a collection: how much of its market the figures rest on. null for the other scopes (their population is only what was observed).'),
      summary: z.string().describe('The main figures, their methods and sample sizes, in words.'),
    })
    .describe('Market metrics computed from what this deployment observed.'),
);

export type MarketView = z.infer<ReturnType<typeof marketSchema>>;

/** POST /v1/compsets. */
export const createCompSetBody = once(() =>
  z
    .object({
      name: label(100).describe('Unique among the account’s comp sets of this environment; at most 100 characters once trimmed, not empty, no control or bidirectional control characters.'),
      near: str(z.string().min(1)).describe('The anchor listing: platform:id (airbnb:123) or a stays_<platform>_<id> id.'),
      radiusMeters: num(z.number().positive().max(MAX_COMPSET_RADIUS_M)).describe(`Listings within this distance of the anchor, at most ${MAX_COMPSET_RADIUS_M}.`),
      bedrooms: int(z.number().min(0).max(50)).optional().describe('Only listings observed with this many bedrooms.'),
      platforms: list(lowerEnum(ALL_PLATFORMS)).optional().describe('Only these platforms (default: every enabled one).'),
    })
    .strict(),
);

export const compSetSchema = once(() =>
  z.object({
    id: z.string().describe('cs_…'),
    name: z.string(),
    anchor: z.object({ platform: z.string(), listingId: z.string(), lat: z.number(), lng: z.number() }),
    radiusMeters: z.number(),
    bedrooms: z.number().int().nullable(),
    platforms: z.array(z.string()).nullable(),
    createdAt: z.string(),
  }),
);

export type CompSetView = z.infer<ReturnType<typeof compSetSchema>>;

/** The members a comp set's answer lists (the nearest first); memberCount says how many there are in all. */
export const COMPSET_MEMBERS_SHOWN = 200;

export const compSetDetailSchema = once(() =>
  compSetSchema().extend({
    memberCount: z
      .number()
      .int()
      .min(0)
      .describe('The listings the comp set holds now: observed (with coordinates) within its radius of the anchor, of its bedrooms and platforms. Its market figures rest on these.'),
    members: z
      .array(
        z.object({
          platform: z.string(),
          listingId: z.string(),
          distanceMeters: z.number().describe('From the anchor, as last placed.'),
          bedrooms: z.number().nullable(),
        }),
      )
      .describe(`The members, nearest first, at most ${COMPSET_MEMBERS_SHOWN}.`),
  }),
);

export type CompSetDetailView = z.infer<ReturnType<typeof compSetDetailSchema>>;

export const compSetListParams = once(() =>
  z.object({
    limit: int(z.number().min(1).max(MAX_COMPSETS)).default(MAX_COMPSETS).describe(`Comp sets per page, 1 to ${MAX_COMPSETS}.`),
  }),
);

export const compSetPathParams = once(() => z.object({ id: z.string().describe('The comp set id (cs_…) or its name.') }));
