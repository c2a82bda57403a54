// Collections (issue 38, item 1; docs/decisions.md "Collections"): POST/GET/PATCH/DELETE
// /v1/collections[/{id}]. A collection is an account's standing order to cover a whole market: an
// area (a place searched, a box, or a comp set's circle), platforms, how far ahead calendars are
// kept, a cadence, which rates to keep and a daily budget, saved per account and key environment.
// Writing one takes the collections.write scope (its passes spend credits; OAuth tokens,
// read-only, never carry it). Reading one is free.
import { requireScope } from '../auth.js';
import { type OpResult, type RequestContext, type Services, historyFor, isSandbox } from '../context.js';
import { type Member, discoveryEstimate, planPass } from '../collections/pass-plan.js';
import { locationKey } from '../observe.js';
import { ServiceError } from '../errors.js';
import { buildMeta } from '../meta.js';
import type { CollectionArea, CollectionPatch, CollectionRow } from '../ports/store.js';
import { MAX_COLLECTIONS, type CollectionItemView, type CollectionView, collectionListParams, collectionRunBody, createCollectionBody, updateCollectionBody } from '../schemas/collections.js';
import { runDueItems } from './collection-runs.js';
import { utcToday } from '../clock.js';
import { type RawInput, exactlyOne, parseBbox, parseParams, preview } from '../validate.js';
import { compSetMembers, ownCompSet, platformsOf } from './compsets.js';

const COLLECTION_ID = /^col_[0-9a-hjkmnp-tv-z]{26}$/;

/**
 * Platforms whose calendar states each night's rate. None of the enabled sources does today (their
 * calendars state availability and stay rules), so `auto` keeps sampled stays' quotes everywhere,
 * and the answer says so per platform.
 */
const CALENDAR_RATES: ReadonlySet<string> = new Set();

function ratesByPlatform(c: CollectionRow): Record<string, 'calendar' | 'sampled' | 'none'> {
  return Object.fromEntries(c.platforms.map((p) => [p, c.rates === 'none' ? 'none' : c.rates === 'auto' && CALENDAR_RATES.has(p) ? 'calendar' : 'sampled']));
}

/**
 * The listings known in a collection's area now (issue 38, item 4): those the account's history
 * holds there (its searches of the place, or observed within the box or the comp set's radius),
 * with their bedrooms. Discovery, when it runs, makes this the whole market; before, it is what
 * was observed, and the estimate says so.
 */
async function population(services: Services, ctx: RequestContext, c: Pick<CollectionRow, 'area' | 'platforms'>): Promise<Member[]> {
  const history = historyFor(services, ctx);
  const a = c.area;
  if ('bbox' in a) return history.listingsWithin({ minLng: a.bbox[0], minLat: a.bbox[1], maxLng: a.bbox[2], maxLat: a.bbox[3], platforms: c.platforms });
  if ('compSet' in a) {
    const cs = await services.store.getCompSet(a.compSet);
    return cs === null
      ? []
      : compSetMembers(
          history,
          cs,
          c.platforms.filter((p) => cs.platforms === null || cs.platforms.includes(p)),
        );
  }
  const refs = await history.listingsOfPlace({ place: locationKey(a.location), platforms: c.platforms });
  const facts = new Map((await history.listingFacts(refs)).map((f) => [`${f.platform}|${f.listingId}`, f.bedrooms]));
  return refs.map((r) => ({ ...r, bedrooms: facts.get(`${r.platform}|${r.listingId}`) ?? null }));
}

