// Watches (issue 26, item 4; docs/decisions.md "Watches"): POST/GET/DELETE /v1/watches and
// GET /v1/watches/{id}/events, and the run of a due watch, which `stays serve` makes on the
// watch's interval and `stays watch run` makes once. A run is the watch's call made as the key that
// created it, billed exactly as the same call made by hand (execute.ts: holds, free failures, the
// cache), within the watch's maxCreditsPerDay; its rules compare the answer with the one the run
// before saw, and each rule that holds is an event: a row of the watch's events and a signed
// `watch.triggered` webhook event to the account's webhooks of the key's environment.
import { requireScope } from '../auth.js';
import { utcToday } from '../clock.js';
import { type OpResult, type RequestContext, type Services, isSandbox } from '../context.js';
import { decodePositionCursor, encodePositionCursor, fingerprint } from '../cursor.js';
import { ServiceError } from '../errors.js';
import { execute } from '../execute.js';
import { newRequestId } from '../ids.js';
import type { Plan } from '../plan.js';
import type { NewWatchEvent, WatchEventRow, WatchRow, WatchRunRecord } from '../ports/store.js';
import type { Availability, Price, Property } from '../schemas/resources.js';
import {
  MAX_ACTIVE_WATCHES,
  RULE_CALLS,
  type WatchCallType,
  type WatchEventView,
  type WatchRuleType,
  type WatchView,
  createWatchTop,
  watchEventsParams,
  watchCallSchema,
  watchListParams,
  watchRuleSchema,
} from '../schemas/watches.js';
import { type RawInput, parseParams, preview } from '../validate.js';
import { availabilityPlan } from './availability.js';
import { buildMeta } from '../meta.js';
import { pricePlan } from './price.js';
import { searchPlan } from './search.js';

const WATCH_ID = /^wat_[0-9a-hjkmnp-tv-z]{26}$/;
const EVENT_ID = /^wev_[0-9a-hjkmnp-tv-z]{26}$/;
const iso = (ms: number) => new Date(ms).toISOString();
/** How long a run waits for its call when it becomes a job; past it the run is `pending` and the job finishes on its own. */
const RUN_WAIT_MS = 60_000;

/** Sandbox triggers (docs/sandbox.md): a watch of listing 100 (any platform), or of a search of `watch`, raises every rule on every run. */
const WATCH_TRIGGER_LISTING = '100';
const WATCH_TRIGGER_LOCATION = 'watch';

type Field = 'nightlyPrice' | 'totalPrice';
interface Rule {
  type: WatchRuleType;
  amount?: number;
  percent?: number;
  field?: Field;
}

interface PriceState {
  nightlyPrice: number | null;
  totalPrice: number | null;
  currency: string;
}
interface CalendarState {
  listingId: string;
  days: Record<string, { available: boolean; minNights: number | null }>;
}
interface SearchState {
  listings: { platform: string; listingId: string; name: string; nightlyPrice: number | null }[];
}
type State = PriceState | CalendarState | SearchState;

function planOf(services: Services, ctx: RequestContext, call: { type: string; params: Record<string, unknown> }): Plan<unknown> {
  const raw = call.params as RawInput;
  if (call.type === 'price') return pricePlan(services, ctx, raw) as Plan<unknown>;
  if (call.type === 'availability') return availabilityPlan(services, ctx, raw) as Plan<unknown>;
  return searchPlan(services, ctx, raw).plan as Plan<unknown>;
}

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

