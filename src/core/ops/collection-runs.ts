// A collection's passes, run (issue 38, items 3-5; docs/decisions.md "Collection runs"). A pass
// starts every cadence from the collection's creation: its first item discovers the area (the
// searches past the caps, discovery.ts), which then plans the pass's tracking items from the
// listings found (pass-plan.ts: within the budget, spread over the interval); each tracking item
// fetches a listing's calendar over the horizon and, unless rates are none, one sampled stay's
// quote. Every call is made as the key that created the collection, through the executor the
// routes use, so it is billed exactly as the same call by hand and recorded as observations.
//
// - Items live in the store and are claimed under a lease by whichever instance (or `stays collect
//   run`) asks; a killed instance's items are claimed again once their lease runs out.
// - Budget first: before each call the collection reserves its worst case from the UTC day's
//   budget (maxCreditsPerDay), in the store, so instances sharing the work never spend past it
//   together; what a call did not spend is given back. An item the day cannot cover waits for the
//   next UTC day.
// - Billed once: a tracking item's calls carry request ids derived from the item, so an item
//   claimed again after its instance died finds in the ledger the calls already charged and does
//   not make them again.
// - A pass not finished when the next starts is superseded: its open items end uncharged.
import { createHash } from 'node:crypto';
import { DAY_MS, utcToday } from '../clock.js';
import type { RequestContext, Services } from '../context.js';
import { ServiceError } from '../errors.js';
import { executeToEnd } from '../execute.js';
import { distanceMeters } from '../analytics/geometry.js';
import { type DiscoveryPage, type DiscoveryPages, type Spend, billedCellSearch, billedPage, pageOf } from './discovery-search.js';
import type { Meta, Property } from '../schemas/resources.js';
import { availabilityPlan } from './availability.js';
import { pricePlan } from './price.js';
import type { Plan } from '../plan.js';
import type { EnabledPlatform } from '../platforms.js';
import type { CollectionItemRow, CollectionRow } from '../ports/store.js';
import type { BBox } from '../upstream.js';
import { type DiscoveryRow, circleBox, discover } from '../collections/discovery.js';
import { CADENCE_MS, type Member, planPass } from '../collections/pass-plan.js';

/** Items one instance runs at once: its share of the upstream's concurrency. */
const COLLECTION_SLOTS = 4;
/** A paused collection's items are looked at again this much later. */
const PAUSED_RECHECK_MS = 600_000;
/** How long a call waits for its job before waiting again. */
const CALL_WAIT_MS = 30_000;

export type ItemOutcome = 'done' | 'partial' | 'failed' | 'deferred' | 'paused' | 'superseded' | 'ended' | 'lost';

export interface CollectionItemReport {
  collectionId: string;
  pass: number;
  item: string;
  outcome: ItemOutcome;
  charged: number;
  /** Why it failed, or was deferred (the day's budget) or partial. */
  reason: string | null;
  /** A discovery's findings. */
  found?: number;
}

/** The pass a collection is in at `now`: pass k starts at its creation plus k intervals. */
function passAt(c: Pick<CollectionRow, 'createdAt' | 'cadence'>, now: number): number {
  return Math.max(0, Math.floor((now - c.createdAt) / CADENCE_MS[c.cadence]));
}

const passStart = (c: Pick<CollectionRow, 'createdAt' | 'cadence'>, pass: number) => c.createdAt + pass * CADENCE_MS[c.cadence];

/** The request id of one call of an item: the same on every attempt, so the ledger tells whether it was made. */
function itemRequestId(k: Pick<CollectionItemRow, 'collectionId' | 'pass' | 'item'>, part: string): string {
  const h = createHash('sha256').update(`${k.collectionId}|${k.pass}|${k.item}|${part}`).digest();
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  let out = '';
  for (let i = 0; i < 26; i++) out += alphabet[h[i]! & 31];
  return `req_${out}`;
}

/** Plans the current pass of every active collection whose pass has no items yet: its discovery, due at the pass's start. */
async function planDuePasses(services: Services, only?: readonly string[]): Promise<number> {
  const now = services.clock.now();
  let planned = 0;
  for (const c of await services.store.activeCollections()) {
    if (only !== undefined && !only.includes(c.id)) continue;
    const pass = passAt(c, now);
    planned += await services.store.planCollectionItems(c.id, pass, [{ item: 'discover', dueAt: passStart(c, pass) }]);
  }
  return planned;
}

