// Runs a Plan. Sandbox keys: at once, from the sandbox world, free (D6). Live keys: when every
// leg is cached (D17), answer from the cache and charge its known cost in one transaction with its
// ledger row, admitted as a hold of the worst case would be (D5); else hold the worst case and
// start a job that fetches the missing legs (sharing identical in-flight calls, D19), settles the
// actual charge in one transaction with its ledger row, and records the result (D18).
import { requireLiveUnlocked } from './auth.js';
import { type RequestContext, type Services, isSandbox } from './context.js';
import { ServiceError, isErrorCode } from './errors.js';
import { type JobFacts, emitJob, emitJobFailed, emitStayCached } from './events.js';
import { newJobId } from './ids.js';
import { JOB_RETENTION_MS, leaseFor, newJob } from './lease.js';
import type { JobOutcome } from './ports/runtime.js';
import { buildMeta } from './meta.js';
import { refuseWithoutUpstream } from './no-upstream.js';
import { pollUrl } from './poll-url.js';
import type { Composed, Leg, LegOutcome, Plan } from './plan.js';
import { isEnabled } from './platforms.js';
import type { Meta } from './schemas/resources.js';
import type { Upstream } from './upstream.js';
import type { CacheHit, CreditsRow, SharedState } from './ports/store.js';
import { SANDBOX_PENDING_MS, isAdmissionTrigger, sandboxPendingDelay } from './sandbox-triggers.js';

export type ExecResult<T> =
  | {
      kind: 'sync';
      data: T;
      meta: Meta;
      /**
       * Set when `meta` is this frozen object with only this request's requestId in place of its
       * empty one, and `data` is frozen too (a memoised sandbox page): the same template for every
       * request of that page, so its JSON can be kept (src/http/render.ts).
       */
      metaTemplate?: Meta;
    }
  | {
      kind: 'accepted';
      body: { data: { jobId: string; status: 'pending'; pollUrl: string; estimatedSeconds: number }; meta: { requestId: string; creditsCharged: 0; platforms: string[] } };
      retryAfter: number;
    };

async function outcome(p: Promise<unknown>, cached: boolean, source?: () => string | undefined): Promise<LegOutcome> {
  try {
    const value = await p;
    const s = source?.();
    return s === undefined ? { ok: true, value, cached } : { ok: true, value, cached, source: s };
  } catch (e) {
    if (e instanceof ServiceError) return { ok: false, error: e };
    throw e;
  }
}

/** Names on each platform's result the sources that served its fetched legs (operators see which actor answered). */
function withSources<T>(plan: Plan<T>, outcomes: readonly LegOutcome[], c: Composed<T>): Composed<T> {
  const by = new Map<string, Set<string>>();
  plan.legs.forEach((l, i) => {
    const o = outcomes[i];
    if (o?.ok && o.source) by.set(l.platform, (by.get(l.platform) ?? new Set()).add(o.source));
  });
  if (by.size === 0) return c;
  const platformResults = c.platformResults.map((r) => {
    const s = r.status === 'ok' && r.source === undefined ? by.get(r.platform) : undefined;
    return s ? { ...r, source: [...s].join(',') } : r;
  });
  return { ...c, platformResults };
}

function finish<T>(services: Services, ctx: RequestContext, plan: Plan<T>, c: Composed<T>, opts: { cached: boolean; sandbox: boolean; simulated: boolean }): { data: T; meta: Meta } {
  const warnings = [...c.warnings];
  if (opts.simulated) {
    warnings.push({ code: 'simulated_upstream', message: 'This data comes from the simulated upstream (STAYS_UPSTREAM=simulated), not from a booking platform.' });
  }
  const platformResults = opts.sandbox ? c.platformResults.map((r) => ({ ...r, creditsCharged: 0 })) : c.platformResults;
  return {
    data: c.data,
    meta: buildMeta(services, ctx, {
      platforms: plan.platforms,
      currency: plan.currency,
      platformResults,
      warnings,
      cached: opts.cached,
      pagination: c.pagination ?? null,
      truncated: c.truncated,
    }),
  };
}

/** D5: a call never charges more than it held; a plan that would is a bug, and charges nothing. */
function chargeOf(meta: Meta, worstCase: number): number {
  if (meta.creditsCharged > worstCase) {
    throw new ServiceError('internal_error', `Computed charge ${meta.creditsCharged} exceeds the hold of ${worstCase}; nothing was charged.`);
  }
  return meta.creditsCharged;
}

