// The history endpoints (issue 26): what this deployment observed over time, read from its own
// store. Free; cursor-paged like the job list. Each schema is made on its first use.
import { z } from 'zod';
import { BOOKING_METHOD, BOOKING_METHODS } from '../analytics/bookings.js';
import { ALL_PLATFORMS } from '../platforms.js';
import { OBSERVATION_KINDS } from '../ports/store/observations.js';
import { MAX_ADULTS } from './param-schemas.js';
import { DATE_RANGE_MESSAGE, country, date, inDateRange, int, list, lowerEnum, num, str } from './fields.js';
import { once } from './once.js';

/** The longest window a history read may span (from to to), in days. */
export const HISTORY_MAX_DAYS = 400;

/** An instant: an ISO 8601 date-time with its offset, or a date (its UTC midnight); its date within the one range (fields.ts). */
const instant = () =>
  str()
    .refine((s) => /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/.test(s) && !Number.isNaN(Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s)), {
      message: 'must be an ISO 8601 date-time with its offset (2027-01-01T06:00:00Z) or a date (YYYY-MM-DD)',
    })
    .refine(inDateRange, { message: DATE_RANGE_MESSAGE });

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

/** What a calendar change may name as changed (`observed`: the night was first observed). */
const CALENDAR_CHANGE_FIELDS = ['observed', 'available', 'minNights', 'checkIn', 'checkOut', 'bookable'] as const;

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
            checkIn: fromTo(z.boolean().nullable()).describe('Whether a stay may start on the day, before and after (null: not stated).'),
            checkOut: fromTo(z.boolean().nullable()).describe('Whether a stay may end on the day, before and after (null: not stated).'),
            bookable: fromTo(z.boolean().nullable()).describe('Whether the platform offered the night for booking, before and after (null: not stated).'),
            changed: z
              .array(z.enum(CALENDAR_CHANGE_FIELDS))
              .describe("What changed from the night's state before: observed (first observed), available, minNights, checkIn, checkOut, bookable. A change shows only what was observed to change."),
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

/** The export's page: larger than the other reads' (it is walked to the end), still bounded. */
const OBSERVATIONS_PAGE = { default: 500, max: 1000 } as const;

export const historyObservationsParams = once(() =>
  z.object({
    since: instant().describe('Observations last seen at or after this instant (ISO 8601 date-time with its offset, or a date: its UTC midnight).'),
    limit: int(z.number().min(1).max(OBSERVATIONS_PAGE.max)).default(OBSERVATIONS_PAGE.default).describe(`Observations per page, 1 to ${OBSERVATIONS_PAGE.max}. Default ${OBSERVATIONS_PAGE.default}.`),
    cursor: str().optional().describe('Opaque cursor from meta.pagination.nextCursor.'),
    collection: str(z.string().min(1)).optional().describe("One of the account's collections (col_… or its name): only the observations of the listings it ever discovered (gone ones included)."),
  }),
);

export const observationSchema = once(() =>
  z
    .object({
      platform: z.string(),
      listingId: z.string().describe('Platform-native id.'),
      kind: z.enum(OBSERVATION_KINDS).describe('search (a search row, key: the location), listing, rating, quote (key: checkIn/checkOut/adults) or day (key: the date).'),
      key: z.string().describe("Which series of the listing's kind: the location searched, the stay, the date; empty for listing and rating."),
      currency: z.string().nullable(),
      value: z.unknown().describe('The normalized values observed, as recorded.'),
      source: z.string().describe('Who served it: an actor id or `simulated`.'),
      firstSeen: z.string().describe('ISO 8601, UTC.'),
      lastSeen: z.string().describe('ISO 8601, UTC.'),
      timesSeen: z.number().int().min(1),
    })
    .describe('One stored observation: a value of one series, with when it was first and last seen and how often.'),
);

export type ObservationView = z.infer<ReturnType<typeof observationSchema>>;

/** The longest window of nights booking inference reads, in days. */
export const BOOKINGS_MAX_NIGHTS = 400;

/** The booking-inference method a reader asks for (issue 37): the answer names the one it used. */
export const bookingMethodParam = () =>
  lowerEnum(BOOKING_METHODS)
    .optional()
    .describe(`The booking-inference method: ${BOOKING_METHODS.join(' or ')} (default ${BOOKING_METHOD}; docs/analytics.md). The answer names the method it used.`);

export const historyBookingsParams = once(() =>
  z.object({
    ...listingFields(),
    from: date().describe('YYYY-MM-DD: the first night classified (a past night too).'),
    to: date().describe(`YYYY-MM-DD, after from: the morning after the last night; at most ${BOOKINGS_MAX_NIGHTS} nights.`),
    method: bookingMethodParam(),
    minConfidence: num(z.number().min(0).max(1))
      .optional()
      .describe(
        'From 0 to 1: an observed night the method is less sure of than this is answered unknown, with its confidence and the state found as `likely`, and a booking less sure than this is left out (default: every observed night answered with its state; docs/analytics.md, "Abstaining").',
      ),
  }),
);

