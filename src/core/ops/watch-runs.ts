// The run of a due watch, which `stays serve` makes on the watch's interval and `stays watch run`
// makes once (issue 26, item 4; docs/decisions.md "Watches"). A run is the watch's call made as the
// key that created it, billed exactly as the same call made by hand (execute.ts: holds, free
// failures, the cache), within the watch's maxCreditsPerDay; its rules compare the answer with the
// one the run before saw (analytics/watch-rules.ts), and each rule that holds is an event: a row of
// the watch's events and a signed `watch.triggered` webhook event to the account's webhooks of the
// key's environment.
import { type RuleEvent, calendarState, priceState, ruleEvents, searchState } from '../analytics/watch-rules.js';
import { utcToday } from '../clock.js';
import { type RequestContext, type Services, historyFor } from '../context.js';
import { ServiceError } from '../errors.js';
import { execute } from '../execute.js';
import { newRequestId } from '../ids.js';
import { locationKey } from '../observe.js';
import type { Plan } from '../plan.js';
import type { NewWatchEvent, WatchRow, WatchRunRecord } from '../ports/store.js';
import { WATCH_RUNS_PER_ACCOUNT, WATCH_RUN_SLOTS, WATCH_SLACK_MS, type WatchEventView, type WatchState } from '../schemas/watches.js';
import { type CallPlan, callPlan } from './watch-call.js';
import { type Watch, eventView, readWatch } from './watch-rows.js';

/** How long a run waits for its call when it becomes a job; past it the run is `pending` and the job finishes on its own. */
const RUN_WAIT_MS = 60_000;

/** Sandbox triggers (docs/sandbox.md): a watch of listing 100 (any platform), or of a search of `watch`, raises every rule on every run. */
const WATCH_TRIGGER_LISTING = '100';
const WATCH_TRIGGER_LOCATION = 'watch';

