// GET/POST /v1/search: fan out per platform, filter, sort, page with one cursor (D16).
import { requireScope } from '../auth.js';
import { searchLegCost, searchWorstCase } from '../billing.js';
import { utcToday } from '../clock.js';
import type { RequestContext, Services } from '../context.js';
import { decodeCursor, encodeCursor, fingerprint } from '../cursor.js';
import { ServiceError, isUpstreamFailure } from '../errors.js';
import { DEFAULT_SEARCH_PLATFORMS, type EnabledPlatform, type Platform, isEnabled } from '../platforms.js';
import type { SearchInput } from '../schemas/params.js';
import { searchParams } from '../schemas/param-schemas.js';
import type { PlatformResult, Property, Warning } from '../schemas/resources.js';
import { type RawInput, checkChildAges, checkPriceRange, checkStay, parseBbox, parseParams } from '../validate.js';
import { type Composed, type Leg, type LegOutcome, type Plan, TTL } from '../plan.js';
import { type CandidateList, type SearchArea, type StayQuery, type Upstream, allCandidates, truncationOf } from '../upstream.js';
import { failedResult, okResult, ratingScaleWarnings } from './common.js';
import { SEARCH_COMPARATORS } from '../search-sort.js';
import { Lru } from '../lru.js';
import { isPendingLocation } from '../sandbox-triggers.js';
import { observeSearch } from '../observe.js';

interface ResolvedPlatforms {
  legs: EnabledPlatform[];
  skipped: Platform[];
}

/** D12: non-enabled platforms are skipped with a warning; none left is an error. */
function resolveSearchPlatforms(p: Pick<SearchInput, 'platforms' | 'platform'>): ResolvedPlatforms {
  if (p.platforms !== undefined && p.platform !== undefined) {
    throw new ServiceError('mutually_exclusive_params', 'platform is an alias for platforms with one value; give only one of them.', {
      param: 'platform',
    });
  }
  const asked: Platform[] = p.platforms ?? (p.platform !== undefined ? [p.platform] : [...DEFAULT_SEARCH_PLATFORMS]);
  const unique = [...new Set(asked)];
  const legs = unique.filter(isEnabled);
  const skipped = unique.filter((x) => !isEnabled(x));
  if (legs.length === 0) {
    throw new ServiceError('no_enabled_platform', `None of ${unique.join(', ')} is enabled; enabled platforms are vrbo, booking, airbnb, google.`, {
      param: p.platforms !== undefined ? 'platforms' : 'platform',
    });
  }
  return { legs, skipped };
}

function matches(p: Property, q: SearchInput, guests: number): boolean {
  // An area search sent its price band to the platform, which filtered on its own nightly price.
  const band = q.bbox === undefined;
  if (q.propertyType && !q.propertyType.includes(p.propertyType)) return false;
  if (q.amenities && !q.amenities.every((a) => p.amenities.includes(a))) return false;
  if (q.minBedrooms !== undefined && (p.bedrooms ?? 0) < q.minBedrooms) return false;
  if (q.minGuestRating !== undefined && (p.guestRating ?? 0) < q.minGuestRating) return false;
  if (p.maxOccupancy !== null && p.maxOccupancy * q.rooms < guests) return false;
  if (p.price && band) {
    if (q.priceMin !== undefined && p.price.nightlyPrice < q.priceMin) return false;
    if (q.priceMax !== undefined && p.price.nightlyPrice > q.priceMax) return false;
  }
  return true;
}

/** D16: recommended is round-robin in platforms[] order; other sorts merge the page. */
function mergePage(pages: Property[][], sort: SearchInput['sort']): Property[] {
  if (sort === 'recommended') {
    const out: Property[] = [];
    const longest = Math.max(0, ...pages.map((p) => p.length));
    for (let i = 0; i < longest; i++) for (const page of pages) if (page[i]) out.push(page[i]!);
    return out;
  }
  return pages.flat().sort(SEARCH_COMPARATORS[sort]);
}

/** The first `n` rows of a search leg's value that pass `keep`, in their order. */
function firstMatching(value: unknown, keep: (p: Property) => boolean, n: number): Property[] {
  const out: Property[] = [];
  const rows = truncationOf(value) ? allCandidates(value) : value;
  const at = Array.isArray(rows) ? (i: number) => rows[i] as Property | undefined : (i: number) => (rows as CandidateList).at(i);
  for (let i = 0, p = at(0); out.length < n && p !== undefined; p = at(++i)) if (keep(p)) out.push(p);
  return out;
}

function parseSearch(raw: RawInput, today: string): SearchInput & { childAges: number[]; resolved: ResolvedPlatforms; where: string; area: SearchArea | undefined } {
  const q = parseParams(searchParams(), raw);
  const area = q.bbox !== undefined ? searchArea(q) : undefined;
  checkStay(q, today);
  const childAges = checkChildAges(q);
  checkPriceRange(q);
  const resolved = resolveSearchPlatforms(q);
  return { ...q, childAges, resolved, area, where: area ? `${q.location} ${areaLabel(area)}` : q.location };
}

