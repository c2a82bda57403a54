// Watches (issue 26, item 4; docs/decisions.md "Watches"): POST/GET/DELETE /v1/watches and
// GET /v1/watches/{id}/events. A watch is a call (checked as its endpoint checks it) and rules
// checked against the call; its runs are ops/watch-runs.ts, its rules' engine
// analytics/watch-rules.ts.
import { requireScope } from '../auth.js';
import { utcToday } from '../clock.js';
import { type OpResult, type RequestContext, type Services, isSandbox } from '../context.js';
import { decodePositionCursor, encodePositionCursor, fingerprint } from '../cursor.js';
import { ServiceError } from '../errors.js';
import { buildMeta } from '../meta.js';
import type { WatchRow } from '../ports/store.js';
import { availabilityParams, priceParams, searchParams } from '../schemas/param-schemas.js';
import {
  MAX_ACTIVE_WATCHES,
  RULE_CALLS,
  WATCH_PARAMS_MAX_CHARS,
  type WatchCallType,
  type WatchEventView,
  type WatchRule,
  type WatchRuleType,
  type WatchView,
  createWatchTop,
  watchEventsParams,
  watchCallSchema,
  watchListParams,
  watchRuleSchema,
} from '../schemas/watches.js';
import { type RawInput, parseParams, preview } from '../validate.js';
import { type CallPlan, callPlan } from './watch-call.js';
import { eventView, watchView } from './watch-rows.js';

const WATCH_ID = /^wat_[0-9a-hjkmnp-tv-z]{26}$/;
const EVENT_ID = /^wev_[0-9a-hjkmnp-tv-z]{26}$/;

/** A part of the body parsed on its own: its errors name the part (rules[1].amount). */
function within<T>(at: string, parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    throw new ServiceError(e.code, e.param ? e.message.replace(e.param, `${at}.${e.param}`) : e.message, { param: e.param ? `${at}.${e.param}` : at, cause: e });
  }
}

/** A call's own typed error, its param named as the watch body names it (call.params.checkIn). */
function asCallError(e: unknown): unknown {
  if (!(e instanceof ServiceError) || e.type !== 'invalid_request') return e;
  return new ServiceError(e.code, e.message, { param: e.param === null ? 'call.params' : `call.params.${e.param}`, cause: e });
}

const bad = (param: string, message: string) => new ServiceError('invalid_parameter', message, { param });

/** The endpoint of each watched call and the parameters it takes. */
const CALL_ENDPOINTS: Record<WatchCallType, { path: string; params: () => readonly string[] }> = {
  price: { path: 'GET /v1/price', params: () => Object.keys(priceParams().shape) },
  availability: { path: 'GET /v1/availability', params: () => Object.keys(availabilityParams().shape) },
  search: { path: 'GET /v1/search', params: () => Object.keys(searchParams().shape) },
};

/**
 * A watch keeps only what its call takes (issue 35, item 2): a parameter the endpoint does not
 * take is refused (the endpoint itself ignores it, but a watch stores it for good), and the whole
 * at most WATCH_PARAMS_MAX_CHARS of JSON.
 */
function checkParams(type: WatchCallType, params: Record<string, unknown>): void {
  const { path, params: takes } = CALL_ENDPOINTS[type];
  const known = new Set(takes());
  for (const key of Object.keys(params)) {
    if (!known.has(key)) throw bad(`call.params.${key}`, `${path} takes no parameter ${preview(key)}; a ${type} watch keeps only what it takes: ${[...known].join(', ')}.`);
  }
  const size = JSON.stringify(params).length;
  if (size > WATCH_PARAMS_MAX_CHARS) {
    throw bad('call.params', `call.params is ${size} characters as JSON; a watch keeps at most ${WATCH_PARAMS_MAX_CHARS}.`);
  }
}