const nextUtcDay = (now: number) => (Math.floor(now / DAY_MS) + 1) * DAY_MS;

/** Thrown when the day's budget cannot cover the next call. */
class BudgetSpent extends Error {}

/** Thrown when the item's lease ran out (another runner may have it now): nothing more is made for it here. */
class ItemLost extends Error {}

/**
 * Reserves a call's worst case from the collection's budget of the day, makes it, gives back what
 * it did not spend; first renews the item's lease, and makes nothing once it lost it (its lease ran
 * out while this process was slow: another runner may be making the same item).
 */
function budgeted(services: Services, c: CollectionRow, item: CollectionItemRow, owner: string): Spend {
  const day = utcToday(services.clock);
  return async (worstCase, call) => {
    const held = await services.store.renewCollectionItems(owner, [item], services.clock.now() + services.config.jobLeaseMs);
    if (held.length === 0) throw new ItemLost();
    if (worstCase > 0 && !(await services.store.reserveCollectionBudget(c.id, day, worstCase, c.maxCreditsPerDay))) throw new BudgetSpent();
    let charged = 0;
    try {
      const r = await call();
      charged = r.meta.creditsCharged;
      return r;
    } finally {
      await services.store.returnCollectionBudget(c.id, day, worstCase - charged);
    }
  };
}

/** A plan made as the collection's key with the given request id, waited on to its end (a job is waited for). */
const made = <T>(services: Services, ctx: RequestContext, plan: Plan<T>) => executeToEnd(services, ctx, plan, { waitMs: CALL_WAIT_MS });

/** The box a collection's discovery searches. A place: the extent of what one search of it shows, with a margin. */
async function areaBox(
  services: Services,
  ctx: RequestContext,
  c: CollectionRow,
  spend: Spend,
  pages: DiscoveryPages,
): Promise<{ area: { bbox: BBox; keep(p: DiscoveryRow): boolean } | null; charged: number }> {
  const a = c.area;
  if ('bbox' in a) return { area: { bbox: { west: a.bbox[0], south: a.bbox[1], east: a.bbox[2], north: a.bbox[3] }, keep: () => true }, charged: 0 };
  if ('compSet' in a) {
    const cs = await services.store.getCompSet(a.compSet);
    if (!cs) return { area: null, charged: 0 };
    const keep = (p: DiscoveryRow) => p.location.lat !== null && p.location.lng !== null && distanceMeters(cs.anchorLat, cs.anchorLng, p.location.lat, p.location.lng) <= cs.radiusMeters;
    return { area: { bbox: circleBox(cs.anchorLat, cs.anchorLng, cs.radiusMeters), keep }, charged: 0 };
  }
  const page = await billedPage(services, ctx, { location: a.location, platforms: c.platforms.join(','), limit: '50' }, { spend, pages });
  const pts = page.rows.filter((p) => p.location.lat !== null && p.location.lng !== null);
  if (pts.length === 0) return { area: null, charged: page.charged };
  const lats = pts.map((p) => p.location.lat!);
  const lngs = pts.map((p) => p.location.lng!);
  const [s, n, w, e] = [Math.min(...lats), Math.max(...lats), Math.min(...lngs), Math.max(...lngs)];
  const padLat = Math.max(0.01, (n - s) * 0.25);
  const padLng = Math.max(0.01, (e - w) * 0.25);
  return { area: { bbox: { west: w - padLng, south: s - padLat, east: e + padLng, north: n + padLat }, keep: () => true }, charged: page.charged };
}

/**
 * A discovery's pages: each named by the item and its query (the same on every attempt), kept once
 * charged, and read back by an attempt after the first instead of being bought again. Kept until
 * the discovery ends (dropped when its item is finished).
 */