/** A bbox search's area (issue 38): a box of some size, and the price band the platform filters on. */
function searchArea(q: SearchInput): SearchArea {
  const b = parseBbox(q.bbox!);
  if (b.minLng === b.maxLng || b.minLat === b.maxLat) {
    throw new ServiceError('invalid_parameter', 'bbox is empty (no width or no height): give minLng,minLat,maxLng,maxLat with minLng < maxLng and minLat < maxLat.', { param: 'bbox' });
  }
  return { bbox: { west: b.minLng, south: b.minLat, east: b.maxLng, north: b.maxLat }, priceMin: q.priceMin, priceMax: q.priceMax };
}

/** How an area search's box and band are named beside its location (its leg's key, its observations' series). */
function areaLabel(a: SearchArea): string {
  const b = a.bbox;
  const band = a.priceMin !== undefined || a.priceMax !== undefined ? `@${a.priceMin ?? ''}-${a.priceMax ?? ''}` : '';
  return `bbox:${b.west},${b.south},${b.east},${b.north}${band}`;
}

/**
 * A platform's search: an area only from an upstream that searches areas (searchAnswer), which
 * also says when its cap cut the answer; a place from the sandbox's rows as they are read, else
 * the upstream's array.
 */
function fetchSearch(u: Upstream, platform: EnabledPlatform, location: string, o: { currency: string; rooms: number; stay: StayQuery | undefined; area?: SearchArea | undefined }) {
  if (u.searchAnswer) return u.searchAnswer(platform, location, o);
  if (o.area) throw new ServiceError('platform_not_enabled', `${platform}: this server's upstream (${u.name}) cannot search a bounding box; search a location instead.`, { param: 'bbox' });
  const opts = { currency: o.currency, rooms: o.rooms, stay: o.stay };
  return u.searchCandidates ? u.searchCandidates(platform, location, opts) : u.searchPlatform(platform, location, opts);
}

type ParsedSearch = ReturnType<typeof parseSearch>;

export interface SearchPlan {
  plan: Plan<Property[]>;
  /** Sandbox memo key: the whole query and cursor. */
  memoKey: string;
  /** Every candidate the legs fetched that matches the query, whatever the page (a watch's new_listings, issue 36 item 4). */
  matching(outcomes: LegOutcome[]): Property[];
}

/** One platform's full candidate set for a place: shared by both search forms (and their cache). */
export function searchLeg(platform: EnabledPlatform, location: string, o: { currency: string; rooms: number; stay: StayQuery | undefined; area?: SearchArea | undefined }): Leg {
  return {
    platform,
    // An area's label (areaLabel) is its location here: the key says the box and the band.
    key: `search:${platform}:${JSON.stringify([location, o.currency, o.rooms, o.stay ?? null])}`,
    ttlMs: TTL.search,
    need: 'search',
    fetch: (u) => fetchSearch(u, platform, location, o),
    observe: observeSearch(location, o.stay),
    ...(isPendingLocation(location) ? { sandboxPending: true } : {}),
  };
}

/** One leg per platform fetches its full candidate set; compose filters, sorts and pages it. */
export function searchPlan(services: Services, ctx: RequestContext, raw: RawInput): SearchPlan {
  requireScope(ctx, 'stays.read');
  return planSearch(raw, utcToday(services.clock));
}

/**
 * Searches parsed, validated, fingerprinted and planned, by UTC day and request text (issue 23:
 * a third of a sandbox search's own work was doing that again for the same query). A plan is a
 * pure function of the input and the day (D15 validates dates against today, UTC), holds
 * nothing of the caller and is frozen. Only successful parses are kept: an invalid query is
 * parsed again each time and gets its typed error each time.
 */
const planMemo = new Lru<string, SearchPlan>({ maxEntries: 1024, maxBytes: 8 * 1024 * 1024, sizeOf: (_plan, key) => 4 * key.length + 4096 });

/**
 * searchPlan for input that `text` determines entirely (a GET's URL): `raw` is read only when
 * this day has not planned that text yet.
 */
export function searchPlanOf(services: Services, ctx: RequestContext, text: string, raw: () => RawInput): SearchPlan {
  requireScope(ctx, 'stays.read');
  const today = utcToday(services.clock);
  const key = `${today}\n${text}`;
  let p = planMemo.get(key);
  if (p === undefined) {
    p = planSearch(raw(), today);
    planMemo.set(key, p);
  }
  return p;
}