/** Whether a sandbox watch is of a trigger (docs/sandbox.md): its rules all hold on every run. */
function isTrigger(w: Watch, cur: WatchState): boolean {
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

/** The call made (or become a job: null) and what the rule engine keeps of its answer. */
async function runCall(services: Services, ctx: RequestContext, cp: CallPlan): Promise<{ state: () => WatchState; charged: number } | null> {
  const made = async <T>(plan: Plan<T>, keep: (data: T) => WatchState) => {
    const r = await execute(services, ctx, plan, { waitMs: RUN_WAIT_MS });
    if (r.kind === 'accepted') return null;
    const data = r.data;
    return { state: () => keep(data), charged: r.meta.creditsCharged };
  };
  if (cp.type === 'price') return made(cp.plan, priceState);
  if (cp.type === 'availability') return made(cp.plan, calendarState);
  // Every listing the legs fetched that matched, not only the page; seen once the answer is in.
  return made(cp.plan, (page) => searchState(cp.whole() ?? page, services.clock.now()));
}

/**
 * The listings the watched place's searches (any key's, any dates) had shown by the run before,
 * which new_listings does not call new (issue 36, item 4), read through the history port; none
 * on a first run (it only sets the baseline) or when no rule asks.
 */
async function knownListings(services: Services, ctx: RequestContext, w: Watch, cp: CallPlan): Promise<ReadonlySet<string>> {
  const location = w.call.params.location;
  if (cp.type !== 'search' || w.state === null || typeof location !== 'string' || !w.rules.some((r) => r.type === 'new_listings')) return new Set();
  const before = ('at' in w.state ? w.state.at : undefined) ?? w.lastRunAt ?? w.createdAt;
  const { listings } = await historyFor(services, ctx).listingsShownIn({ place: locationKey(location), platforms: cp.plan.platforms, from: 0, to: before });
  return new Set(listings.map((l) => `${l.platform}:${l.listingId}`));
}

export interface WatchRunReport {
  watchId: string;
  /** The watch's name and call (as stored) when it was claimed. */
  name: string | null;
  call: WatchRow['call'];
  outcome: WatchRunRecord['outcome'] | 'ended';
  creditsCharged: number;
  error: { code: string; message: string } | null;
  events: WatchEventView[];
  /** Due runs of this watch no run made since its last one (nothing ran the due watches then). */
  missedRuns: number;
}

/**
 * A calendar watch's window as of today (issue 36, item 14): its nights already past are dropped
 * (the start clipped to today, UTC), so a window that started today goes on being watched; 'passed'
 * once no night of it is left (its end date today or before). Other calls as they are.
 */
function clippedWindow(w: Watch, today: string): Watch['call'] | 'passed' {
  const { startDate, endDate } = w.call.params;
  if (w.call.type !== 'availability' || typeof startDate !== 'string' || typeof endDate !== 'string' || startDate >= today) return w.call;
  if (endDate <= today) return 'passed';
  return { ...w.call, params: { ...w.call.params, startDate: today } };
}

/** One run of a claimed watch (its next run already moved on by the claim). */
async function runWatch(services: Services, row: WatchRow): Promise<WatchRunReport> {
  const w = readWatch(row);
  const at = services.clock.now();
  const day = utcToday(services.clock);
  const spent = w.creditsDay === day ? w.creditsToday : 0;
  const record = async (run: Omit<WatchRunRecord, 'at' | 'creditsDay' | 'creditsToday'> & { creditsToday?: number }, events: NewWatchEvent[] = []) => {
    await services.store.finishWatchRun(w.id, { ...run, at, creditsDay: day, creditsToday: run.creditsToday ?? spent }, events);
    return {
      watchId: w.id,
      name: row.name,
      call: row.call,
      outcome: run.endedReason ? ('ended' as const) : run.outcome,
      creditsCharged: run.charged,
      error: run.error,
      events: events.map((e) => eventView({ ...e, watchId: w.id, occurredAt: at })),
      missedRuns: missedRuns(row, at),
    };
  };
  const account = await services.store.getAccount(w.accountId);
  const key = (await services.store.listKeys(w.accountId)).find((k) => k.id === w.keyId);
  if (!account || !key || key.revoked) {
    const error = { code: 'key_revoked', message: 'The key that created this watch was revoked: its runs cannot be made as it any more.' };
    return record({ outcome: 'failed', charged: 0, error, endedReason: error.message });
  }
  const ctx: RequestContext = { requestId: newRequestId(services.ids), account, key };
  const window = clippedWindow(w, day);
  if (window === 'passed') {
    const error = { code: 'date_in_past', message: `Its window ended: endDate ${String(w.call.params.endDate)} is not after today (${day} UTC).` };
    return record({ outcome: 'failed', charged: 0, error, endedReason: error.message });
  }
  let cp: CallPlan;
  try {
    cp = callPlan(services, ctx, window);
  } catch (e) {
    // The call is no longer valid as it stands (its dates passed): it never will be again.
    const error = e instanceof ServiceError ? { code: e.code, message: e.message } : { code: 'internal_error', message: 'The call of this watch could not be made.' };
    return record({ outcome: 'failed', charged: 0, error, endedReason: `Its call is no longer valid: ${error.message}` });
  }
  const worstCase = cp.plan.worstCase;
  if (w.env === 'live' && w.maxCreditsPerDay !== null && spent + worstCase > w.maxCreditsPerDay) {
    const error = { code: 'max_credits_per_day', message: `This run may cost up to ${worstCase} credits; the watch spent ${spent} of its ${w.maxCreditsPerDay} today (UTC).` };
    return record({ outcome: 'skipped', charged: 0, error });
  }
  let made: Awaited<ReturnType<typeof runCall>>;
  try {
    made = await runCall(services, ctx, cp);
  } catch (e) {
    const error = e instanceof ServiceError ? { code: e.code, message: e.message } : { code: 'internal_error', message: 'The run failed.' };
    return record({ outcome: 'failed', charged: 0, error });
  }
  // The job runs on and is billed when it ends; the day counts its worst case meanwhile.
  if (made === null) return record({ outcome: 'pending', charged: 0, error: null, creditsToday: spent + worstCase });
  const cur = made.state();
  const trigger = isTrigger(w, cur);
  const known = trigger ? undefined : await knownListings(services, ctx, w, cp);
  const events = ruleEvents(w.rules, w.state, cur, { trigger, ...(known ? { known } : {}) }).map((e: RuleEvent): NewWatchEvent => ({ id: `wev_${services.ids.ulid().toLowerCase()}`, ...e }));
  const report = await record({ outcome: 'ok', charged: made.charged, error: null, state: cur, creditsToday: spent + made.charged }, events);
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

/** The nominal run (0 for the one at its creation) a run at `at` serves: created at + k × interval, from WATCH_SLACK_MS before it. */
const nominal = (w: WatchRow, at: number) => Math.floor((at + WATCH_SLACK_MS - w.createdAt) / (w.intervalMinutes * 60_000));

/** Due runs no run made since this watch's last one (nothing ran the due watches then): not made up, said. */
function missedRuns(w: WatchRow, at: number): number {
  return Math.max(0, nominal(w, at) - (w.lastRunAt === null ? -1 : nominal(w, w.lastRunAt)) - 1);
}

export interface WatchPool {
  /** Claims due watches for the free slots and starts their runs (each run ended claims again). */
  fill(): Promise<void>;
  /** Resolves when no run is in flight and the last claim found nothing due. */
  idle(): Promise<void>;
  /** Claims no more; resolves when the runs in flight have ended. */
  stop(): Promise<void>;
  readonly active: number;
}

/**
 * Due watches run concurrently, fairly across accounts (issue 35, item 4): at most `slots` runs at
 * once and `perAccount` of one account; each claim takes at most one watch of each account not at
 * its bound, so every account's first due run starts before anyone's next. A run ended frees its
 * slot and claims again at once. It never waits on a timer: `stays serve` calls fill() on its tick.
 */
export function watchPool(
  services: Services,
  o: { only?: { accountId?: string; env?: 'live' | 'sandbox' }; slots?: number; perAccount?: number; onRun?(r: WatchRunReport, order: number): void; onError?(e: unknown): void } = {},
): WatchPool {
  const slots = o.slots ?? WATCH_RUN_SLOTS;
  const perAccount = o.perAccount ?? WATCH_RUNS_PER_ACCOUNT;
  const running = new Map<string, number>();
  let active = 0;
  let claimed = 0;
  let stopped = false;
  let filling: Promise<void> = Promise.resolve();
  let waiters: (() => void)[] = [];
  const settle = () => {
    if (active > 0) return;
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };
  const start = (row: WatchRow) => {
    const order = claimed++;
    active++;
    running.set(row.accountId, (running.get(row.accountId) ?? 0) + 1);
    void runWatch(services, row)
      .then(
        (r) => o.onRun?.(r, order),
        (e: unknown) => o.onError?.(e),
      )
      .finally(() => {
        active--;
        running.set(row.accountId, running.get(row.accountId)! - 1);
        if (!stopped) void fill();
        void filling.then(settle);
      });
  };
  const fillOnce = async () => {
    while (!stopped && active < slots) {
      const full = [...running].filter(([, n]) => n >= perAccount).map(([a]) => a);
      const rows = await services.store.claimDueWatches(services.clock.now(), slots - active, { ...o.only, slackMs: WATCH_SLACK_MS, perAccount: 1, skipAccounts: full });
      if (rows.length === 0) break;
      for (const row of rows) start(row);
    }
  };
  const fill = (): Promise<void> => {
    filling = filling.then(fillOnce).catch((e: unknown) => o.onError?.(e));
    return filling;
  };
  return {
    fill,
    async idle() {
      await filling;
      if (active === 0) return;
      await new Promise<void>((r) => waiters.push(r));
      return this.idle();
    },
    async stop() {
      stopped = true;
      await filling;
      if (active > 0) await new Promise<void>((r) => waiters.push(r));
    },
    get active() {
      return active;
    },
  };
}

/**
 * Runs the watches due now, each once (claimed first, so another process running them at the same
 * time takes others), concurrently within watchPool's bounds, until none is due: `stays watch
 * run` (POST /v1/watches/run) and tests. `only` narrows to one account and environment (the
 * CLI's key). The reports are in the order the runs were claimed.
 */
export async function runDueWatches(services: Services, only: { accountId?: string; env?: 'live' | 'sandbox' } = {}): Promise<WatchRunReport[]> {
  const reports: [number, WatchRunReport][] = [];
  let failure: unknown = null;
  const pool = watchPool(services, { only, onRun: (r, order) => reports.push([order, r]), onError: (e) => (failure ??= e) });
  await pool.fill();
  await pool.idle();
  if (failure !== null) throw failure;
  return reports.sort((a, b) => a[0] - b[0]).map(([, r]) => r);
}
