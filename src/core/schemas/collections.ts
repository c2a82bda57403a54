// Collections (issue 38, item 1): POST/GET/PATCH/DELETE /v1/collections[/{id}]. Each schema is
// made on its first use.
import { z } from 'zod';
import { ALL_PLATFORMS } from '../platforms.js';
import { COLLECTION_CADENCES, COLLECTION_RATES } from '../ports/store/collections.js';
import { bool, int, label, list, lowerEnum, str } from './fields.js';
import { once } from './once.js';

/** The most collections one account keeps per environment. */
export const MAX_COLLECTIONS = 20;
/** How far ahead a collection may keep calendars, in nights (the platforms' calendars reach a year ahead). */
const MAX_HORIZON_NIGHTS = 365;
const DEFAULT_HORIZON_NIGHTS = 180;
/** The largest daily budget, in credits. */
const MAX_CREDITS_PER_DAY = 10_000_000;

const NAME = 'Unique among the account’s collections of this environment; at most 100 characters once trimmed, not empty, no control or bidirectional control characters.';
const PLATFORMS = 'Platforms to cover (default: every enabled one).';
const HORIZON = `How far ahead each tracked listing's calendar is kept, in nights (1 to ${MAX_HORIZON_NIGHTS}; default ${DEFAULT_HORIZON_NIGHTS}).`;
const CADENCE = 'How often every tracked listing is fetched again: daily or weekly (default daily), spread over the interval.';
const RATES =
  "Which rates are kept: auto (default), each night's rate where the platform's calendar states one, otherwise a sampled stay's quote; sampled, sampled stays' quotes on every platform; none, calendars only.";
const BUDGET = `The most credits the collection spends per UTC day (1 to ${MAX_CREDITS_PER_DAY}). When a pass of every listing would cost more, it tracks a stated random sample.`;

export const createCollectionBody = once(() =>
  z
    .object({
      name: label(100).describe(NAME),
      location: str(z.string().min(1).max(200)).optional().describe('A place, as given to search (Lisbon). Exactly one of location, bbox, compSet.'),
      bbox: str().optional().describe('minLng,minLat,maxLng,maxLat (WGS84 degrees). Exactly one of location, bbox, compSet.'),
      compSet: str().optional().describe('A comp set of the account (cs_… or its name): the box around its radius. Exactly one of location, bbox, compSet.'),
      platforms: list(lowerEnum(ALL_PLATFORMS)).optional().describe(PLATFORMS),
      horizonNights: int(z.number().min(1).max(MAX_HORIZON_NIGHTS)).default(DEFAULT_HORIZON_NIGHTS).describe(HORIZON),
      cadence: lowerEnum(COLLECTION_CADENCES).default('daily').describe(CADENCE),
      rates: lowerEnum(COLLECTION_RATES).default('auto').describe(RATES),
      maxCreditsPerDay: int(z.number().min(1).max(MAX_CREDITS_PER_DAY)).describe(BUDGET),
      status: lowerEnum(['active', 'paused'] as const)
        .default('active')
        .describe('active (default): discovery and tracking run; paused: nothing runs until resumed.'),
      dryRun: bool().default(false).describe('true: check everything and answer the collection it would be, with its estimate, without creating it (200, not 201; free).'),
    })
    .strict(),
);

export const updateCollectionBody = once(() =>
  z
    .object({
      name: label(100).optional().describe(NAME),
      platforms: list(lowerEnum(ALL_PLATFORMS)).optional().describe(PLATFORMS),
      horizonNights: int(z.number().min(1).max(MAX_HORIZON_NIGHTS)).optional().describe(HORIZON),
      cadence: lowerEnum(COLLECTION_CADENCES).optional().describe(CADENCE),
      rates: lowerEnum(COLLECTION_RATES).optional().describe(RATES),
      maxCreditsPerDay: int(z.number().min(1).max(MAX_CREDITS_PER_DAY)).optional().describe(BUDGET),
      status: lowerEnum(['active', 'paused'] as const)
        .optional()
        .describe('paused: nothing runs until active again.'),
    })
    .strict(),
);