/** The rules as stored and shown: camelCase fields, only those the rule takes; a rule that cannot trigger is refused. */
function checkRules(rules: { type: WatchRuleType; amount?: number | undefined; percent?: number | undefined; field?: string | undefined }[], call: WatchCallType, platform: string | null): Rule[] {
  return rules.map((r, i) => {
    const at = `rules[${i}]`;
    if (!RULE_CALLS[r.type].includes(call)) {
      throw bad(`${at}.type`, `${r.type} cannot trigger on a ${call} watch: it reads a ${RULE_CALLS[r.type].join(' or ')} answer.`);
    }
    const field: Field = r.field === 'totalprice' ? 'totalPrice' : 'nightlyPrice';
    if (r.type === 'price_below') {
      if (r.amount === undefined) throw bad(`${at}.amount`, 'price_below needs amount: the price it must go under.');
      if (r.percent !== undefined) throw bad(`${at}.percent`, 'price_below takes amount, not percent (price_drop takes percent).');
      return { type: r.type, amount: r.amount, field };
    }
    if (r.type === 'price_drop') {
      if (r.percent === undefined) throw bad(`${at}.percent`, 'price_drop needs percent: the least fall from one run to the next, 0 < percent < 100.');
      if (r.amount !== undefined) throw bad(`${at}.amount`, 'price_drop takes percent, not amount (price_below takes amount).');
      return { type: r.type, percent: r.percent, field };
    }
    for (const k of ['amount', 'percent', 'field'] as const) if (r[k] !== undefined) throw bad(`${at}.${k}`, `${r.type} takes no ${k}.`);
    // Booking and Google calendars state no minimum stay (null): the rule could never hold.
    if (r.type === 'min_nights_changed' && (platform === 'booking' || platform === 'google')) {
      throw bad(`${at}.type`, `min_nights_changed cannot trigger on a ${platform} calendar: ${platform} states no minimum stay.`);
    }
    return { type: r.type };
  });
}

function watchView(w: WatchRow, today: string): WatchView {
  return {
    id: w.id,
    name: w.name,
    call: w.call as WatchView['call'],
    rules: w.rules as WatchView['rules'],
    intervalMinutes: w.intervalMinutes,
    maxCreditsPerDay: w.maxCreditsPerDay,
    status: w.status,
    endedReason: w.endedReason,
    createdAt: iso(w.createdAt),
    nextRunAt: w.status === 'active' ? iso(w.nextRunAt) : null,
    lastRun: w.lastRunAt === null || w.lastOutcome === null ? null : { at: iso(w.lastRunAt), outcome: w.lastOutcome, creditsCharged: w.lastCharged, error: w.lastError },
    creditsToday: w.creditsDay === today ? w.creditsToday : 0,
    runs: w.runs,
    triggers: w.triggers,
  };
}

const eventView = (e: WatchEventRow): WatchEventView => ({
  id: e.id,
  watchId: e.watchId,
  rule: e.rule as WatchEventView['rule'],
  occurredAt: iso(e.occurredAt),
  before: e.before,
  after: e.after,
  changes: e.changes,
});