function planSearch(raw: RawInput, today: string): SearchPlan {
  const q = parseSearch(raw, today);
  const fp = fingerprint([
    'search',
    q.where.toLowerCase(),
    q.checkIn,
    q.checkOut,
    q.adults,
    q.children,
    q.childAges,
    q.rooms,
    q.propertyType,
    q.amenities,
    q.minBedrooms,
    q.priceMin,
    q.priceMax,
    q.minGuestRating,
    q.resolved.legs,
    q.limit,
    q.sort,
    q.currency,
  ]);
  const offsets = decodeCursor(q.cursor, fp)?.o ?? {};
  const stay = q.checkIn && q.checkOut ? { checkIn: q.checkIn, checkOut: q.checkOut, adults: q.adults, children: q.children, childAges: q.childAges, currency: q.currency } : undefined;
  const legs: Leg[] = q.resolved.legs.map((platform) => searchLeg(platform, q.where, { currency: q.currency, rooms: q.rooms, stay, area: q.area }));
  return Object.freeze({
    memoKey: `search|${q.where}|${fp}|${q.cursor ?? ''}`,
    plan: Object.freeze<Plan<Property[]>>({
      operation: 'search',
      platforms: q.resolved.legs,
      currency: q.currency,
      worstCase: searchWorstCase(q.resolved.legs, q.limit),
      legs,
      compose: (outcomes) => composePage(q, fp, offsets, outcomes, stay !== undefined),
    }),
    matching: (outcomes: LegOutcome[]) => outcomes.flatMap((o) => (o.ok ? allCandidates(o.value).filter((p) => matches(p, q, q.adults + q.children)) : [])),
  });
}

function composePage(q: ParsedSearch, fp: string, offsets: Record<string, number>, outcomes: LegOutcome[], dated: boolean): Composed<Property[]> {
  const guests = q.adults + q.children;
  const comparator = q.sort === 'recommended' ? null : SEARCH_COMPARATORS[q.sort];
  const results: PlatformResult[] = [];
  const pages: Property[][] = [];
  const nextOffsets: Record<string, number> = {};
  const warnings: Omit<Warning, 'docUrl'>[] = [];
  const truncated: NonNullable<Composed<Property[]>['truncated']> = [];
  let hasMore = false;

  q.resolved.legs.forEach((platform, i) => {
    const o = outcomes[i]!;
    const offset = offsets[platform] ?? 0;
    if (!o.ok) {
      if (!isUpstreamFailure(o.error)) throw o.error;
      pages.push([]);
      nextOffsets[platform] = offset;
      results.push(failedResult(platform, o.error));
      warnings.push({ code: o.error.code, message: `${platform}: ${o.error.message}`, platform });
      return;
    }
    // Recommended order reads the matching rows up to the page and one more (whether there is a
    // next page): a sandbox set makes its rows as they are read (CandidateList).
    const rows = comparator
      ? allCandidates(o.value)
          .filter((p) => matches(p, q, guests))
          .sort(comparator)
      : firstMatching(o.value, (p) => matches(p, q, guests), offset + q.limit + 1);
    const page = rows.slice(offset, offset + q.limit);
    pages.push(page);
    nextOffsets[platform] = offset + page.length;
    if (offset + page.length < rows.length) hasMore = true;
    results.push(okResult(platform, page.length, searchLegCost(platform, page.length), o.cached));
    const cut = truncationOf(o.value);
    if (cut) {
      truncated.push({ platform, ...cut });
      const of = cut.reported === null ? 'more than it returns' : `${cut.reported}`;
      warnings.push({
        code: 'results_truncated',
        message: `${platform} answered ${cut.returned} of ${of} results (its cap is ${cut.cap} a search): split the area (bbox) or the price range to see the rest.`,
        platform,
      });
    }
  });
  if (results.every((r) => r.status === 'failed')) {
    throw new ServiceError('upstream_degraded', `Every platform failed: ${results.map((r) => `${r.platform} ${r.error?.code}`).join(', ')}.`);
  }
  for (const platform of q.resolved.skipped) {
    results.push({ platform, status: 'skipped', reason: 'not_enabled', message: `${platform} is not enabled on this service.`, creditsCharged: 0, cached: false, count: 0 });
    warnings.push({ code: 'platform_not_enabled', message: `${platform} is not enabled and was skipped.`, platform });
  }
  warnings.push(...ratingScaleWarnings('minGuestRating', q.minGuestRating, q.resolved.legs, 'listing'));
  if (!dated && q.area === undefined && (q.priceMin !== undefined || q.priceMax !== undefined)) {
    warnings.push({ code: 'price_filter_needs_dates', message: 'priceMin and priceMax apply only to dated searches (checkIn and checkOut); they were ignored.' });
  }
  return {
    data: Object.freeze(mergePage(pages, q.sort)) as Property[],
    platformResults: results,
    warnings,
    pagination: { limit: q.limit, cursor: q.cursor ?? null, nextCursor: hasMore ? encodeCursor({ o: nextOffsets }, fp) : null, hasMore },
    truncated,
  };
}