const NIGHT_STATE_VALUES = ['available', 'booked', 'blocked', 'unbookable', 'unknown'] as const;

export const bookingInferenceSchema = once(() =>
  z
    .object({
      method: z
        .string()
        .describe(
          `The method and its version, the one asked for or the default: ${BOOKING_METHODS.join(', ')} (docs/analytics.md). A change to its rules is a new version; calendar-diff/2 is in development, its rules changing between releases until it becomes the default.`,
        ),
      minConfidence: z.number().nullable().describe('The minConfidence asked for (nights and bookings less sure than it answered unknown and left out), or null.'),
      platform: z.string(),
      listingId: z.string().describe('Platform-native id.'),
      from: z.string().describe('YYYY-MM-DD: the first night.'),
      to: z.string().describe('YYYY-MM-DD: the morning after the last night.'),
      nights: z
        .array(
          z.object({
            date: z.string().describe('YYYY-MM-DD.'),
            state: z
              .enum(NIGHT_STATE_VALUES)
              .describe(
                'available (free, and some stay the rules allow includes it), booked (taken by a guest), blocked (taken by the host), unbookable (free, but no stay the rules allow includes it: a gap shorter than the minimum stay, closed check-in days), unknown (never observed; with minConfidence, also observed but less sure than it).',
              ),
            confidence: z
              .number()
              .min(0)
              .max(1)
              .describe('How sure the method is of the state, 0 to 1 (0 for a night never observed; a night answered unknown under minConfidence keeps the confidence of its likely state).'),
            likely: z
              .enum(NIGHT_STATE_VALUES)
              .nullable()
              .describe('With minConfidence: the state the method found for a night it answered unknown for being less sure than minConfidence; null for every other night.'),
          }),
        )
        .describe('Every night of the window, in date order.'),
      bookings: z
        .array(
          z.object({
            checkIn: z.string().describe('YYYY-MM-DD: the first night of a run of nights taken together.'),
            checkOut: z.string().describe('YYYY-MM-DD: the morning after its last night.'),
            nights: z.number().int().min(1),
            bookedAfter: z.string().nullable().describe('ISO 8601, UTC: the last observation that showed its first night free; null when it was taken when first observed.'),
            bookedBefore: z.string().describe('ISO 8601, UTC: the first observation that showed it taken.'),
            leadTimeDays: z
              .number()
              .int()
              .describe('Whole days from when it was booked (the middle of bookedAfter and bookedBefore) to check-in; when bookedAfter is null, a floor (bookedBefore to check-in).'),
            lastPriceSeen: z.number().nullable().describe('The nightly price last observed for its first night (a quote of a stay including it) before it was taken; null when none was observed.'),
            currency: z.string().nullable().describe('The currency of lastPriceSeen (else of meanNightlyPriceSeen); null when no night was priced.'),
            confidence: z.number().min(0).max(1),
            pricedNights: z
              .number()
              .int()
              .min(0)
              .describe('Its nights with a price: a nightly price observed, before it was taken, for a stay including the night (the market counts the same nights in its ADR sample).'),
            meanNightlyPriceSeen: z
              .number()
              .nullable()
              .describe('The mean of its priced nights’ prices (each night’s last price seen for a stay including it before it was taken), in currency; null when none was priced.'),
          }),
        )
        .describe('The inferred guest bookings with a night in the window (host blocks are not bookings), by check-in.'),
      counts: z
        .object(Object.fromEntries(NIGHT_STATE_VALUES.map((s) => [s, z.number().int().min(0)])) as Record<(typeof NIGHT_STATE_VALUES)[number], z.ZodNumber>)
        .describe('Nights of the window by state.'),
      sample: z
        .object({
          observations: z.number().int().min(0).describe('Observation rows read: calendar days of the window (a row per run of equal values) and price rows.'),
          nights: z.number().int().min(0).describe('Nights of the window observed at least once.'),
          firstObserved: z.string().nullable().describe('ISO 8601, UTC: the first observation of a night of the window.'),
          lastObserved: z.string().nullable().describe('ISO 8601, UTC: the last one.'),
          reviews: z
            .number()
            .int()
            .min(0)
            .nullable()
            .describe(
              "The listing's reviews calendar-diff/2 read, dated by the rises of its observed review count; null when none were read (calendar-diff/1, or the count was not observed over the calendar's whole observation).",
            ),
        })
        .describe('What the figures rest on.'),
    })
    .describe("A listing's nights classified from its observed calendar, and the bookings inferred: method, sample size and observation window beside every figure."),
);

export type BookingInferenceView = z.infer<ReturnType<typeof bookingInferenceSchema>>;

export type HistoryPriceInput = z.input<ReturnType<typeof historyPriceParams>>;
export type HistoryAvailabilityInput = z.input<ReturnType<typeof historyAvailabilityParams>>;
export type HistoryListingsInput = z.input<ReturnType<typeof historyListingsParams>>;
export type HistoryObservationsInput = z.input<ReturnType<typeof historyObservationsParams>>;
export type HistoryBookingsInput = z.input<ReturnType<typeof historyBookingsParams>>;