async function estimateOf(services: Services, ctx: RequestContext, c: Omit<CollectionRow, 'updatedAt' | 'status'>): Promise<NonNullable<CollectionView['estimate']>> {
  // Once a discovery has run: the listings it found, and what it cost. Before: what is known of the area.
  const last = await services.store.lastDiscovery(c.id);
  const found = last === null ? [] : (await services.store.collectionListings(c.id)).filter((l) => l.lastPass === last.pass);
  const discovered = last !== null && found.length > 0;
  const members: Member[] = discovered ? found.map((l) => ({ platform: l.platform, listingId: l.listingId, bedrooms: l.bedrooms })) : await population(services, ctx, c);
  const discovery = discovered ? last.charged : discoveryEstimate(members);
  const plan = planPass(members, c, services.clock.now(), discovery);
  const where = 'location' in c.area ? `searches of ${c.area.location}` : 'bbox' in c.area ? 'observations within the box' : "observations within the comp set's radius";
  const whose = isSandbox(ctx) ? "the sandbox world's" : "this account's";
  const known = discovered
    ? `The ${plan.sample.of} listing${plan.sample.of === 1 ? '' : 's'} the latest discovery (pass ${last.pass}) found, which cost ${discovery} credits`
    : `The ${plan.sample.of} listing${plan.sample.of === 1 ? '' : 's'} ${whose} ${where} found so far (discovery finds the rest of the market once it runs; its ${discovery} credits are estimated from them)`;
  return {
    basis: `${known}; ${
      plan.sample.sampled
        ? `what the budget leaves after the discovery covers a ${Math.round(plan.sample.fraction * 1000) / 10} % sample of them, stratified by platform and bedrooms.`
        : 'the budget covers every one.'
    }`,
    listings: plan.sample.of,
    tracked: plan.sample.tracked,
    sampled: plan.sample.sampled,
    fraction: Math.round(plan.sample.fraction * 10_000) / 10_000,
    discoveryCreditsPerPass: plan.estimate.discoveryCreditsPerPass,
    totalCreditsPerDay: plan.estimate.totalCreditsPerDay,
    creditsPerPass: plan.estimate.creditsPerPass,
    creditsPerDay: plan.estimate.creditsPerDay,
    creditsPerDayAll: plan.estimate.creditsPerDayAll,
    byPlatform: plan.estimate.byPlatform,
  };
}

/** What a collection's passes have done (issue 38, item 1's progress), from its items, listings and budget. */
async function progressOf(services: Services, c: CollectionRow): Promise<CollectionView['progress']> {
  const [passes, listings, spent] = await Promise.all([
    services.store.collectionPasses(c.id),
    services.store.collectionListings(c.id),
    services.store.collectionBudgetUsed(c.id, utcToday(services.clock)),
  ]);
  const latest = passes[0];
  const found = listings.reduce((n, l) => Math.max(n, l.lastPass), -1);
  const discovered = listings.filter((l) => l.lastPass === found).length;
  // Every pass's first item is its discovery; the rest track one listing each.
  const tracked = latest ? Math.max(0, latest.items - 1) : 0;
  const complete = passes.find((p) => p.endedAt !== null && p.items > 1);
  let phase: CollectionView['progress']['phase'] = 'idle';
  // Active with no pass yet: its first discovery is next.
  if (c.status === 'active' && (!latest || latest.done < latest.items)) phase = !latest || latest.items === 1 ? 'discovery' : 'tracking';
  return {
    phase,
    listingsDiscovered: discovered,
    listingsTracked: tracked,
    lastCompletePass: complete ? new Date(complete.endedAt!).toISOString() : null,
    coverage: discovered > 0 ? Math.round((Math.min(tracked, discovered) / discovered) * 10_000) / 10_000 : null,
    creditsSpentToday: spent,
    pass: latest ? latest.pass : null,
    passItems: latest ? { total: latest.items, done: latest.done } : null,
    listingsGone: listings.length - discovered,
  };
}

const NOTHING_YET: CollectionView['progress'] = {
  phase: 'idle',
  listingsDiscovered: 0,
  listingsTracked: 0,
  lastCompletePass: null,
  coverage: null,
  creditsSpentToday: 0,
  pass: null,
  passItems: null,
  listingsGone: 0,
};

function collectionView(c: CollectionRow, estimate: CollectionView['estimate'] = null, progress: CollectionView['progress'] = NOTHING_YET): CollectionView {
  const a = c.area;
  return {
    id: c.id,
    name: c.name,
    location: 'location' in a ? a.location : null,
    bbox: 'bbox' in a ? [...a.bbox] : null,
    compSet: 'compSet' in a ? a.compSet : null,
    platforms: c.platforms,
    horizonNights: c.horizonNights,
    cadence: c.cadence,
    rates: c.rates,
    ratesByPlatform: ratesByPlatform(c),
    maxCreditsPerDay: c.maxCreditsPerDay,
    status: c.status,
    // Nothing read yet (a collection just made, or deleted): an active one's discovery comes first.
    progress: progress === NOTHING_YET && c.status === 'active' ? { ...NOTHING_YET, phase: 'discovery' } : progress,
    estimate,
    createdAt: new Date(c.createdAt).toISOString(),
    updatedAt: new Date(c.updatedAt).toISOString(),
  };
}

