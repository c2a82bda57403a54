// Family S search (D8, D10): POST /v1/search with an S body, /v1/search/with-details and the three
// presets. The same search legs and cache as Family U's airbnb leg; rows are written as Stays,
// filtered by the S filters, interleaved across places and paged by next_page_token.
import { requireScope } from '../auth.js';
import { stayRowsCost } from '../billing.js';
import { addDays, utcToday } from '../clock.js';
import type { RequestContext, Services } from '../context.js';
import { decodeCursor, encodeCursor, fingerprint } from '../cursor.js';
import { ServiceError, isUpstreamFailure } from '../errors.js';
import { type Composed, type Leg, type LegOutcome, type Plan, TTL } from '../plan.js';
import type { Availability, Property, Review, Warning } from '../schemas/resources.js';
import { PRESET_MAX_ITEMS, SSearchBody, type SSearchInput, S_DEFAULT_MAX_ITEMS, S_MAX_ITEMS, S_SYNC_MAX_ITEMS, type Stay } from '../schemas/stays.js';
import { parseFields, project } from '../stays/fields.js';
import { describe, toStay } from '../stays/shape.js';
import { type StayQuery, type Upstream, allCandidates } from '../upstream.js';
import { type RawInput, checkPriceRange, checkStay, exactlyOne, parseParams } from '../validate.js';
import { failedResult, okResult } from './common.js';
import { LOOKUP_CALENDAR_DAYS } from './stays.js';
import { searchLeg } from './search.js';

const P = 'airbnb';
export const S_SEARCH_KINDS = ['search', 'with-details', 'superhost', 'luxury', 'instant-book'] as const;
export type SSearchKind = (typeof S_SEARCH_KINDS)[number];
const isPreset = (k: SSearchKind) => k === 'superhost' || k === 'luxury' || k === 'instant-book';
/** The luxury preset's floor, per night in the request currency. */
const LUXURY_PRICE_MIN = 300;

export { FAMILY_S_SEARCH_KEYS } from '../schemas/stays.js';

type Warn = Omit<Warning, 'docUrl'>;

interface Place {
  query: string;
  city: string | null;
}

const SEARCH_CATEGORIES = new Set(['homes', 'experiences', 'services', 'all', 'stays', 'online-experiences']);

/** An airbnb search-results URL (`/s/Lisbon--Portugal/homes`) → the place it searches. */
function placeOfSearchUrl(url: string, i: number): Place {
  const param = `searchUrls[${i}]`;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new ServiceError('invalid_parameter', `${param} is not a URL; give an airbnb search-results URL such as https://www.airbnb.com/s/Lisbon--Portugal/homes.`, { param });
  }
  const host = u.hostname.toLowerCase();
  if (!/^https?:$/.test(u.protocol) || !/^(?:[a-z0-9-]+\.)*airbnb\.(?:com|[a-z]{2}|(?:co|com)\.[a-z]{2})$/.test(host)) {
    throw new ServiceError('invalid_parameter', `${param} must be an airbnb search-results URL (got a ${u.protocol === 'https:' || u.protocol === 'http:' ? host : u.protocol} URL).`, { param });
  }
  if (/^\/rooms\//.test(u.pathname)) {
    throw new ServiceError('invalid_parameter', `${param} is a room URL, not a search-results URL; look a room up with GET /v1/stays/by-url.`, { param });
  }
  // `/s/Lisbon--Portugal/homes` names the place in the path; `/s/homes?query=Lisbon` in the query
  // (which wins when both are there); `homes`, `experiences`… are categories, not places.
  const m = /^\/s\/([^/]+)(?:\/|$)/.exec(u.pathname);
  let seg: string | undefined;
  try {
    seg = m ? decodeURIComponent(m[1]!) : undefined;
  } catch {
    throw new ServiceError('invalid_parameter', `${param} has a malformed place in its path.`, { param });
  }
  const fromPath = seg && !SEARCH_CATEGORIES.has(seg.toLowerCase()) ? seg.replace(/--/g, ', ').replace(/-/g, ' ').trim() : undefined;
  const slug = u.searchParams.get('query')?.trim() || fromPath;
  if (!slug) throw new ServiceError('invalid_parameter', `${param} names no place; airbnb search URLs look like https://www.airbnb.com/s/Lisbon--Portugal/homes.`, { param });
  return { query: slug, city: slug.split(',')[0]!.trim() || null };
}

