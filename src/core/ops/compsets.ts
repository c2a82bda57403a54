// Comp sets (issue 27, item 2; docs/decisions.md "Comp sets"): POST/GET/DELETE /v1/compsets and
// GET /v1/compsets/{id}. A comp set is saved per account and environment: an anchor listing, a
// radius around its observed coordinates, optionally a bedroom count and platforms; its listings
// are whatever the deployment observed there when its metrics are read (GET /v1/market?compSet=).
// Writing one takes the watches.write scope (saved analyses; OAuth tokens, read-only, never carry it).
import { requireScope } from '../auth.js';
import { type OpResult, type RequestContext, type Services, historyFor, isSandbox, observedBy } from '../context.js';
import { ServiceError } from '../errors.js';
import { inferListingRef, parseListingId } from '../listing-ref.js';
import { DEFAULT_SEARCH_PLATFORMS, type EnabledPlatform, isEnabled, isPlatform } from '../platforms.js';
import { boxAround, distanceMeters } from '../analytics/geometry.js';
import type { HistoryPort } from '../ports/history.js';
import type { CompSetRow, PlacedListing } from '../ports/store.js';
import { COMPSET_MEMBERS_SHOWN, type CompSetDetailView, type CompSetView, MAX_COMPSETS, compSetListParams, createCompSetBody } from '../schemas/market.js';
import { type RawInput, parseParams, preview } from '../validate.js';
import { buildMeta } from '../meta.js';

/** The enabled platforms asked for (every enabled one by default). */
export function platformsOf(asked: readonly string[] | undefined, param = 'platforms'): EnabledPlatform[] {
  const list = asked ?? DEFAULT_SEARCH_PLATFORMS;
  const off = list.find((p) => !isEnabled(p as EnabledPlatform));
  if (off !== undefined) throw new ServiceError('platform_not_enabled', `${off} is not enabled on this service; use one of ${DEFAULT_SEARCH_PLATFORMS.join(', ')}.`, { param });
  return [...new Set(list)] as EnabledPlatform[];
}

const COMPSET_ID = /^cs_[0-9a-hjkmnp-tv-z]{26}$/;
const compSetView = (c: CompSetRow): CompSetView => ({
  id: c.id,
  name: c.name,
  anchor: { platform: c.anchorPlatform, listingId: c.anchorListingId, lat: c.anchorLat, lng: c.anchorLng },
  radiusMeters: c.radiusMeters,
  bedrooms: c.bedrooms,
  platforms: c.platforms,
  createdAt: new Date(c.createdAt).toISOString(),
});

/** The anchor: `platform:id`, a stays_<platform>_<id> id or a listing URL. */
function anchorOf(near: string): { platform: EnabledPlatform; id: string } {
  const m = /^([a-z]+):(.+)$/i.exec(near.trim());
  if (m && isPlatform(m[1]!.toLowerCase()) && !/^https?$/i.test(m[1]!)) {
    const platform = platformsOf([m[1]!.toLowerCase()], 'near')[0]!;
    return { platform, id: parseListingId(platform, m[2]!, { param: 'near' }) };
  }
  const ref = inferListingRef(near, { param: 'near' });
  if (ref === null)
    throw new ServiceError('invalid_parameter', `near ${preview(near)} names no listing: give platform:id (airbnb:123), a stays_<platform>_<id> id or a listing URL.`, { param: 'near' });
  return { platform: platformsOf([ref.platform], 'near')[0]!, id: ref.id };
}

/** Where the anchor is: as the sandbox world places it, or its latest observed coordinates. */
async function anchorPlace(services: Services, ctx: RequestContext, platform: EnabledPlatform, id: string): Promise<{ lat: number; lng: number }> {
  const history = historyFor(services, ctx);
  const place = await history.placeOf({ platform, listingId: id });
  if (place !== null) return place;
  if (!isSandbox(ctx) && !(await history.observedListing({ platform, listingId: id }))) {
    throw new ServiceError('listing_not_found', `Nothing of ${platform} listing ${id} was ever observed by ${observedBy(services)} (a live search or listing call records where it is).`, {
      param: 'near',
    });
  }
  throw new ServiceError('no_observations', `No observation of ${platform} listing ${id} recorded its coordinates, so no radius can be drawn around it (a live search or listing call records them).`, {
    param: 'near',
  });
}