function discoveryPages(services: Services, accountId: string, item: CollectionItemRow): DiscoveryPages {
  const keep = async (requestId: string, { charged, ...page }: DiscoveryPage) => {
    await services.store.keepCollectionPage(item.collectionId, item.pass, requestId, JSON.stringify(page), charged, services.clock.now());
  };
  return {
    id: (query) => itemRequestId(item, `page ${JSON.stringify(query)}`),
    async kept(requestId) {
      if (item.attempts <= 1) return { page: null, chargedBefore: 0 };
      const [k] = await services.store.collectionPages(item.collectionId, [requestId]);
      if (k) return { page: { ...(JSON.parse(k.page) as Omit<DiscoveryPage, 'charged'>), charged: k.charged }, chargedBefore: 0 };
      // Made and charged, but its attempt died before keeping it: the job that charged it holds its answer.
      const job = await services.store.completedJobOf(accountId, requestId);
      if (job?.result != null && job.meta != null) {
        const page = pageOf(job.result as Property[], job.meta as Meta);
        await keep(requestId, page);
        return { page, chargedBefore: 0 };
      }
      const [made] = await services.store.chargedForRequests(accountId, [requestId]);
      return { page: null, chargedBefore: made?.charged ?? 0 };
    },
    keep,
  };
}

/** Discovery of the pass: every listing of the area on each platform, recorded; then the pass's tracking planned. */
async function runDiscovery(services: Services, ctx: RequestContext, c: CollectionRow, item: CollectionItemRow, owner: string): Promise<Omit<CollectionItemReport, 'collectionId' | 'pass' | 'item'>> {
  const spend = budgeted(services, c, item, owner);
  const pages = discoveryPages(services, c.accountId, item);
  // The place's first search (a location's area), charged before the cells'.
  const { area, charged: located } = await areaBox(services, ctx, c, spend, pages);
  if (!area) return { outcome: 'failed', charged: located, reason: 'The area has no listings to start from (an unknown place, or a deleted comp set).' };
  const billed = billedCellSearch(services, ctx, { location: 'location' in c.area ? c.area.location : 'area', spend, pages });
  // Why a platform's discovery stopped (its searches refused, or the day's budget spent): its listings are those found before.
  const stopped = new Map<string, string>();
  const result = await discover({
    bbox: area.bbox,
    platforms: c.platforms as EnabledPlatform[],
    search: async (q) => {
      if (stopped.has(q.platform) || stopped.has('*') || stopped.has('lost')) return { rows: [], truncated: null };
      try {
        return await billed.search(q);
      } catch (e) {
        if (e instanceof ItemLost) stopped.set('lost', 'lost');
        else if (e instanceof BudgetSpent) stopped.set('*', "the day's budget");
        else stopped.set(q.platform, e instanceof ServiceError ? e.code : 'internal_error');
        return { rows: [], truncated: null };
      }
    },
  });
  if (stopped.has('lost')) throw new ItemLost();
  const found = result.listings.filter(area.keep);
  await services.store.recordCollectionListings(
    c.id,
    item.pass,
    found.map((p) => ({ platform: p.platform, listingId: p.platformListingId, bedrooms: p.bedrooms })),
  );
  const charged = located + billed.charged();
  await planTracking(services, c, item.pass, charged);
  if (stopped.size > 0) {
    const why = [...stopped].map(([p, r]) => (p === '*' ? r : `${p}: ${r}`)).join(', ');
    return { outcome: 'partial', charged, reason: `Discovery stopped (${why}); the pass tracks the ${found.length} listings found.`, found: found.length };
  }
  return { outcome: 'done', charged, reason: null, found: found.length };
}

/** The pass's tracking items: the listings its discovery found, sampled within what the budget leaves after the discovery, spread over what is left of the pass. */
async function planTracking(services: Services, c: CollectionRow, pass: number, discovery: number): Promise<void> {
  const listings = await services.store.collectionListings(c.id);
  const members: Member[] = listings.filter((l) => l.lastPass === pass).map((l) => ({ platform: l.platform, listingId: l.listingId, bedrooms: l.bedrooms }));
  const start = passStart(c, pass);
  // Sized within what the budget leaves after the discovery's charge.
  const plan = planPass(members, c, start, discovery);
  // Spread over what is left of the pass (the discovery took some of it), in the plan's order.
  const from = Math.max(services.clock.now(), start);
  const left = Math.max(0, start + plan.intervalMs - from);
  await services.store.planCollectionItems(
    c.id,
    pass,
    plan.fetches.map((f) => ({ item: f.item, dueAt: from + Math.floor(((f.dueAt - start) * left) / plan.intervalMs) })),
  );
}