function placesOf(q: SSearchInput): Place[] {
  const form = exactlyOne(q, ['location', 'locationQueries', 'searchUrls'], 'place to search');
  if (form === 'location') return [{ query: q.location!, city: q.location!.split(',')[0]!.trim() || null }];
  if (form === 'locationQueries') return q.locationQueries!.map((l) => ({ query: l, city: l.split(',')[0]!.trim() || null }));
  return q.searchUrls!.map(placeOfSearchUrl);
}

export interface SSearchPlan {
  plan: Plan<unknown[]>;
  memoKey: string;
  /** D10: 241–250 rows go async (a 202 unless cached); presets never. */
  async: boolean;
  /** instant-book's spec-named meta.warning. */
  metaWarning?: string;
  /** The stay the rows are priced for when the body named none (meta.default_dates). */
  defaultDates?: { check_in: string; check_out: string };
}

interface Paged {
  rows: { property: Property; place: Place }[];
  next: Record<string, number>;
  hasMore: boolean;
}

/**
 * The places' candidate lists, filtered, each stay kept only in the first place that lists it:
 * overlapping places ("Lisbon" and "lisbon, Portugal") never repeat a stay, and since the lists
 * are fixed for a query, page offsets stay consistent across pages.
 */
function distinct(lists: Property[][]): Property[][] {
  const seen = new Set<string>();
  return lists.map((l) => l.filter((p) => !seen.has(p.platformListingId) && (seen.add(p.platformListingId), true)));
}

/** Interleaves the places' filtered rows from their offsets, up to maxItems. */
function page(lists: Property[][], places: Place[], offsets: Record<string, number>, maxItems: number): Paged {
  const pos = lists.map((_, i) => offsets[String(i)] ?? 0);
  const rows: Paged['rows'] = [];
  let progressed = true;
  while (rows.length < maxItems && progressed) {
    progressed = false;
    for (let i = 0; i < lists.length && rows.length < maxItems; i++) {
      if (pos[i]! < lists[i]!.length) {
        rows.push({ property: lists[i]![pos[i]!]!, place: places[i]! });
        pos[i]!++;
        progressed = true;
      }
    }
  }
  const next = Object.fromEntries(pos.map((p, i) => [String(i), p]));
  return { rows, next, hasMore: pos.some((p, i) => p < lists[i]!.length) };
}