export const collectionSchema = once(() =>
  z.object({
    id: z.string().describe('col_…'),
    name: z.string(),
    location: z.string().nullable().describe('The place covered, when the collection covers one.'),
    bbox: z.array(z.number()).nullable().describe('[minLng, minLat, maxLng, maxLat], when the collection covers a box.'),
    compSet: z.string().nullable().describe('The comp set (cs_…) whose box the collection covers, when it covers one.'),
    platforms: z.array(z.string()),
    horizonNights: z.number().int(),
    cadence: z.enum(COLLECTION_CADENCES),
    rates: z.enum(COLLECTION_RATES),
    ratesByPlatform: z.record(z.string(), z.enum(['calendar', 'sampled', 'none'])).describe("What each platform's rates come from: its calendar's nightly rates, sampled stays' quotes, or none."),
    maxCreditsPerDay: z.number().int(),
    status: z.enum(['active', 'paused', 'deleted']),
    progress: z
      .object({
        phase: z.enum(['discovery', 'tracking', 'idle']).describe('discovery: finding every listing of the area; tracking: the pass over tracked listings; idle: paused, or nothing due.'),
        listingsDiscovered: z.number().int().min(0).describe('Distinct listings discovery found in the area.'),
        listingsTracked: z.number().int().min(0).describe('Listings whose calendars (and rates) each pass fetches: every one found, or the stated sample the budget covers.'),
        lastCompletePass: z.string().nullable().describe('ISO 8601, UTC: when the last pass over every tracked listing ended; null before the first.'),
        coverage: z.number().min(0).max(1).nullable().describe('Tracked listings over those found; null before discovery found any.'),
        creditsSpentToday: z.number().int().min(0).describe('Credits this collection was charged this UTC day (with what calls under way may still spend).'),
        pass: z.number().int().min(0).nullable().describe('The latest pass begun (0 the first; one each cadence from creation); null before any.'),
        passItems: z
          .object({ total: z.number().int().min(0), done: z.number().int().min(0) })
          .nullable()
          .describe("The latest pass's work: its discovery and one item per tracked listing; done ones ended (or were superseded)."),
        listingsGone: z.number().int().min(0).describe('Listings an earlier discovery found that the latest did not: gone from the market (or from its searches).'),
      })
      .describe('What discovery and tracking have done so far.'),
    estimate: z
      .object({
        basis: z.string().describe('What the estimate rests on, in words: the listings known in the area now, and how they were found.'),
        listings: z.number().int().min(0).describe('Listings known in the area (the population).'),
        tracked: z.number().int().min(0).describe('Listings a pass tracks within the budget.'),
        sampled: z.boolean().describe('true: the budget covers a sample only (stratified by platform and bedrooms); every figure says so.'),
        fraction: z.number().min(0).max(1).describe("Each stratum's share tracked."),
        discoveryCreditsPerPass: z
          .number()
          .int()
          .min(0)
          .describe(
            "What a pass's discovery costs: the latest discovery's charge once one has run, before that an estimate from the listings known (each listing's search row paid once, plus the truncated searches of a population past a platform's cap).",
          ),
        totalCreditsPerDay: z
          .number()
          .int()
          .min(0)
          .describe('Tracking and discovery, a day: what the collection spends a day, at most maxCreditsPerDay (tracking is sized within what the discovery leaves).'),
        creditsPerPass: z.number().int().min(0).describe("Tracking's credits a pass (the discovery's are discoveryCreditsPerPass)."),
        creditsPerDay: z.number().int().min(0).describe("Tracking's credits a day; with the discovery's, at most maxCreditsPerDay."),
        creditsPerDayAll: z.number().int().min(0).describe('What tracking every known listing would cost a day.'),
        byPlatform: z.record(
          z.string(),
          z.object({
            listings: z.number().int(),
            tracked: z.number().int(),
            creditsPerListing: z.number().int().describe("A listing's calendar over horizonNights and, unless rates are none, one sampled stay's quote, a pass."),
            creditsPerPass: z.number().int(),
            creditsPerDay: z.number().int(),
          }),
        ),
      })
      .nullable()
      .describe('What a pass would track and cost now (null in lists: GET one collection for it).'),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
);

export type CollectionView = z.infer<ReturnType<typeof collectionSchema>>;
export type CollectionItemView = z.infer<ReturnType<typeof collectionItemSchema>>;

export const collectionRunBody = once(() =>
  z.object({ collection: z.string().min(1).optional().describe('One collection (col_… or its name); every active collection of the key’s account and environment when left out.') }).strict(),
);

export const collectionItemSchema = once(() =>
  z.object({
    collectionId: z.string().describe('col_…'),
    pass: z.number().int().min(0),
    item: z.string().describe('discover (the pass’s discovery of the area) or track:PLATFORM:LISTING_ID (a listing’s calendar and sampled quote).'),
    outcome: z
      .enum(['done', 'partial', 'failed', 'deferred', 'paused', 'superseded', 'ended', 'lost'])
      .describe(
        "done; partial: some of its calls failed or the day's budget stopped it (what ran is charged and kept); failed: nothing it needed could be made; deferred: the day's budget is spent, it runs on the next UTC day; paused: the collection is paused; superseded: a later pass began first (nothing charged); ended: the collection was deleted; lost: its lease ran out while this runner was slow, and another runner makes it (nothing more charged here).",
      ),
    creditsCharged: z.number().int().min(0).describe('What its calls charged, each billed as the same call made by hand.'),
    reason: z.string().nullable(),
    found: z.number().int().min(0).nullable().describe('A discovery: the listings it found.'),
  }),
);

export const collectionListParams = once(() =>
  z.object({
    limit: int(z.number().min(1).max(MAX_COLLECTIONS)).default(MAX_COLLECTIONS).describe(`Collections per page, 1 to ${MAX_COLLECTIONS}.`),
  }),
);

export const collectionPathParams = once(() => z.object({ id: z.string().describe('The collection id (col_…) or its name.') }));