/** The rules as stored and shown: camelCase fields, only those the rule takes; a rule that cannot trigger is refused. */
function checkRules(
  rules: { type: WatchRuleType; amount?: number | undefined; percent?: number | undefined; field?: string | undefined }[],
  call: WatchCallType,
  platform: string | null,
): WatchRule[] {
  return rules.map((r, i) => {
    const at = `rules[${i}]`;
    if (!RULE_CALLS[r.type].includes(call)) {
      throw bad(`${at}.type`, `${r.type} cannot trigger on a ${call} watch: it reads a ${RULE_CALLS[r.type].join(' or ')} answer.`);
    }
    const field = r.field === 'totalprice' ? 'totalPrice' : 'nightlyPrice';
    if (r.type === 'price_below') {
      if (r.amount === undefined) throw bad(`${at}.amount`, 'price_below needs amount: the price it must go under.');
      if (r.percent !== undefined) throw bad(`${at}.percent`, 'price_below takes amount, not percent (price_drop takes percent).');
      return { type: 'price_below', amount: r.amount, field };
    }
    if (r.type === 'price_drop') {
      if (r.percent === undefined) throw bad(`${at}.percent`, 'price_drop needs percent: the least fall from one run to the next, 0 < percent < 100.');
      if (r.amount !== undefined) throw bad(`${at}.amount`, 'price_drop takes percent, not amount (price_below takes amount).');
      return { type: 'price_drop', percent: r.percent, field };
    }
    for (const k of ['amount', 'percent', 'field'] as const) if (r[k] !== undefined) throw bad(`${at}.${k}`, `${r.type} takes no ${k}.`);
    // Booking and Google calendars state no minimum stay (null): the rule could never hold.
    if (r.type === 'min_nights_changed' && (platform === 'booking' || platform === 'google')) {
      throw bad(`${at}.type`, `min_nights_changed cannot trigger on a ${platform} calendar: ${platform} states no minimum stay.`);
    }
    return { type: r.type };
  });
}

/** POST /v1/watches: the call is checked as its endpoint checks it, the rules against the call; the first run is due at once. */
export async function createWatch(services: Services, ctx: RequestContext, raw: RawInput): Promise<OpResult<WatchView>> {
  requireScope(ctx, 'stays.read');
  requireScope(ctx, 'watches.write');
  const body = parseParams(createWatchTop(), raw);
  const call = within('call', () => parseParams(watchCallSchema(), body.call));
  checkParams(call.type, call.params);
  const parsedRules = body.rules.map((r, i) => within(`rules[${i}]`, () => parseParams(watchRuleSchema(), (typeof r === 'object' && r !== null ? r : { type: r }) as RawInput)));
  const type = call.type;
  let plan: CallPlan['plan'];
  try {
    plan = callPlan(services, ctx, call).plan;
  } catch (e) {
    throw asCallError(e);
  }
  if (type === 'availability' && (call.params.listingIds !== undefined || plan.legs.length !== 1)) {
    throw bad('call.params.listingIds', 'An availability watch watches one listing: give listingId (or url), not listingIds.');
  }
  const rules = checkRules(parsedRules, type, plan.platforms.length === 1 ? plan.platforms[0]! : null);
  const max = body.maxCreditsPerDay ?? null;
  if (max !== null && !isSandbox(ctx) && max < plan.worstCase) {
    throw bad('maxCreditsPerDay', `A run of this call may cost up to ${plan.worstCase} credits: a cap of ${max} a day would never let it run.`);
  }
  const now = services.clock.now();
  const made = await services.store.createWatch(
    {
      id: `wat_${services.ids.ulid().toLowerCase()}`,
      accountId: ctx.account.id,
      keyId: ctx.key.id,
      env: ctx.key.env,
      name: body.name ?? null,
      call: { type, params: call.params },
      rules,
      intervalMinutes: body.intervalMinutes,
      maxCreditsPerDay: max,
      createdAt: now,
      nextRunAt: now,
    },
    MAX_ACTIVE_WATCHES,
  );
  if (made === null) {
    throw new ServiceError('watch_limit_exceeded', `This account keeps ${MAX_ACTIVE_WATCHES} watches, the most it may (active and ended, sandbox and live together); delete one first.`);
  }
  return { data: watchView(made, utcToday(services.clock)), meta: buildMeta(services, ctx, { platforms: [], currency: 'USD' }) };
}