/** POST /v1/watches: the call is checked as its endpoint checks it, the rules against the call; the first run is due at once. */
export async function createWatch(services: Services, ctx: RequestContext, raw: RawInput): Promise<OpResult<WatchView>> {
  requireScope(ctx, 'stays.read');
  requireScope(ctx, 'watches.write');
  const body = parseParams(createWatchTop(), raw);
  const call = within('call', () => parseParams(watchCallSchema(), body.call as RawInput));
  const parsedRules = body.rules.map((r, i) => within(`rules[${i}]`, () => parseParams(watchRuleSchema(), (typeof r === 'object' && r !== null ? r : { type: r }) as RawInput)));
  const type = call.type;
  let plan: Plan<unknown>;
  try {
    plan = planOf(services, ctx, call);
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
      name: body.name?.trim() || null,
      call: { type, params: call.params },
      rules: rules as unknown as Record<string, unknown>[],
      intervalMinutes: body.intervalMinutes,
      maxCreditsPerDay: max,
      createdAt: now,
      nextRunAt: now,
    },
    MAX_ACTIVE_WATCHES,
  );
  if (made === null) {
    throw new ServiceError('watch_limit_exceeded', `This account has ${MAX_ACTIVE_WATCHES} active watches, the most it may have (sandbox and live together); delete one first.`);
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

/** DELETE /v1/watches/{id}: no more runs; its events stay readable no more (404 like any deleted watch). */
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

// --- Runs ---------------------------------------------------------------------------------------

function stateOf(type: string, data: unknown): State {
  if (type === 'price') {
    const p = data as Price;
    return { nightlyPrice: p.nightlyPrice, totalPrice: p.totalPrice, currency: p.currency };
  }
  if (type === 'availability') {
    const a = (data as Availability[])[0]!;
    return { listingId: a.listingId, days: Object.fromEntries(a.dates.map((d) => [d.date, { available: d.available, minNights: d.minNights }])) };
  }
  return {
    listings: (data as Property[]).map((p) => ({ platform: p.platform, listingId: p.platformListingId, name: p.name, nightlyPrice: p.price?.nightlyPrice ?? null })),
  };
}

/** Whether a sandbox watch is of a trigger (docs/sandbox.md): its rules all hold on every run. */
function isTrigger(w: WatchRow, cur: State): boolean {
  if (w.env !== 'sandbox') return false;
  if ('listingId' in cur) return cur.listingId.split('/').pop() === WATCH_TRIGGER_LISTING;
  if ('listings' in cur)
    return (
      String(w.call.params.location ?? '')
        .trim()
        .toLowerCase() === WATCH_TRIGGER_LOCATION
    );
  return (
    String(w.call.params.listingId ?? '')
      .split(/[/_]/)
      .pop() === WATCH_TRIGGER_LISTING
  );
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * What a trigger's run before is taken to have seen, and what this run saw, for one rule: a price
 * 100 times this one (any drop holds), this one under the rule's amount, the first night taken
 * with a longer minimum stay, the first listing absent. Deterministic, so a CI job can assert it.
 */
function triggerStates(rule: Rule, cur: State): { prev: State; cur: State } {
  if ('days' in cur) {
    const [first] = Object.keys(cur.days);
    if (first === undefined) return { prev: cur, cur };
    const day = cur.days[first]!;
    const now = { ...cur, days: { ...cur.days, [first]: { available: true, minNights: day.minNights ?? 1 } } };
    return { prev: { ...cur, days: { ...cur.days, [first]: { available: false, minNights: (day.minNights ?? 1) + 1 } } }, cur: now };
  }
  if ('listings' in cur) return { prev: { listings: cur.listings.slice(1) }, cur };
  const field = rule.field ?? 'nightlyPrice';
  const value = cur[field] ?? 100;
  const now = rule.type === 'price_below' ? { ...cur, [field]: round2(Math.min(value, rule.amount! * 0.9)) } : cur;
  return { prev: { ...cur, [field]: round2(value * 100) }, cur: now };
}

/** The event a rule raises between two runs' states, or null. A first run (no state before) raises only price_below. */
function evaluate(rule: Rule, prev: State | null, cur: State): Omit<NewWatchEvent, 'id'> | null {
  const stored = rule as unknown as Record<string, unknown>;
  if (rule.type === 'price_below' || rule.type === 'price_drop') {
    const field = rule.field ?? 'nightlyPrice';
    const now = (cur as PriceState)[field];
    const before = prev === null ? null : (prev as PriceState)[field];
    if (now === null) return null;
    if (rule.type === 'price_below') {
      // Edge-triggered: once when it goes under, not on every run it stays under.
      if (!(now < rule.amount!) || (before !== null && before < rule.amount!)) return null;
    } else if (before === null || !(now <= before * (1 - rule.percent! / 100))) return null;
    return { rule: stored, before: prev, after: cur, changes: [] };
  }
  if (rule.type === 'nights_available' || rule.type === 'min_nights_changed') {
    if (prev === null) return null;
    const was = (prev as CalendarState).days;
    const changes: unknown[] = [];
    for (const [date, d] of Object.entries((cur as CalendarState).days)) {
      const b = was[date];
      if (b === undefined) continue;
      if (rule.type === 'nights_available' && !b.available && d.available) changes.push({ date, available: { from: false, to: true } });
      if (rule.type === 'min_nights_changed' && b.minNights !== null && d.minNights !== null && b.minNights !== d.minNights) {
        changes.push({ date, minNights: { from: b.minNights, to: d.minNights } });
      }
    }
    return changes.length === 0 ? null : { rule: stored, before: null, after: null, changes };
  }
  if (prev === null) return null;
  const seen = new Set((prev as SearchState).listings.map((l) => `${l.platform}:${l.listingId}`));
  const fresh = (cur as SearchState).listings.filter((l) => !seen.has(`${l.platform}:${l.listingId}`));
  return fresh.length === 0 ? null : { rule: stored, before: null, after: null, changes: fresh };
}

export interface WatchRunReport {
  watchId: string;
  outcome: WatchRunRecord['outcome'] | 'ended';
  creditsCharged: number;
  error: { code: string; message: string } | null;
  events: WatchEventView[];
}

/** One run of a claimed watch (its next run already moved on by the claim). */
async function runWatch(services: Services, w: WatchRow): Promise<WatchRunReport> {
  const at = services.clock.now();
  const day = utcToday(services.clock);
  const spent = w.creditsDay === day ? w.creditsToday : 0;
  const record = async (run: Omit<WatchRunRecord, 'at' | 'creditsDay' | 'creditsToday'> & { creditsToday?: number }, events: NewWatchEvent[] = []) => {
    await services.store.finishWatchRun(w.id, { ...run, at, creditsDay: day, creditsToday: run.creditsToday ?? spent }, events);
    return {
      watchId: w.id,
      outcome: run.endedReason ? ('ended' as const) : run.outcome,
      creditsCharged: run.charged,
      error: run.error,
      events: events.map((e) => eventView({ ...e, watchId: w.id, occurredAt: at })),
    };
  };
  const account = await services.store.getAccount(w.accountId);
  const key = (await services.store.listKeys(w.accountId)).find((k) => k.id === w.keyId);
  if (!account || !key || key.revoked) {
    const error = { code: 'key_revoked', message: 'The key that created this watch was revoked: its runs cannot be made as it any more.' };
    return record({ outcome: 'failed', charged: 0, error, endedReason: error.message });
  }
  const ctx: RequestContext = { requestId: newRequestId(services.ids), account, key };
  let plan: Plan<unknown>;
  try {
    plan = planOf(services, ctx, w.call);
  } catch (e) {
    // The call is no longer valid as it stands (its dates passed): it never will be again.
    const error = e instanceof ServiceError ? { code: e.code, message: e.message } : { code: 'internal_error', message: 'The call of this watch could not be made.' };
    return record({ outcome: 'failed', charged: 0, error, endedReason: `Its call is no longer valid: ${error.message}` });
  }
  if (w.env === 'live' && w.maxCreditsPerDay !== null && spent + plan.worstCase > w.maxCreditsPerDay) {
    const error = { code: 'max_credits_per_day', message: `This run may cost up to ${plan.worstCase} credits; the watch spent ${spent} of its ${w.maxCreditsPerDay} today (UTC).` };
    return record({ outcome: 'skipped', charged: 0, error });
  }
  let data: unknown;
  let charged: number;
  try {
    const r = await execute(services, ctx, plan, { waitMs: RUN_WAIT_MS });
    if (r.kind === 'accepted') {
      // The job runs on and is billed when it ends; the day counts its worst case meanwhile.
      return record({ outcome: 'pending', charged: 0, error: null, creditsToday: spent + plan.worstCase });
    }
    data = r.data;
    charged = r.meta.creditsCharged;
  } catch (e) {
    const error = e instanceof ServiceError ? { code: e.code, message: e.message } : { code: 'internal_error', message: 'The run failed.' };
    return record({ outcome: 'failed', charged: 0, error });
  }
  const cur = stateOf(w.call.type, data);
  const prev = (w.state ?? null) as State | null;
  const trigger = isTrigger(w, cur);
  const events: NewWatchEvent[] = [];
  for (const rule of w.rules as unknown as Rule[]) {
    const s = trigger ? triggerStates(rule, cur) : { prev, cur };
    const e = evaluate(rule, s.prev, s.cur);
    if (e) events.push({ id: `wev_${services.ids.ulid().toLowerCase()}`, ...e });
  }
  const report = await record({ outcome: 'ok', charged, error: null, state: cur, creditsToday: spent + charged }, events);
  for (const e of report.events) {
    void services.webhooks.emit({ accountId: w.accountId, env: w.env }, 'watch.triggered', {
      watch_id: w.id,
      watch_event_id: e.id,
      name: w.name,
      call: w.call,
      rule: e.rule,
      before: e.before,
      after: e.after,
      changes: e.changes,
      occurred_at: e.occurredAt,
    });
  }
  return report;
}

/**
 * Runs the watches due now, each once (claimed first, so another process running them at the same
 * time takes others): `stays serve` on its tick, `stays watch run` once. `only` narrows to one
 * account and environment (the CLI's key).
 */
export async function runDueWatches(services: Services, only: { accountId?: string; env?: 'live' | 'sandbox' } = {}, limit = 100): Promise<WatchRunReport[]> {
  const due = await services.store.claimDueWatches(services.clock.now(), limit, only);
  const reports: WatchRunReport[] = [];
  for (const w of due) reports.push(await runWatch(services, w));
  return reports;
}
