// Watches (issue 26, item 4): a call the server makes again on an interval, and rules that say
// which changes between two runs are worth an event (a `watch.triggered` webhook and a row of the
// watch's events). Family U style: camelCase, { data, meta }. Each schema is made on its first use.
import { z } from 'zod';
import { int, label, lowerEnum, num, str } from './fields.js';
import { once } from './once.js';

/** The shortest interval between two runs of a watch, in minutes (issue 26). */
export const WATCH_MIN_INTERVAL_MINUTES = 15;
/** The longest: a week. */
const WATCH_MAX_INTERVAL_MINUTES = 7 * 24 * 60;
/**
 * A watch is due from this long before its nominal time (created at + k × interval: its phase), so
 * a daily cron a little early still runs it; its next run stays on the phase (issue 36, item 3).
 */
export const WATCH_SLACK_MS = 60_000;
/** Runs made at once by one process, and of one account at most (issue 35, item 4). */
export const WATCH_RUN_SLOTS = 8;
export const WATCH_RUNS_PER_ACCOUNT = 2;
/**
 * Watches one account may keep, sandbox and live together: active and ended ones (a deleted watch
 * is gone with its events at once; issue 35, item 2).
 */
export const MAX_ACTIVE_WATCHES = 100;
/** The longest a watch's call.params may be, as JSON text (issue 35, item 2: every stored row bounded). */
export const WATCH_PARAMS_MAX_CHARS = 8_192;

export const WATCH_CALL_TYPES = ['price', 'availability', 'search'] as const;
export type WatchCallType = (typeof WATCH_CALL_TYPES)[number];

export const WATCH_RULE_TYPES = ['price_below', 'price_drop', 'nights_available', 'min_nights_changed', 'new_listings'] as const;
export type WatchRuleType = (typeof WATCH_RULE_TYPES)[number];

/** Which calls each rule reads: a rule on a call whose answer cannot show its change is refused at creation. */
export const RULE_CALLS: Record<WatchRuleType, readonly WatchCallType[]> = {
  price_below: ['price'],
  price_drop: ['price'],
  nights_available: ['availability'],
  min_nights_changed: ['availability'],
  new_listings: ['search'],
};

const priceField = () => lowerEnum(['nightlyprice', 'totalprice'] as const);

export const watchRuleSchema = once(() =>
  z.object({
    type: lowerEnum(WATCH_RULE_TYPES).describe(
      'price_below (the price goes under `amount`), price_drop (the price falls by at least `percent` % from one run to the next), ' +
        'nights_available (a night of the window that was taken becomes available), min_nights_changed (a night’s minimum stay changes), ' +
        'new_listings (a listing among all the run fetched that matched, beyond the page too, that no search of the place had shown by the run before).',
    ),
    amount: num(z.number().positive()).optional().describe('price_below: the amount, in the call’s currency.'),
    percent: num(z.number().gt(0).lt(100)).optional().describe('price_drop: the least fall, in percent of the price the run before saw (0 < percent < 100).'),
    field: priceField().optional().describe('price_below and price_drop: nightlyPrice (default) or totalPrice.'),
  }),
);

export const watchCallSchema = once(() =>
  z
    .object({
      type: lowerEnum(WATCH_CALL_TYPES).describe('price (GET /v1/price), availability (GET /v1/availability, one listing) or search (GET /v1/search).'),
      params: z.record(z.string(), z.unknown()).describe('The query parameters of that endpoint, exactly as it takes them; checked as it checks them.'),
    })
    .describe('The call each run makes, billed exactly as the same call made by hand.'),
);

const watchFields = () => ({
  name: label(200).optional().describe('A label for people, at most 200 characters once trimmed; not empty, no control or bidirectional control characters.'),
  intervalMinutes: int(z.number().min(WATCH_MIN_INTERVAL_MINUTES).max(WATCH_MAX_INTERVAL_MINUTES))
    .default(60)
    .describe(`Minutes between runs, ${WATCH_MIN_INTERVAL_MINUTES} to ${WATCH_MAX_INTERVAL_MINUTES}. Default 60.`),
  maxCreditsPerDay: int(z.number().min(0).max(1_000_000))
    .nullable()
    .optional()
    .describe('Credits the runs of this watch may spend in one UTC day; a run that could take the day past it is skipped. Default: no cap.'),
});

/** The body's own fields, the call and each rule parsed apart (so an error names call.type or rules[1].amount). */
export const createWatchTop = once(() =>
  z.object({
    call: z.record(z.string(), z.unknown()),
    rules: z.array(z.unknown()).min(1).max(10),
    ...watchFields(),
  }),
);

/** The body as documented (OpenAPI). */
export const createWatchBody = once(() =>
  z.object({
    call: watchCallSchema(),
    rules: z.array(watchRuleSchema()).min(1).max(10).describe('At least one rule, at most 10: any of them that holds on a run is an event.'),
    ...watchFields(),
  }),
);

export const watchPathParams = once(() => z.object({ id: str().describe('The watch id (wat_…).') }));

export const watchListParams = once(() =>
  z.object({
    limit: int(z.number().min(1).max(100)).default(100).describe('Watches per page, 1 to 100. Default 100.'),
    cursor: str().optional().describe('Opaque cursor from meta.pagination.nextCursor.'),
  }),
);

export const watchEventsParams = once(() =>
  z.object({
    limit: int(z.number().min(1).max(1000)).default(100).describe('Events per page, 1 to 1000. Default 100.'),
    cursor: str().optional().describe('Opaque cursor from meta.pagination.nextCursor.'),
  }),
);