/** A tracked listing's calls of the pass: its calendar over the horizon and a sampled stay's quote. */
async function runTracking(services: Services, ctx: RequestContext, c: CollectionRow, item: CollectionItemRow, owner: string): Promise<Omit<CollectionItemReport, 'collectionId' | 'pass' | 'item'>> {
  const [, platform, ...rest] = item.item.split(':');
  const listingId = rest.join(':');
  const today = utcToday(services.clock);
  const plusDays = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
  const calls: { part: string; plan: (ctx: RequestContext) => Plan<unknown> }[] = [
    { part: 'calendar', plan: (x) => availabilityPlan(services, x, { platform, listingId, startDate: today, endDate: plusDays(c.horizonNights) }) },
  ];
  if (c.rates !== 'none') {
    // One two-night stay a pass, moving through the horizon a week a pass.
    const span = Math.max(1, c.horizonNights - 2);
    const offset = 1 + ((item.pass * 7) % span);
    calls.push({ part: 'quote', plan: (x) => pricePlan(services, x, { platform, listingId, checkIn: plusDays(offset), checkOut: plusDays(offset + 2) }) });
  }
  const ids = calls.map((x) => itemRequestId(item, x.part));
  // Claimed again (its instance died): the calls already charged are not made again.
  const before = item.attempts > 1 ? new Map((await services.store.chargedForRequests(c.accountId, ids)).map((r) => [r.requestId, r.charged])) : new Map<string, number>();
  const spend = budgeted(services, c, item, owner);
  let charged = 0;
  const failures: string[] = [];
  for (const [i, call] of calls.entries()) {
    const requestId = ids[i]!;
    const earlier = before.get(requestId);
    if (earlier !== undefined) {
      charged += earlier;
      continue;
    }
    const x = { ...ctx, requestId };
    try {
      const plan = call.plan(x);
      const r = await spend(plan.worstCase, () => made(services, x, plan));
      charged += r.meta.creditsCharged;
    } catch (e) {
      if (e instanceof ItemLost) throw e;
      if (e instanceof BudgetSpent) {
        if (charged === 0 && i === 0) return { outcome: 'deferred', charged: 0, reason: "The day's budget is spent." };
        failures.push(`${call.part}: the day's budget is spent`);
        break;
      }
      failures.push(`${call.part}: ${e instanceof ServiceError ? e.code : 'internal_error'}`);
    }
  }
  if (failures.length === calls.length) return { outcome: 'failed', charged, reason: failures.join('; ') };
  return failures.length > 0 ? { outcome: 'partial', charged, reason: failures.join('; ') } : { outcome: 'done', charged, reason: null };
}

/** Runs one claimed item to its end (finished, or given back for later) as the instance `owner`. */
async function runCollectionItem(services: Services, owner: string, item: CollectionItemRow): Promise<CollectionItemReport> {
  const now = services.clock.now();
  const base = { collectionId: item.collectionId, pass: item.pass, item: item.item };
  const finish = async (r: Omit<CollectionItemReport, 'collectionId' | 'pass' | 'item'>): Promise<CollectionItemReport> => {
    const finished = await services.store.finishCollectionItem(item, owner, { at: services.clock.now(), outcome: r.reason ? `${r.outcome}: ${r.reason}` : r.outcome, charged: r.charged });
    // A discovery's pages are kept for an attempt after this one; it ended.
    if (finished && item.item === 'discover') await services.store.dropCollectionPages(item.collectionId, item.pass);
    return { ...base, ...r };
  };
  const later = async (outcome: 'deferred' | 'paused', dueAt: number, reason: string): Promise<CollectionItemReport> => {
    await services.store.releaseCollectionItem(item, owner, dueAt);
    return { ...base, outcome, charged: 0, reason };
  };
  const c = await services.store.getCollection(item.collectionId);
  if (!c) return finish({ outcome: 'ended', charged: 0, reason: 'The collection was deleted.' });
  if (c.status === 'paused') return later('paused', now + PAUSED_RECHECK_MS, 'The collection is paused.');
  if (item.pass < passAt(c, now)) return finish({ outcome: 'superseded', charged: 0, reason: 'A later pass began before this item ran.' });
  const account = await services.store.getAccount(c.accountId);
  const key = c.keyId === null ? undefined : (await services.store.listKeys(c.accountId)).find((k) => k.id === c.keyId);
  if (!account || !key || key.revoked)
    return finish({
      outcome: 'failed',
      charged: 0,
      reason: 'key_revoked: the key that created this collection was revoked (or predates collection runs); create the collection again with a live key.',
    });
  const ctx: RequestContext = { requestId: itemRequestId(item, 'context'), account, key };
  try {
    const r = item.item === 'discover' ? await runDiscovery(services, ctx, c, item, owner) : await runTracking(services, ctx, c, item, owner);
    if (r.outcome === 'deferred') return later('deferred', nextUtcDay(now), r.reason ?? "The day's budget is spent.");
    return finish(r);
  } catch (e) {
    if (e instanceof BudgetSpent) return later('deferred', nextUtcDay(now), "The day's budget is spent.");
    // Its lease ran out: whoever claimed it since makes it (this one's calls already charged are in the ledger under its ids).
    if (e instanceof ItemLost) return { ...base, outcome: 'lost', charged: 0, reason: 'Its lease ran out while it ran; another runner makes it.' };
    throw e;
  }
}