export function sSearchPlan(services: Services, ctx: RequestContext, raw: RawInput, kind: SSearchKind): SSearchPlan {
  requireScope(ctx, 'stays.read');
  const q = parseParams(SSearchBody, raw);
  const places = placesOf(q);
  const today = utcToday(services.clock);
  const checkIn = q.checkIn ?? (q.checkOut === undefined ? addDays(today, 14) : undefined);
  const checkOut = q.checkOut ?? (q.checkIn === undefined ? addDays(today, 16) : undefined);
  checkStay({ checkIn, checkOut }, today);
  const warnings: Warn[] = [];

  let priceMin = q.priceMin;
  if (kind === 'luxury') priceMin = Math.max(LUXURY_PRICE_MIN, priceMin ?? 0);
  if (kind === 'luxury' && q.priceMax !== undefined && q.priceMax < priceMin!) {
    throw new ServiceError('invalid_price_range', `priceMax (${q.priceMax}) is below the luxury floor of ${priceMin} per night.`, { param: 'priceMax' });
  }
  checkPriceRange({ priceMin, priceMax: q.priceMax });

  const cap = isPreset(kind) ? PRESET_MAX_ITEMS : S_MAX_ITEMS;
  let maxItems = q.maxItems ?? S_DEFAULT_MAX_ITEMS;
  if (maxItems > cap) {
    warnings.push({
      code: 'max_items_clamped',
      message: `maxItems ${maxItems} is above ${isPreset(kind) ? "the presets' cap" : 'the cap'} of ${cap}; ${cap} rows per page were returned. Page on with next_page_token.`,
    });
    maxItems = cap;
  }
  if (q.minBeds !== undefined) {
    warnings.push({ code: 'filter_ignored', message: 'minBeds was ignored: the sources state no bed count. minBedrooms filters on bedrooms.' });
  }
  const projection = parseFields(q.fields);
  const details = kind === 'with-details';
  const stay: StayQuery = { checkIn: checkIn!, checkOut: checkOut!, adults: q.adults, children: q.children, childAges: [], currency: q.currency };
  const fp = fingerprint([
    's-search',
    kind,
    places.map((p) => p.query),
    checkIn,
    checkOut,
    q.adults,
    q.children,
    q.infants,
    q.pets,
    priceMin,
    q.priceMax,
    q.minBeds,
    q.minBedrooms,
    q.minBathrooms,
    q.currency,
    maxItems,
  ]);
  const offsets = decodeCursor(q.nextPageToken, fp, { param: 'nextPageToken', from: 'meta.next_page_token' })?.o ?? {};

  const keep = (p: Property): boolean => {
    if (p.maxOccupancy !== null && p.maxOccupancy < q.adults + q.children) return false;
    if (q.pets > 0 && !p.amenities.includes('pet_friendly')) return false;
    if (q.minBedrooms !== undefined && (p.bedrooms ?? 0) < q.minBedrooms) return false;
    if (q.minBathrooms !== undefined && (p.bathrooms ?? 0) < q.minBathrooms) return false;
    if (priceMin !== undefined || q.priceMax !== undefined) {
      // A price filter cannot vouch for a row without a price: it is left out.
      if (!p.price) return false;
      if (priceMin !== undefined && p.price.nightlyPrice < priceMin) return false;
      if (q.priceMax !== undefined && p.price.nightlyPrice > q.priceMax) return false;
    }
    if (kind === 'superhost' && p.host?.isSuperhost !== true) return false;
    return true;
  };
  const searchLegs = places.map((pl) => searchLeg(P, pl.query, { currency: q.currency, rooms: 1, stay }));
  const searchRow = (r: Paged['rows'][number]): Stay => toStay(r.property, { detail: false, query: { city: r.place.city, country: null } });

  const compose = (outcomes: LegOutcome[], detailed?: DetailOutcome): Composed<unknown[]> => {
    const notes = [...warnings];
    const lists: Property[][] = [];
    const results = [];
    outcomes.forEach((o, i) => {
      if (o.ok) return lists.push(allCandidates(o.value).filter(keep));
      if (!isUpstreamFailure(o.error)) throw o.error;
      if (outcomes.length === 1) throw o.error;
      lists.push([]);
      results.push(failedResult(P, o.error));
      notes.push({ code: o.error.code, message: `${places[i]!.query}: ${o.error.message}`, platform: P });
    });
    if (results.length === outcomes.length) throw new ServiceError('upstream_degraded', `Every place failed: ${places.map((p) => p.query).join('; ')}.`);
    const paged = page(distinct(lists), places, offsets, maxItems);
    let stays: Stay[];
    if (detailed) {
      stays = [];
      paged.rows.forEach((r) => {
        const d = detailed.get(r.property.platformListingId);
        if (!d?.ok) {
          notes.push({
            code: d?.code ?? 'listing_not_found',
            message: `${r.property.platformListingId}: its details could not be fetched (${d?.code ?? 'missing'}); the row was left out and not billed.`,
            platform: P,
          });
          return;
        }
        // The row as searched (title, place, price), enriched with what a lookup adds: reviews,
        // availability, description, amenities (spec). A row's place is the search's (rule 5).
        const looked = toStay(d.body, { detail: true, availability: d.availability, reviews: d.reviews });
        stays.push({ ...searchRow(r), description: describe(r.property), amenities: looked.amenities, availability: looked.availability, reviews: looked.reviews });
      });
    } else stays = paged.rows.map(searchRow);
    const data = project(stays, projection);
    results.unshift(
      okResult(
        P,
        data.length,
        stayRowsCost(data.length, details),
        outcomes.every((o) => o.ok && o.cached),
      ),
    );
    return {
      data,
      platformResults: results,
      warnings: notes,
      pagination: { limit: maxItems, cursor: q.nextPageToken ?? null, nextCursor: paged.hasMore ? encodeCursor({ o: paged.next }, fp) : null, hasMore: paged.hasMore },
    };
  };

  let legs: Leg[] = searchLegs;
  let composeAll = (outcomes: LegOutcome[]) => compose(outcomes);
  if (details) {
    // With details, which rows need a lookup is known only once the search answered: one leg
    // searches, pages and looks the page's rows up, cached as a whole (docs/decisions.md).
    const window = { start: today, end: addDays(today, LOOKUP_CALENDAR_DAYS) };
    legs = [
      {
        platform: P,
        key: `s-details:${fp}:${JSON.stringify(offsets)}`,
        ttlMs: TTL.search,
        // A failed place or lookup is answered (with a warning) but not cached: the next call retries it.
        cacheable: (v) => {
          const d = v as { outcomes: WireOutcome[]; details: (readonly [string, Detail])[] };
          return d.outcomes.every((o) => o.ok) && d.details.every(([, x]) => x.ok);
        },
        fetch: async (u) => {
          const outcomes = await Promise.all(searchLegs.map((l) => settle(l.fetch(u))));
          // Every place failed: the leg fails (and nothing is cached), as a plain search's would.
          const firstFailure = outcomes.find((o) => !o.ok);
          if (firstFailure && !firstFailure.ok && outcomes.every((o) => !o.ok)) throw firstFailure.error;
          const lists = outcomes.map((o) => (o.ok ? allCandidates(o.value).filter(keep) : []));
          const ids = page(distinct(lists), places, offsets, maxItems).rows.map((r) => r.property.platformListingId);
          const detailsOf = await Promise.all(ids.map((id) => lookup(u, id, window)));
          return { outcomes: outcomes.map(toWire), details: ids.map((id, i) => [id, detailsOf[i]!] as const) };
        },
      },
    ];
    composeAll = ([o]) => {
      if (!o!.ok) throw o!.error;
      const v = o!.value as { outcomes: WireOutcome[]; details: (readonly [string, Detail])[] };
      return compose(v.outcomes.map(fromWire), new Map(v.details));
    };
  }

  return {
    memoKey: `s-search|${kind}|${fp}|${q.nextPageToken ?? ''}|${q.fields ?? ''}`,
    async: !isPreset(kind) && maxItems > S_SYNC_MAX_ITEMS,
    ...(kind === 'instant-book' ? { metaWarning: 'experimental' } : {}),
    ...(q.checkIn === undefined && q.checkOut === undefined ? { defaultDates: { check_in: checkIn!, check_out: checkOut! } } : {}),
    plan: {
      operation: kind === 'search' ? 'stay-search' : kind === 'with-details' ? 'stay-search-with-details' : `listings-${kind}`,
      platforms: [P],
      currency: q.currency,
      worstCase: stayRowsCost(maxItems, details),
      legs,
      compose: composeAll,
    },
  };
}

