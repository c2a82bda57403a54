// The most a call can cost (D5), from the call as it is sent (method, path, query, body), before
// any request: the CLI's cost guard and --dry-run use it. The same billing formulas
// (billing.ts) and page limits (limits.ts) as the plan builders, which hold this amount at
// admission; test/core/worst-case.test.ts checks the two agree. Free of zod: the remote CLI
// bundle loads it.
import { GOOGLE_COMPARE_COST, PRICE_COST, STAY_LOOKUP_COST, availabilityCost, listingCost, reviewsCost, searchWorstCase, stayRowsCost } from './billing.js';
import { MAX_WINDOW_DAYS, PRESET_MAX_ITEMS, REVIEWS_LIMIT, SEARCH_LIMIT, S_DEFAULT_MAX_ITEMS, S_MAX_ITEMS } from './limits.js';
import { DEFAULT_SEARCH_PLATFORMS, type Platform, isPlatform } from './platforms.js';
import { DAY_MS } from './clock.js';

/** A call as a client sends it; the path with or without /v1. */
export interface CallShape {
  method: string;
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
}

/** A query or body value as text (lists comma-joined), or undefined. */
const valueText = (v: unknown) => (typeof v === 'string' ? v : Array.isArray(v) ? v.map(String).join(',') : v === undefined || v === null ? undefined : String(v));
/** A comma-separated (or repeated) value as its non-empty items. */
export const valueList = (v: unknown) =>
  (valueText(v) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
/** A positive integer value, or `fallback`. */
export const valueInt = (v: unknown, fallback: number) => {
  const n = Number(valueText(v));
  return Number.isInteger(n) && n > 0 ? n : fallback;
};
const str = valueText;
const list = valueList;
const int = valueInt;
/** A platform the call names, or null: the worst case then takes the dearest one. */
const platformOf = (v: unknown): Platform | null => (isPlatform(str(v)) ? (str(v) as Platform) : null);

/** Family S worst cases (D26): rows × 1 per page (× 2 with details), batch entries × 1, a lookup 1. */
function stayWorstCase(call: CallShape, path: string): number | null {
  const b = (call.body ?? {}) as Record<string, unknown>;
  if (call.method === 'POST' && path === '/stays/batch') return stayRowsCost(Array.isArray(b.entries) ? b.entries.length : 0);
  if (call.method === 'GET' && path.startsWith('/stays/')) return STAY_LOOKUP_COST;
  const preset = path.startsWith('/listings/');
  if (call.method !== 'POST' || !(path === '/search' || path === '/search/with-details' || preset)) return null;
  const cap = preset ? PRESET_MAX_ITEMS : S_MAX_ITEMS;
  return stayRowsCost(Math.min(int(b.maxItems, S_DEFAULT_MAX_ITEMS), cap), path === '/search/with-details');
}

/** The worst case of one call (credits), or null when it is free or not a billable route. */
export function worstCaseOf(call: CallShape): number | null {
  const q = call.query ?? {};
  const path = call.path.replace(/^\/v1/, '');
  if (call.method === 'POST' || path.startsWith('/stays/')) return stayWorstCase(call, path);
  if (path === '/search') {
    const asked = list(q.platforms ?? q.platform).filter(isPlatform) as Platform[];
    return searchWorstCase(asked.length ? asked : [...DEFAULT_SEARCH_PLATFORMS], Math.min(int(q.limit, SEARCH_LIMIT.default), SEARCH_LIMIT.max));
  }
  const listing = /^\/listing\/([^/]+)\//.exec(path);
  if (listing) return listingCost(platformOf(decodeURIComponent(listing[1]!)) ?? 'vrbo');
  if (path === '/price') return PRICE_COST;
  if (path === '/price-compare') {
    const pairs = list(q.listings);
    return pairs.length ? pairs.length * PRICE_COST : GOOGLE_COMPARE_COST;
  }
  if (path === '/availability') {
    const ids = list(q.listingIds).length || 1;
    const start = Date.parse(str(q.startDate) ?? '');
    const end = Date.parse(str(q.endDate) ?? '');
    const days = Number.isNaN(start) || Number.isNaN(end) ? MAX_WINDOW_DAYS : Math.max(1, Math.round((end - start) / DAY_MS));
    return ids * availabilityCost(platformOf(q.platform) ?? 'vrbo', days);
  }
  if (path === '/reviews') return reviewsCost(platformOf(q.platform) ?? 'airbnb', Math.min(int(q.limit, REVIEWS_LIMIT.default), REVIEWS_LIMIT.max));
  return null;
}