/**
 * Runs due items until none is left or `stop()`: claims them `slots` at a time under a lease it
 * renews while they run. Resolves with every item's report.
 */
export async function runDueItems(
  services: Services,
  opts: {
    owner: string;
    slots?: number;
    /** Only these collections' items, and every item of their current pass whatever its due time (`stays collect run`). */
    wholePassOf?: readonly CollectionRow[];
    onItem?(r: CollectionItemReport): void;
    stopped?(): boolean;
    onError?(e: unknown): void;
  },
): Promise<CollectionItemReport[]> {
  const slots = opts.slots ?? COLLECTION_SLOTS;
  const reports: CollectionItemReport[] = [];
  const held = new Map<string, CollectionItemRow>();
  const keyOf = (k: CollectionItemRow) => `${k.collectionId}|${k.pass}|${k.item}`;
  // A claimed item is held as a job is (STAYS_JOB_LEASE_MS), renewed while it runs.
  const leaseMs = services.config.jobLeaseMs;
  const renew = setInterval(() => {
    if (held.size === 0) return;
    services.store.renewCollectionItems(opts.owner, [...held.values()], services.clock.now() + leaseMs).catch((e) => opts.onError?.(e));
  }, leaseMs / 3);
  renew.unref();
  try {
    const whole = opts.wholePassOf;
    await planDuePasses(
      services,
      whole?.map((c) => c.id),
    );
    // A whole pass: every open item of it, whatever its due time; a collection whose day's budget
    // deferred an item is left alone for the rest of this run (what it deferred is due tomorrow).
    const spent = new Set<string>();
    const only = (now: number) => {
      if (whole === undefined) return undefined;
      const left = whole.filter((c) => !spent.has(c.id));
      return { collectionIds: left.map((c) => c.id), dueBy: Math.max(now, ...left.map((c) => passStart(c, passAt(c, now) + 1) - 1)) };
    };
    /** Whether the current pass of any of these collections still has open items (held by another instance). */
    const othersHold = async (ids: readonly string[], now: number) => {
      for (const c of whole ?? []) {
        if (!ids.includes(c.id)) continue;
        const latest = (await services.store.collectionPasses(c.id))[0];
        if (latest && latest.pass === passAt(c, now) && latest.done < latest.items) return true;
      }
      return false;
    };
    const worker = async () => {
      while (!(opts.stopped?.() ?? false)) {
        const now = services.clock.now();
        const narrowed = only(now);
        if (narrowed !== undefined && narrowed.collectionIds.length === 0) return;
        const [item] = await services.store.claimCollectionItems(opts.owner, now, now + leaseMs, 1, narrowed);
        if (!item) {
          // A discovery under way plans its pass's tracking when it ends: wait for it, then claim
          // again. A whole pass also waits for the items other instances hold (a dead one's come
          // back when their lease runs out).
          if (held.size === 0 && !(narrowed !== undefined && (await othersHold(narrowed.collectionIds, now)))) return;
          await new Promise((r) => setTimeout(r, 200));
          continue;
        }
        held.set(keyOf(item), item);
        try {
          const r = await runCollectionItem(services, opts.owner, item);
          if (r.outcome === 'deferred' || r.outcome === 'paused' || r.outcome === 'ended') spent.add(r.collectionId);
          reports.push(r);
          opts.onItem?.(r);
        } catch (e) {
          // Left to its lease: claimed again once it runs out.
          opts.onError?.(e);
        } finally {
          held.delete(keyOf(item));
        }
      }
    };
    await Promise.all(Array.from({ length: slots }, worker));
  } finally {
    clearInterval(renew);
  }
  return reports;
}