// ---- with-details: one cacheable leg (its value is JSON, so outcomes are stored as plain data) --

type Detail = { ok: true; body: Property; availability: Availability | null; reviews: Review[] | null } | { ok: false; code: string };
type DetailOutcome = Map<string, Detail>;
type WireOutcome = { ok: true; value: unknown } | { ok: false; code: string; message: string };

async function settle(p: Promise<unknown>): Promise<LegOutcome> {
  try {
    return { ok: true, value: await p, cached: false };
  } catch (e) {
    if (e instanceof ServiceError) return { ok: false, error: e };
    throw e;
  }
}

const toWire = (o: LegOutcome): WireOutcome => (o.ok ? { ok: true, value: o.value } : { ok: false, code: o.error.code, message: o.error.message });
const fromWire = (o: WireOutcome): LegOutcome => (o.ok ? { ok: true, value: o.value, cached: false } : { ok: false, error: new ServiceError(o.code as never, o.message) });

async function lookup(u: Upstream, id: string, w: { start: string; end: string }): Promise<Detail> {
  const [body, cal, rev] = await Promise.all([settle(u.listing(P, id, { currency: 'USD' })), settle(u.availability(P, id, w.start, w.end)), settle(u.reviews(P, id))]);
  if (!body.ok) return { ok: false, code: body.error.code };
  return { ok: true, body: body.value as Property, availability: cal.ok ? (cal.value as Availability) : null, reviews: rev.ok ? (rev.value as Review[]) : null };
}