// --- What a watch row holds (the store keeps them as JSON; the operations read them back through these) ---

const PRICE_FIELDS = ['nightlyPrice', 'totalPrice'] as const;

/**
 * A rule as checked at creation, stored and evaluated: only the fields its type takes, the price
 * rules' field always set. (The documented view, ruleView, is the same object with every field optional.)
 */
export const checkedRuleSchema = once(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('price_below'), amount: z.number(), field: z.enum(PRICE_FIELDS) }),
    z.object({ type: z.literal('price_drop'), percent: z.number(), field: z.enum(PRICE_FIELDS) }),
    z.object({ type: z.literal('nights_available') }),
    z.object({ type: z.literal('min_nights_changed') }),
    z.object({ type: z.literal('new_listings') }),
  ]),
);
export type WatchRule = z.infer<ReturnType<typeof checkedRuleSchema>>;

/** The call as stored: the type checked at creation, its params as the endpoint took them. */
export const storedCallSchema = once(() => z.object({ type: z.enum(WATCH_CALL_TYPES), params: z.record(z.string(), z.unknown()) }));
export type WatchCall = z.infer<ReturnType<typeof storedCallSchema>>;

/** What a run of a price watch saw. */
const priceStateSchema = once(() => z.object({ nightlyPrice: z.number().nullable(), totalPrice: z.number().nullable(), currency: z.string() }));
/** What a run of an availability watch saw: each night of the window, by date. */
const calendarStateSchema = once(() => z.object({ listingId: z.string(), days: z.record(z.string(), z.object({ available: z.boolean(), minNights: z.number().nullable() })) }));
/**
 * Listings a search watch's state keeps at most, and the characters of each name (issue 35, item
 * 2: every stored row bounded; a watch row, an event row stay under 64 KB, a watch.triggered
 * payload under 72 KB).
 */
export const WATCH_STATE_LISTINGS = 300;
export const WATCH_STATE_NAME_CHARS = 100;
/**
 * What a run of a search watch saw: every listing its legs fetched that matched the query, whatever
 * the page (at most WATCH_STATE_LISTINGS), and when it saw them (`at`, epoch ms; states before
 * issue 36 have none and kept the first page only).
 */
const searchStateSchema = once(() =>
  z.object({ listings: z.array(z.object({ platform: z.string(), listingId: z.string(), name: z.string(), nightlyPrice: z.number().nullable() })), at: z.number().optional() }),
);
export type PriceState = z.infer<ReturnType<typeof priceStateSchema>>;
export type CalendarState = z.infer<ReturnType<typeof calendarStateSchema>>;
export type SearchState = z.infer<ReturnType<typeof searchStateSchema>>;
export type WatchState = PriceState | CalendarState | SearchState;

/** The state a watch of this call keeps between runs. */
export function watchStateSchema(call: WatchCallType): z.ZodType<WatchState> {
  if (call === 'price') return priceStateSchema();
  if (call === 'availability') return calendarStateSchema();
  return searchStateSchema();
}

const ruleView = () =>
  z.object({
    type: z.enum(WATCH_RULE_TYPES),
    amount: z.number().optional(),
    percent: z.number().optional(),
    field: z.enum(['nightlyPrice', 'totalPrice']).optional(),
  });

export const watchSchema = once(() =>
  z
    .object({
      id: z.string().describe('wat_…'),
      name: z.string().nullable(),
      call: z.object({ type: z.enum(WATCH_CALL_TYPES), params: z.record(z.string(), z.unknown()) }),
      rules: z.array(ruleView()),
      intervalMinutes: z.number().int(),
      maxCreditsPerDay: z.number().int().nullable(),
      status: z.enum(['active', 'ended', 'deleted']).describe('ended: the call can no longer be made (its dates passed, its key was revoked): see endedReason.'),
      endedReason: z.string().nullable(),
      createdAt: z.string(),
      nextRunAt: z.string().nullable().describe('ISO 8601, UTC; null once the watch ended or was deleted.'),
      lastRun: z
        .object({
          at: z.string(),
          outcome: z.enum(['ok', 'failed', 'skipped', 'pending']).describe('skipped: maxCreditsPerDay reached; pending: the call became a job still running.'),
          creditsCharged: z.number().int(),
          error: z.object({ code: z.string(), message: z.string() }).nullable(),
        })
        .nullable(),
      creditsToday: z.number().int().describe('Credits the runs spent this UTC day.'),
      runs: z.number().int(),
      triggers: z.number().int().describe('Events so far.'),
    })
    .describe('A watch of this account.'),
);

export type WatchView = z.infer<ReturnType<typeof watchSchema>>;

export const watchEventSchema = once(() =>
  z
    .object({
      id: z.string().describe('wev_…: also the watch.triggered webhook event’s watch_event_id.'),
      watchId: z.string(),
      rule: ruleView(),
      occurredAt: z.string().describe('ISO 8601, UTC: the run that saw the change.'),
      before: z.unknown().describe('What the run before saw (null on a first run).'),
      after: z.unknown().describe('What this run saw.'),
      changes: z.array(z.unknown()).describe('The nights or listings that changed (availability and search rules); empty for price rules.'),
    })
    .describe('A rule of a watch that held on a run.'),
);

export type WatchEventView = z.infer<ReturnType<typeof watchEventSchema>>;