export async function createCompSet(services: Services, ctx: RequestContext, raw: RawInput): Promise<OpResult<CompSetView>> {
  requireScope(ctx, 'stays.read');
  requireScope(ctx, 'watches.write');
  const body = parseParams(createCompSetBody(), raw);
  const { platform, id } = anchorOf(body.near);
  const platforms = body.platforms === undefined ? null : platformsOf(body.platforms);
  const place = await anchorPlace(services, ctx, platform, id);
  const made = await services.store.createCompSet(
    {
      id: `cs_${services.ids.ulid().toLowerCase()}`,
      accountId: ctx.account.id,
      env: ctx.key.env,
      name: body.name,
      anchorPlatform: platform,
      anchorListingId: id,
      anchorLat: place.lat,
      anchorLng: place.lng,
      radiusMeters: body.radiusMeters,
      bedrooms: body.bedrooms ?? null,
      platforms,
      createdAt: services.clock.now(),
    },
    MAX_COMPSETS,
  );
  if (made === 'limit') throw new ServiceError('compset_limit_exceeded', `This account has ${MAX_COMPSETS} comp sets in this environment, the most it may keep; delete one first.`);
  if (made === 'name_taken') throw new ServiceError('compset_name_taken', `This account already has a comp set named ${preview(body.name)}.`, { param: 'name' });
  return { data: compSetView(made), meta: buildMeta(services, ctx, { platforms: [], currency: 'USD' }) };
}

/** The caller's comp set by id (cs_…) or name, or compset_not_found. */
export async function ownCompSet(services: Services, ctx: RequestContext, idOrName: string, param: string): Promise<CompSetRow> {
  const notFound = () => new ServiceError('compset_not_found', `No comp set ${preview(idOrName)} on this account.`, { param });
  if (COMPSET_ID.test(idOrName)) {
    const c = await services.store.getCompSet(idOrName);
    if (!c || c.accountId !== ctx.account.id || c.env !== ctx.key.env) throw notFound();
    return c;
  }
  const byName = (await services.store.listCompSets(ctx.account.id, ctx.key.env)).find((c) => c.name === idOrName.trim());
  if (!byName) throw notFound();
  return byName;
}

export async function listCompSets(services: Services, ctx: RequestContext, raw: RawInput): Promise<OpResult<CompSetView[]>> {
  requireScope(ctx, 'stays.read');
  const q = parseParams(compSetListParams(), raw);
  const rows = (await services.store.listCompSets(ctx.account.id, ctx.key.env)).slice(0, q.limit);
  return { data: rows.map(compSetView), meta: buildMeta(services, ctx, { platforms: [], currency: 'USD' }) };
}

/** The listings a comp set holds: observed within its radius of the anchor (and of its bedroom count), on `platforms`. */
export async function compSetMembers(history: HistoryPort, cs: CompSetRow, platforms: readonly string[]): Promise<(PlacedListing & { distanceMeters: number })[]> {
  const placed = await history.listingsWithin({ ...boxAround(cs.anchorLat, cs.anchorLng, cs.radiusMeters), platforms });
  return placed.flatMap((p) => {
    const distance = distanceMeters(cs.anchorLat, cs.anchorLng, p.lat, p.lng);
    return distance <= cs.radiusMeters && (cs.bedrooms === null || p.bedrooms === cs.bedrooms) ? [{ ...p, distanceMeters: distance }] : [];
  });
}

/** GET /v1/compsets/{id}: the comp set, with the listings it holds now (issue 36, item 11). */
export async function getCompSet(services: Services, ctx: RequestContext, id: string): Promise<OpResult<CompSetDetailView>> {
  requireScope(ctx, 'stays.read');
  const cs = await ownCompSet(services, ctx, id, 'id');
  const platforms = platformsOf(undefined).filter((p) => cs.platforms === null || cs.platforms.includes(p));
  const members = (await compSetMembers(historyFor(services, ctx), cs, platforms)).sort(
    (a, b) => a.distanceMeters - b.distanceMeters || a.platform.localeCompare(b.platform) || a.listingId.localeCompare(b.listingId),
  );
  return {
    data: {
      ...compSetView(cs),
      memberCount: members.length,
      members: members.slice(0, COMPSET_MEMBERS_SHOWN).map((m) => ({ platform: m.platform, listingId: m.listingId, distanceMeters: Math.round(m.distanceMeters), bedrooms: m.bedrooms })),
    },
    meta: buildMeta(services, ctx, { platforms, currency: 'USD' }),
  };
}

export async function deleteCompSet(services: Services, ctx: RequestContext, id: string): Promise<OpResult<CompSetView>> {
  requireScope(ctx, 'stays.read');
  requireScope(ctx, 'watches.write');
  const own = await ownCompSet(services, ctx, id, 'id');
  const gone = await services.store.deleteCompSet(own.id, ctx.account.id, services.clock.now());
  if (!gone) throw new ServiceError('compset_not_found', `No comp set ${preview(id)} on this account.`, { param: 'id' });
  return { data: compSetView(gone), meta: buildMeta(services, ctx, { platforms: [], currency: 'USD' }) };
}