const meta = (services: Services, ctx: RequestContext) => buildMeta(services, ctx, { platforms: [], currency: 'USD' });

/** `created`: false for a dry run (nothing was made: 200, not 201). */
export async function createCollection(services: Services, ctx: RequestContext, raw: RawInput): Promise<OpResult<CollectionView> & { created: boolean }> {
  requireScope(ctx, 'stays.read');
  requireScope(ctx, 'collections.write');
  const body = parseParams(createCollectionBody(), raw);
  const form = exactlyOne(body, ['location', 'bbox', 'compSet'], 'area the collection covers');
  let area: CollectionArea;
  if (form === 'location') area = { location: body.location!.trim().replace(/\s+/g, ' ') };
  else if (form === 'bbox') {
    const b = parseBbox(body.bbox!);
    area = { bbox: [b.minLng, b.minLat, b.maxLng, b.maxLat] };
  } else area = { compSet: (await ownCompSet(services, ctx, body.compSet!, 'compSet')).id };
  const now = services.clock.now();
  const row = {
    id: `col_${services.ids.ulid().toLowerCase()}`,
    accountId: ctx.account.id,
    env: ctx.key.env,
    name: body.name,
    area,
    platforms: platformsOf(body.platforms),
    horizonNights: body.horizonNights,
    cadence: body.cadence,
    rates: body.rates,
    maxCreditsPerDay: body.maxCreditsPerDay,
    status: body.status,
    keyId: ctx.key.id,
    createdAt: now,
  } satisfies Omit<CollectionRow, 'updatedAt'>;
  const estimate = await estimateOf(services, ctx, row);
  // A dry run: the collection it would be and what it would cost, nothing made.
  if (body.dryRun) return { data: collectionView({ ...row, updatedAt: now }, estimate), meta: meta(services, ctx), created: false };
  const made = await services.store.createCollection(row, MAX_COLLECTIONS);
  if (made === 'limit') throw new ServiceError('collection_limit_exceeded', `This account has ${MAX_COLLECTIONS} collections in this environment, the most it may keep; delete one first.`);
  if (made === 'name_taken') throw new ServiceError('collection_name_taken', `This account already has a collection named ${preview(body.name)}.`, { param: 'name' });
  return { data: collectionView(made, estimate), meta: meta(services, ctx), created: true };
}

/** The caller's collection by id (col_…) or name, or collection_not_found. */
export async function ownCollection(services: Services, ctx: RequestContext, idOrName: string, param = 'id'): Promise<CollectionRow> {
  const notFound = () => new ServiceError('collection_not_found', `No collection ${preview(idOrName)} on this account.`, { param });
  if (COLLECTION_ID.test(idOrName)) {
    const c = await services.store.getCollection(idOrName);
    if (!c || c.accountId !== ctx.account.id || c.env !== ctx.key.env) throw notFound();
    return c;
  }
  const byName = (await services.store.listCollections(ctx.account.id, ctx.key.env)).find((c) => c.name === idOrName.trim());
  if (!byName) throw notFound();
  return byName;
}

export async function listCollections(services: Services, ctx: RequestContext, raw: RawInput): Promise<OpResult<CollectionView[]>> {
  requireScope(ctx, 'stays.read');
  const q = parseParams(collectionListParams(), raw);
  const rows = (await services.store.listCollections(ctx.account.id, ctx.key.env)).slice(0, q.limit);
  return { data: await Promise.all(rows.map(async (c) => collectionView(c, null, await progressOf(services, c)))), meta: meta(services, ctx) };
}

export async function getCollection(services: Services, ctx: RequestContext, id: string): Promise<OpResult<CollectionView>> {
  requireScope(ctx, 'stays.read');
  const c = await ownCollection(services, ctx, id);
  return { data: collectionView(c, await estimateOf(services, ctx, c), await progressOf(services, c)), meta: meta(services, ctx) };
}

