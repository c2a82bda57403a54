// The history endpoints (issue 26): what this deployment observed over time, read from its own
// store. Free; cursor-paged like the job list. Each schema is made on its first use.
import { z } from 'zod';
import { ALL_PLATFORMS } from '../platforms.js';
import { MAX_ADULTS } from './param-schemas.js';
import { country, date, int, list, lowerEnum, str } from './fields.js';
import { once } from './once.js';

/** The longest window a history read may span (from to to), in days. */
export const HISTORY_MAX_DAYS = 400;

/** An instant: an ISO 8601 date-time with its offset, or a date (its UTC midnight). */
const instant = () =>
  str().refine((s) => /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/.test(s) && !Number.isNaN(Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s)), {
    message: 'must be an ISO 8601 date-time with its offset (2027-01-01T06:00:00Z) or a date (YYYY-MM-DD)',
  });

/** The listing a read is of. */
const listingFields = () => ({
  platform: lowerEnum(ALL_PLATFORMS).optional().describe('vrbo, booking, airbnb or google; may be derived from a stays_<platform>_<id> listingId.'),
  listingId: str().describe('Platform-native id or a stays_<platform>_<id> id.'),
  country: country().optional().describe('ISO-3166 alpha-2; a bare booking slug needs it.'),
});

/** When the observations read were seen, and the page: `what` names the rows. */
const pageFields = (what: string) => ({
  from: instant().optional().describe(`${what} seen at or after this instant. Default: ${HISTORY_MAX_DAYS} days before \`to\`.`),
  to: instant().optional().describe(`${what} seen at or before this instant. Default: now. At most ${HISTORY_MAX_DAYS} days after \`from\`.`),
  limit: int(z.number().min(1).max(1000)).default(100).describe(`${what} per page, 1 to 1000. Default 100.`),
  cursor: str().optional().describe('Opaque cursor from meta.pagination.nextCursor.'),
});

export const historyPriceParams = once(() =>
  z.object({
    ...listingFields(),
    checkIn: date().describe('YYYY-MM-DD: the stay whose quotes were observed (a past stay too).'),
    checkOut: date().describe('YYYY-MM-DD, after checkIn.'),
    adults: int(z.number().min(1).max(MAX_ADULTS)).default(2).describe('Adults of the quoted stay. Default 2.'),
    ...pageFields('Observations'),
  }),
);

export type HistoryPriceInput = z.infer<ReturnType<typeof historyPriceParams>>;

export const priceObservationSchema = once(() =>
  z
    .object({
      observedAt: z.string().describe('ISO 8601, UTC: when this value was first observed (as firstSeen).'),
      firstSeen: z.string().describe('ISO 8601, UTC.'),
      lastSeen: z.string().describe('ISO 8601, UTC: the last time the same value was observed again.'),
      timesSeen: z.number().int().min(1).describe('How many answers showed this value, from firstSeen to lastSeen.'),
      nightlyPrice: z.number().nullable(),
      totalPrice: z.number().nullable(),
      currency: z.string().nullable(),
      source: z.string().describe('Who served it: an actor id, `simulated`, or `sandbox` (synthetic).'),
    })
    .describe('One value of a price series: a row per change, not per observation.'),
);

export type PriceObservation = z.infer<ReturnType<typeof priceObservationSchema>>;

export const historyAvailabilityParams = once(() =>
  z.object({
    ...listingFields(),
    startDate: date().describe('YYYY-MM-DD: the first night whose changes are shown (a past night too).'),
    endDate: date().describe('YYYY-MM-DD, after startDate: the morning after the last night; at most 365 nights.'),
    ...pageFields('Changes'),
  }),
);

export type HistoryAvailabilityInput = z.infer<ReturnType<typeof historyAvailabilityParams>>;

const fromTo = <T extends z.ZodType>(t: T) => z.object({ from: t.nullable().describe('Before the change; null: the night had not been observed.'), to: t });

export const availabilityHistorySchema = once(() =>
  z
    .object({
      changes: z
        .array(
          z.object({
            date: z.string().describe('YYYY-MM-DD: the night.'),
            observedAt: z.string().describe('ISO 8601, UTC: when the new state was first observed.'),
            available: fromTo(z.boolean()),
            minNights: fromTo(z.number().int().nullable()),
            price: z.number().nullable().describe("The night's price when the calendar states one; the calendars observed so far do not: null."),
          }),
        )
        .describe('Oldest first (observedAt, then date); a night first observed counts as a change from null. Paged by the cursor.'),
      latest: z
        .array(
          z.object({
            date: z.string(),
            available: z.boolean(),
            minNights: z.number().int().nullable(),
            checkIn: z.boolean().nullable(),
            checkOut: z.boolean().nullable(),
            bookable: z.boolean().nullable(),
            lastSeen: z.string().describe('ISO 8601, UTC: when this state was last observed.'),
          }),
        )
        .describe('Each night of the window as last observed (nights never observed are left out); the same on every page.'),
    })
    .describe("A listing's calendar over time: what changed night by night, and the latest state."),
);

export type AvailabilityHistory = z.infer<ReturnType<typeof availabilityHistorySchema>>;

export const historyListingsParams = once(() =>
  z.object({
    location: str(z.string().min(1)).describe('The place searched, as it was given to search (case and spacing aside).'),
    platforms: list(lowerEnum(ALL_PLATFORMS)).optional().describe('Only these platforms (default: every enabled one).'),
    ...pageFields('Listings'),
  }),
);

export const seenListingSchema = once(() =>
  z
    .object({
      platform: z.string(),
      listingId: z.string().describe('Platform-native id.'),
      name: z.string().nullable(),
      firstSeen: z.string().describe('ISO 8601, UTC: the first search of the location that showed it.'),
      lastSeen: z.string().describe('ISO 8601, UTC: the last one that did.'),
      timesSeen: z.number().int().min(1).describe('Search answers that showed it.'),
      inLatestSearch: z.boolean().describe('Whether the latest search of the location on its platform showed it: false means it has gone from the results.'),
    })
    .describe('A listing searches of the location showed: supply over time (new ones appear, gone ones stop being seen).'),
);

export type SeenListingView = z.infer<ReturnType<typeof seenListingSchema>>;