/**
 * A call that asks only what this server's upstream cannot do at all (booking calendars on the
 * scraping platform: no actor returns them) is refused before any hold or source run: free, not
 * retryable (nothing changes on a retry), and saying why. D12: an unsupported platform is
 * platform_not_enabled.
 */
function refuseUnsupported<T>(plan: Plan<T>, upstream: Upstream): void {
  if (!upstream.unsupported || plan.legs.length === 0) return;
  const reasons = plan.legs.map((l) => (l.need && isEnabled(l.platform) ? upstream.unsupported!(l.platform, l.need) : null));
  if (reasons.every((r) => r !== null)) throw new ServiceError('platform_not_enabled', reasons[0]!, { param: 'platform' });
}

/**
 * Makes a plan and waits for its end however long its job runs (the service's own callers: a
 * collection's pass, its discovery's searches): the answer, or the call's error. Waits `waitMs` at
 * a time; a job no longer running in this process (it is stopping) is read from the store until
 * the store has its end.
 */
export async function executeToEnd<T>(services: Services, ctx: RequestContext, plan: Plan<T>, opts: { waitMs: number; memoKey?: string }): Promise<{ data: T; meta: Meta }> {
  const r = await execute(services, ctx, plan, opts);
  if (r.kind === 'sync') return { data: r.data, meta: r.meta };
  const jobId = r.body.data.jobId;
  for (;;) {
    const done = await services.jobs.wait(jobId, opts.waitMs);
    if (done?.ok) return { data: done.data as T, meta: done.meta as Meta };
    if (done) throw done.error;
    const row = await services.store.getJob(jobId);
    if (row?.status === 'completed') return { data: row.result as T, meta: row.meta as Meta };
    if (row?.status === 'failed') throw new ServiceError('upstream_degraded', 'The call failed; nothing was charged.');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function execute<T>(services: Services, ctx: RequestContext, plan: Plan<T>, opts: { waitMs?: number; memoKey?: string } = {}): Promise<ExecResult<T>> {
  if (isSandbox(ctx)) return runSandbox(services, ctx, plan, opts.memoKey);
  requireLiveUnlocked(ctx);
  const upstream = services.upstream;
  if (upstream === null) return refuseWithoutUpstream(services, ctx, plan.worstCase);
  refuseUnsupported(plan, upstream);

  // Taken first whichever path the call takes, so ids run in the same order as before.
  const jobId = newJobId(services.ids);
  const holdId = `hold_${services.ids.ulid()}`;
  const freeTierBudget = ctx.account.planCode === 'free' ? ctx.account.freeTierBudget : null;
  const refuse = (r: { reason: 'balance' | 'free_tier'; credits: CreditsRow }): ServiceError => {
    const c = r.credits;
    if (r.reason === 'free_tier') {
      return new ServiceError(
        'free_tier_budget_exhausted',
        `This call may cost up to ${plan.worstCase} credits, which would take the free-tier spend (${c.spent} spent, ${c.held} held, of ${ctx.account.freeTierBudget}) past its budget.`,
      );
    }
    const available = c.balance - c.held;
    return new ServiceError('credit_balance_too_low', `This call may cost up to ${plan.worstCase} credits; ${available} ${available === 1 ? 'is' : 'are'} available.`);
  };

  // Every leg cached: the cost is known before any work, so the call is admitted as a hold of its
  // worst case would be and charged in one store transaction, with no hold to settle (issue 23).
  const hits: (CacheHit | null)[] = await Promise.all(plan.legs.map((l) => services.store.cacheGet(cacheKey(services, ctx, l), services.clock.now())));
  if (hits.every((h) => h !== null)) {
    const c = plan.compose(hits.map((h) => ({ ok: true, value: h!.value, cached: true })));
    const r = finish(services, ctx, plan, c, { cached: true, sandbox: false, simulated: upstream.simulated });
    const charged = await services.store.charge({
      accountId: ctx.account.id,
      admit: plan.worstCase,
      charge: chargeOf(r.meta, plan.worstCase),
      requestId: ctx.requestId,
      at: services.clock.now(),
      freeTierBudget,
    });
    if (!charged.ok) throw refuse(charged);
    return { kind: 'sync', ...r };
  }

  const held = await services.store.hold({
    id: holdId,
    accountId: ctx.account.id,
    amount: plan.worstCase,
    requestId: ctx.requestId,
    jobId,
    at: services.clock.now(),
    freeTierBudget,
    lease: leaseFor(services),
  });
  if (!held.ok) throw refuse(held);

  // From here on this call settles or releases the hold on every path; while it does, the
  // heartbeat renews the hold's lease (and only then: see release()).
  services.jobs.holds.add(holdId);
  const now = services.clock.now();
  let estimatedSeconds: number;
  let job: JobFacts;
  try {
    estimatedSeconds = Math.max(1, ...plan.legs.map((l) => (isEnabled(l.platform) ? upstream.estimateSeconds(l.platform) : 1)));
    const made = newJob(services, ctx, { id: jobId, operation: plan.operation, platforms: plan.platforms, estimatedSeconds, now });
    await services.store.createJob(made.row);
    job = made.facts;
  } catch (e) {
    await release(services, holdId, ctx.requestId);
    throw e;
  }
  emitJob(services, 'job.queued', job);
  const running = services.jobs.run(jobId, holdId, () => runJob(services, ctx, plan, upstream, { job, holdId, hits: hits.map((h) => h?.value) }));
  running.catch(() => undefined);

  if (opts.waitMs && opts.waitMs > 0) {
    const done = await services.jobs.wait(jobId, opts.waitMs);
    if (done?.ok) return { kind: 'sync', data: done.data as T, meta: { ...done.meta, requestId: ctx.requestId } };
    if (done) throw done.error;
  }
  return {
    kind: 'accepted',
    body: { data: { jobId, status: 'pending', pollUrl: pollUrl(jobId), estimatedSeconds }, meta: { requestId: ctx.requestId, creditsCharged: 0, platforms: plan.platforms } },
    retryAfter: Math.min(5, estimatedSeconds),
  };
}

/**
 * Gives a hold back, charging nothing, when its call ends without a charge. If the store cannot
 * do it now (the database is away), nobody renews the hold's lease any more, so it expires and
 * the next sweep, on any instance, releases it.
 */
async function release(services: Services, holdId: string, requestId: string): Promise<void> {
  if (!services.jobs.holds.delete(holdId)) return;
  await services.store.settleHold(holdId, 0, { requestId, jobId: null, at: services.clock.now() }).catch(() => undefined);
}

async function sandboxCompose<T>(services: Services, plan: Plan<T>): Promise<Composed<T>> {
  const name = services.sandboxUpstream.name;
  const outcomes = await Promise.all(plan.legs.map((l) => outcome(l.fetch(services.sandboxUpstream), false, () => name)));
  // A leg's admission trigger (listing 402, 429: issue 22) refuses the whole call, as admission
  // refuses a live one before any platform is asked.
  for (const o of outcomes) if (!o.ok && isAdmissionTrigger(o.error)) throw o.error;
  return withSources(plan, outcomes, plan.compose(outcomes));
}

async function runSandbox<T>(services: Services, ctx: RequestContext, plan: Plan<T>, memoKey: string | undefined): Promise<ExecResult<T>> {
  if (plan.legs.some((l) => l.sandboxPending)) return pendingSandboxJob(services, ctx, plan);
  // Sandbox answers are a pure function of the request (D21): composed pages are memoised.
  if (memoKey === undefined) return { kind: 'sync', ...finish(services, ctx, plan, await sandboxCompose(services, plan), { cached: false, sandbox: true, simulated: false }) };
  let c = services.sandboxPages.get(memoKey) as Composed<T> | undefined;
  if (!c) {
    c = await sandboxCompose(services, plan);
    services.sandboxPages.set(memoKey, c);
  }
  // A sandbox page's meta is the same for every request but for its id: built once per page.
  let template = sandboxMeta.get(c);
  if (template === undefined) {
    template = Object.freeze(finish(services, { ...ctx, requestId: '' }, plan, c, { cached: false, sandbox: true, simulated: false }).meta);
    sandboxMeta.set(c, template);
  }
  return { kind: 'sync', data: c.data, meta: { ...template, requestId: ctx.requestId }, ...(Object.isFrozen(c.data) ? { metaTemplate: template } : {}) };
}

/**
 * The meta of each memoised sandbox page (with an empty requestId), by page. finish() is a pure
 * function of the page for a sandbox key: the page's memo key holds the query and its platforms
 * and currency, and the rest is the sandbox's constants and this runtime's docs URL.
 */
const sandboxMeta = new WeakMap<object, Meta>();

/**
 * Search location `pending` (issue 22): a sandbox job, free, that runs SANDBOX_PENDING_MS and then
 * completes with the sandbox's answer, so clients can test waiting on a job and timing out. It
 * goes through the store as a live job does (a hold of 0 credits) and can be canceled.
 */
async function pendingSandboxJob<T>(services: Services, ctx: RequestContext, plan: Plan<T>): Promise<ExecResult<T>> {
  const { store, clock } = services;
  const jobId = newJobId(services.ids);
  const holdId = `hold_${services.ids.ulid()}`;
  const now = clock.now();
  const estimatedSeconds = SANDBOX_PENDING_MS / 1000;
  await store.hold({ id: holdId, accountId: ctx.account.id, amount: 0, requestId: ctx.requestId, jobId, at: now, freeTierBudget: null, lease: leaseFor(services) });
  const { row, facts: job } = newJob(services, ctx, { id: jobId, operation: plan.operation, platforms: plan.platforms, estimatedSeconds, now });
  await store.createJob(row);
  emitJob(services, 'job.queued', job);
  const owner = services.jobs.owner;
  const running = services.jobs.run(jobId, holdId, async (): Promise<JobOutcome> => {
    if (!(await store.startJob(jobId, owner, clock.now()))) return lost(services, jobId);
    emitJob(services, 'job.running', job);
    // A stopping server does not wait for it: the job is left to the shutdown, which fails it (free).
    if ((await services.jobs.unlessStopping(sandboxPendingDelay())) === null) {
      return { ok: false, error: new ServiceError('upstream_degraded', 'The server stopped before this sandbox job finished; nothing was charged.', { retryAfter: 1 }) };
    }
    const r = finish(services, ctx, plan, await sandboxCompose(services, plan), { cached: false, sandbox: true, simulated: false });
    const at = clock.now();
    if (!(await store.finishJob({ jobId, owner, holdId, charge: 0, requestId: ctx.requestId, status: 'completed', result: r.data, meta: r.meta, at, expiresAt: at + JOB_RETENTION_MS })))
      return lost(services, jobId);
    emitJob(services, 'job.succeeded', job);
    return { ok: true, data: r.data, meta: r.meta };
  });
  running.catch(() => undefined);
  return {
    kind: 'accepted',
    body: { data: { jobId, status: 'pending', pollUrl: pollUrl(jobId), estimatedSeconds }, meta: { requestId: ctx.requestId, creditsCharged: 0, platforms: plan.platforms } },
    retryAfter: 5,
  };
}

/** A leg's answer as the upstream gave it: when, from which sources, and whether it may be cached. */
type Fetched = { value: unknown; at: number; source: string; cacheable: boolean };

/**
 * Asks the upstream for a leg (or joins the same question in flight, D19). `fetched` collects the
 * answers, which the caller keeps (caches and records) once a call was charged for them.
 */
function fetchLeg(services: Services, upstream: Upstream, leg: Leg, fetched: { leg: Leg; p: Promise<Fetched> }[]): Promise<LegOutcome> {
  let p = services.jobs.inflight.get(leg.key) as Promise<Fetched> | undefined;
  if (!p) {
    const shared = services.store.shared;
    p = (shared ? fetchShared(services, shared, upstream, leg) : fetchOwn(services, upstream, leg)).finally(() => services.jobs.inflight.delete(leg.key));
    services.jobs.inflight.set(leg.key, p);
  }
  fetched.push({ leg, p });
  let source: string | undefined;
  return outcome(
    p.then((f) => ((source = f.source), f.value)),
    false,
    () => source,
  );
}

/**
 * The answers this process already kept, each once per account however many of its calls shared
 * it: an account's history and (in account scope) its cache are its own (issue 35, item 5).
 */
const keptAnswers = new WeakMap<Fetched, Set<string>>();

/**
 * Where a leg's answer is cached: per account when the history is kept per account (the default,
 * STAYS_HISTORY_SCOPE=account), so a cached answer (and its cached tier) never tells one account
 * what another asked; deployment-wide when observations are pooled.
 */
const cacheKey = (services: Services, ctx: RequestContext, leg: Leg) => (services.config.historyScope === 'account' ? `${ctx.account.id}|${leg.key}` : leg.key);

/**
 * Keeps a fetched answer once a call completed and was charged for it (issue 35, item 1): writes
 * it to the cache and records what it observed. An answer no call paid for (its job canceled, or
 * taken from this process) is neither, so no later call reads it free or at the cached tier.
 * The accounts of the calls it answered hear that their stay was refreshed.
 */
async function keep(services: Services, ctx: RequestContext, leg: Leg, f: Fetched): Promise<void> {
  let expiresAt = f.at;
  if (f.cacheable) {
    expiresAt = f.at + leg.ttlMs;
    const accounts = keptAnswers.get(f) ?? new Set<string>();
    keptAnswers.set(f, accounts);
    if (!accounts.has(ctx.account.id)) {
      accounts.add(ctx.account.id);
      // A cache that cannot be written only costs a later refetch, an observation that cannot be
      // recorded only a gap in the history: the call stands.
      const [cached] = await Promise.all([
        services.store.cacheSet(cacheKey(services, ctx, leg), f.value, f.at, f.at + leg.ttlMs).then(
          () => true,
          () => false,
        ),
        record(services, leg, f.value, f.source, f.at, ctx.account.id),
      ]);
      if (!cached) expiresAt = f.at;
    }
  }
  // Every account whose live lookup this refresh answered hears of it (a shared call included).
  if (leg.stay) emitStayCached(services, { accountId: ctx.account.id, env: ctx.key.env }, leg.stay, expiresAt);
}

/**
 * Records what a fetched answer tells (issue 26), unless STAYS_HISTORY=off; never fails the call.
 * Queued: the store writes it later, a second's answers in one transaction, off the answer's path
 * (the budget is 5 % of a live search's server time; docs/benchmarks.md, "Issue 26: history").
 */
async function record(services: Services, leg: Leg, value: unknown, source: string, at: number, account: string): Promise<void> {
  if (!leg.observe || services.config.history === 'off') return;
  try {
    services.store.queueObservations(leg.observe(value), source, at, account);
  } catch {
    // The answer stands; the history misses it.
  }
}

/** This process asks the upstream; its answer is kept (cached, recorded) once a call is charged for it. */
function fetchOwn(services: Services, upstream: Upstream, leg: Leg): Promise<Fetched> {
  // The sources that answered this leg's calls, as the upstream reports them (a chain names the actor).
  const served = new Set<string>();
  const u = upstream.observe ? upstream.observe((r) => r.ok && served.add(r.source)) : upstream;
  return leg.fetch(u).then((value): Fetched => ({ value, at: services.clock.now(), source: served.size > 0 ? [...served].join(',') : upstream.name, cacheable: leg.cacheable?.(value) !== false }));
}

/**
 * D19 across instances on a shared store: the first instance to claim the question's flight asks
 * the upstream and records the outcome; the others wait on that flight (polling the store, at most
 * the source deadline plus a lease) and share its answer or its failure. A flight whose owner died
 * (its lease expired) is taken over.
 */
async function fetchShared(services: Services, shared: SharedState, upstream: Upstream, leg: Leg): Promise<Fetched> {
  const id = `flt_${services.ids.ulid()}`;
  for (let attempt = 0; attempt < 3; attempt++) {
    const now = services.clock.now();
    const claim = await admitted(services, () => shared.claimFlight(leg.key, id, services.jobs.owner, now + services.config.jobLeaseMs, now));
    if (claim.leader) {
      // Renewed while this process leads it; a flight whose end cannot be recorded expires, and
      // whoever waits on it takes it over.
      services.jobs.flights.add(id);
      try {
        const f = await fetchOwn(services, upstream, leg);
        await admitted(services, () => shared.endFlight(leg.key, id, { value: f }, services.clock.now())).catch(() => undefined);
        return f;
      } catch (e) {
        const error = e instanceof ServiceError ? { code: e.code, message: e.message } : { code: 'upstream_degraded', message: 'The upstream call failed.' };
        await admitted(services, () => shared.endFlight(leg.key, id, { error }, services.clock.now())).catch(() => undefined);
        throw e;
      } finally {
        services.jobs.flights.delete(id);
      }
    }
    const ended = await awaitFlight(services, shared, leg.key, claim.id);
    if (ended.state === 'done') return ended.value as Fetched;
    if (ended.state === 'failed') {
      const e = (ended.error ?? {}) as { code?: string; message?: string };
      throw new ServiceError(typeof e.code === 'string' && isErrorCode(e.code) ? e.code : 'upstream_degraded', e.message ?? 'The upstream call failed.');
    }
    // Gone: its owner stopped renewing it. Claim it (the next turn of the loop).
  }
  return fetchOwn(services, upstream, leg);
}

async function awaitFlight(services: Services, shared: SharedState, key: string, id: string) {
  const deadline = performance.now() + services.config.sourceDeadlineMs + services.config.jobLeaseMs;
  for (let pause = 20; ; pause = Math.min(250, pause * 1.5)) {
    const s = await admitted(services, () => shared.readFlight(key, id, services.clock.now()));
    if (s.state !== 'running' || performance.now() > deadline) return s.state === 'running' ? ({ state: 'gone' } as const) : s;
    await new Promise((r) => setTimeout(r, pause));
  }
}

/**
 * The job was taken from this process (its lease expired and another process failed it): its
 * outcome is whatever the store recorded, and nothing more is charged here.
 */
async function lost(services: Services, jobId: string): Promise<JobOutcome> {
  const row = await services.store.getJob(jobId);
  // Our own end was written after all (an earlier attempt committed, its answer lost on the way back).
  if (row?.status === 'completed') return { ok: true, data: row.result, meta: row.meta as Meta };
  const recorded = (row?.error ?? {}) as { code?: string; message?: string };
  const code = typeof recorded.code === 'string' && isErrorCode(recorded.code) ? recorded.code : 'upstream_degraded';
  return { ok: false, error: new ServiceError(code, recorded.message ?? 'This job was stopped before it finished; nothing was charged. Retry the request.') };
}

/** How long admitted work waits for a database connection at least (its lease, if longer). */
const ADMITTED_WAIT_MS = 60_000;

/**
 * A store call of admitted work (a job holding its credits): a wait for a database connection that
 * timed out ran nothing, so it is asked again, for up to a minute (or its lease, if longer), rather
 * than failing work the account already waits on; the job's lease is renewed meanwhile. Only new
 * requests are refused at once (503 service_overloaded).
 */
async function admitted<T>(services: Services, f: () => Promise<T>): Promise<T> {
  const until = performance.now() + Math.max(ADMITTED_WAIT_MS, services.config.jobLeaseMs);
  for (let pause = 50; ; pause = Math.min(1000, pause * 2)) {
    try {
      return await f();
    } catch (e) {
      if (!(e instanceof ServiceError && e.code === 'service_overloaded') || performance.now() + pause > until) throw e;
    }
    await new Promise((r) => setTimeout(r, pause * (0.5 + Math.random() / 2)));
  }
}

async function runJob<T>(services: Services, ctx: RequestContext, plan: Plan<T>, upstream: Upstream, j: { job: JobFacts; holdId: string; hits: unknown[] }): Promise<JobOutcome> {
  const { store, clock } = services;
  const owner = services.jobs.owner;
  const jobId = j.job.id;
  const end = (e: { status: 'completed' | 'failed'; charge: number; result?: unknown; meta?: unknown; error?: unknown }) =>
    store.finishJob({ ...e, jobId, owner, holdId: j.holdId, requestId: ctx.requestId, at: clock.now(), expiresAt: clock.now() + JOB_RETENTION_MS });
  const fail = async (error: ServiceError): Promise<JobOutcome> => {
    const shown = { type: error.type, code: error.code, message: error.message, retryable: error.retryable };
    const ended = await end({ status: 'failed', charge: 0, error: shown });
    if (!ended) return lost(services, jobId);
    emitJobFailed(services, j.job, shown);
    return { ok: false, error };
  };
  try {
    if (!(await admitted(services, () => store.startJob(jobId, owner, clock.now())))) return lost(services, jobId);
    emitJob(services, 'job.running', j.job);
    const fetched: { leg: Leg; p: Promise<Fetched> }[] = [];
    const outcomes = await Promise.all(
      plan.legs.map((l, i) => (j.hits[i] !== undefined ? Promise.resolve<LegOutcome>({ ok: true, value: j.hits[i], cached: true }) : fetchLeg(services, upstream, l, fetched))),
    );
    const c = withSources(plan, outcomes, plan.compose(outcomes));
    // D18 amended: a completed search or reviews job carries the pagination its synchronous call
    // would, so a client pages on (--all) without paying for the same call again.
    const r = finish(services, ctx, plan, c, { cached: false, sandbox: false, simulated: upstream.simulated });
    const ended = await end({ status: 'completed', charge: chargeOf(r.meta, plan.worstCase), result: r.data, meta: r.meta });
    if (!ended) return lost(services, jobId);
    // Charged: its answers are kept (a canceled job's never are).
    for (const { leg, p } of fetched) {
      const f = await p.catch(() => null);
      if (f) await keep(services, ctx, leg, f);
    }
    emitJob(services, 'job.succeeded', j.job);
    return { ok: true, data: r.data, meta: r.meta };
  } catch (e) {
    if (e instanceof ServiceError) return fail(e);
    return fail(new ServiceError('internal_error', `The job failed unexpectedly; nothing was charged. Quote ${jobId} to support.`, { cause: e }));
  }
}