/** The caller's watch, or watch_not_found (unknown, malformed, another account's or the other environment's, deleted). */
async function ownWatch(services: Services, ctx: RequestContext, id: string): Promise<WatchRow> {
  const notFound = () => new ServiceError('watch_not_found', `No watch ${preview(id)} on this account.`, { param: 'id' });
  if (!WATCH_ID.test(id)) throw notFound();
  const w = await services.store.getWatch(id);
  if (!w || w.accountId !== ctx.account.id || w.env !== ctx.key.env || w.status === 'deleted') throw notFound();
  return w;
}

export async function listWatches(services: Services, ctx: RequestContext, raw: RawInput): Promise<OpResult<WatchView[]>> {
  requireScope(ctx, 'stays.read');
  const p = parseParams(watchListParams(), raw);
  const fp = fingerprint(['watches', ctx.key.env]);
  const after = decodePositionCursor(p.cursor, fp, WATCH_ID);
  const rows = await services.store.listWatches(ctx.account.id, ctx.key.env, after && { createdAt: after.t, id: after.id }, p.limit + 1);
  const page = rows.slice(0, p.limit);
  const hasMore = rows.length > p.limit;
  const last = page.at(-1);
  const today = utcToday(services.clock);
  return {
    data: page.map((w) => watchView(w, today)),
    meta: buildMeta(services, ctx, {
      platforms: [],
      currency: 'USD',
      pagination: { limit: p.limit, cursor: p.cursor ?? null, nextCursor: hasMore && last ? encodePositionCursor({ t: last.createdAt, id: last.id }, fp) : null, hasMore },
    }),
  };
}

export async function getWatch(services: Services, ctx: RequestContext, id: string): Promise<OpResult<WatchView>> {
  requireScope(ctx, 'stays.read');
  const w = await ownWatch(services, ctx, id);
  return { data: watchView(w, utcToday(services.clock)), meta: buildMeta(services, ctx, { platforms: [], currency: 'USD' }) };
}

/** DELETE /v1/watches/{id}: no more runs; the watch and its events are gone from the store at once (issue 35, item 2). */
export async function deleteWatch(services: Services, ctx: RequestContext, id: string): Promise<OpResult<WatchView>> {
  requireScope(ctx, 'stays.read');
  requireScope(ctx, 'watches.write');
  await ownWatch(services, ctx, id);
  const w = await services.store.deleteWatch(id, ctx.account.id, services.clock.now());
  if (!w) throw new ServiceError('watch_not_found', `No watch ${preview(id)} on this account.`, { param: 'id' });
  return { data: watchView(w, utcToday(services.clock)), meta: buildMeta(services, ctx, { platforms: [], currency: 'USD' }) };
}

export async function listWatchEvents(services: Services, ctx: RequestContext, id: string, raw: RawInput): Promise<OpResult<WatchEventView[]>> {
  requireScope(ctx, 'stays.read');
  const w = await ownWatch(services, ctx, id);
  const p = parseParams(watchEventsParams(), raw);
  const fp = fingerprint(['watch-events', w.id]);
  const after = decodePositionCursor(p.cursor, fp, EVENT_ID);
  const rows = await services.store.watchEvents(w.id, after && { occurredAt: after.t, id: after.id }, p.limit + 1);
  const page = rows.slice(0, p.limit);
  const hasMore = rows.length > p.limit;
  const last = page.at(-1);
  return {
    data: page.map(eventView),
    meta: buildMeta(services, ctx, {
      platforms: [],
      currency: 'USD',
      pagination: { limit: p.limit, cursor: p.cursor ?? null, nextCursor: hasMore && last ? encodePositionCursor({ t: last.occurredAt, id: last.id }, fp) : null, hasMore },
    }),
  };
}