export async function updateCollection(services: Services, ctx: RequestContext, id: string, raw: RawInput): Promise<OpResult<CollectionView>> {
  requireScope(ctx, 'stays.read');
  requireScope(ctx, 'collections.write');
  // The body is checked before the id is looked up: a bad body is 400 whichever collection it names.
  const area = ['location', 'bbox', 'compSet'].find((k) => raw[k] !== undefined);
  if (area !== undefined) {
    throw new ServiceError('invalid_parameter', `A collection's area is fixed: ${area} cannot be changed. Create another collection for another area (POST /v1/collections).`, { param: area });
  }
  const body = parseParams(updateCollectionBody(), raw);
  const own = await ownCollection(services, ctx, id);
  const patch: CollectionPatch = {};
  if (body.name !== undefined) patch.name = body.name;
  if (body.platforms !== undefined) patch.platforms = platformsOf(body.platforms);
  if (body.horizonNights !== undefined) patch.horizonNights = body.horizonNights;
  if (body.cadence !== undefined) patch.cadence = body.cadence;
  if (body.rates !== undefined) patch.rates = body.rates;
  if (body.maxCreditsPerDay !== undefined) patch.maxCreditsPerDay = body.maxCreditsPerDay;
  if (body.status !== undefined) patch.status = body.status;
  const done = await services.store.updateCollection(own.id, ctx.account.id, patch, services.clock.now());
  if (done === 'name_taken') throw new ServiceError('collection_name_taken', `This account already has a collection named ${preview(body.name ?? '')}.`, { param: 'name' });
  if (done === null) throw new ServiceError('collection_not_found', `No collection ${preview(id)} on this account.`, { param: 'id' });
  return { data: collectionView(done, await estimateOf(services, ctx, done), await progressOf(services, done)), meta: meta(services, ctx) };
}

export async function deleteCollection(services: Services, ctx: RequestContext, id: string): Promise<OpResult<CollectionView>> {
  requireScope(ctx, 'stays.read');
  requireScope(ctx, 'collections.write');
  const own = await ownCollection(services, ctx, id);
  const gone = await services.store.deleteCollection(own.id, ctx.account.id, services.clock.now());
  if (!gone) throw new ServiceError('collection_not_found', `No collection ${preview(id)} on this account.`, { param: 'id' });
  return { data: collectionView(gone), meta: meta(services, ctx) };
}

/**
 * POST /v1/collections/run (`stays collect run`, for cron without a server): makes what is left of
 * the current pass of the account's active collections of the key's environment (or of the one
 * named) now, whatever each item's due time, and answers each item's outcome; a server makes them
 * on its own, spread over each pass. Each call is billed as the same call made by hand
 * (meta.creditsCharged: their sum). Items another instance holds are left to it.
 */
export async function runCollectionsNow(services: Services, ctx: RequestContext, raw: RawInput): Promise<OpResult<CollectionItemView[]>> {
  requireScope(ctx, 'stays.read');
  requireScope(ctx, 'collections.write');
  const body = parseParams(collectionRunBody(), raw);
  const chosen =
    body.collection === undefined ? (await services.store.listCollections(ctx.account.id, ctx.key.env)).filter((c) => c.status === 'active') : [await ownCollection(services, ctx, body.collection)];
  if (chosen.some((c) => c.status !== 'active'))
    throw new ServiceError('invalid_parameter', `The collection ${preview(body.collection ?? '')} is paused: resume it first (stays collect resume).`, { param: 'collection' });
  const reports = chosen.length === 0 ? [] : await runDueItems(services, { owner: services.jobs.owner, wholePassOf: chosen });
  const data: CollectionItemView[] = reports.map((r) => ({
    collectionId: r.collectionId,
    pass: r.pass,
    item: r.item,
    outcome: r.outcome,
    creditsCharged: r.charged,
    reason: r.reason,
    found: r.found ?? null,
  }));
  return { data, meta: { ...meta(services, ctx), creditsCharged: data.reduce((n, r) => n + r.creditsCharged, 0) } };
}
