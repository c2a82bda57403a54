// Billing formulas (spec "Billing rules", D1–D4, D25, D26). Credits are integers. The rates are
// named once here; the texts at the end (route descriptions, MCP tool descriptions) are made from
// them, so a rate changes in one place.
import type { Platform } from './platforms.js';

/** Search: credits per result on each platform, at least SEARCH_MIN a leg that returned any. */
const SEARCH_RATE: Partial<Record<Platform, number>> = { airbnb: 2, booking: 1, vrbo: 1 };
const SEARCH_MIN = 5;
/** Google: GOOGLE_PAGE_COST per page of GOOGLE_PAGE results. */
const GOOGLE_PAGE = 20;
const GOOGLE_PAGE_COST = 15;
/** Reviews: credits per review, at least REVIEWS_MIN when any. */
const REVIEW_RATE: Partial<Record<Platform, number>> = { airbnb: 5, booking: 1, vrbo: 1 };
const REVIEWS_MIN = 5;
/** Availability (D2): per listing, at least its base, else one credit per two days. */
const AVAILABILITY_BASE = 5;
const VRBO_AVAILABILITY_BASE = 12;
const LISTING_COST = 3;
const VRBO_LISTING_COST = 15;

/** D3: one search leg; an empty or failed leg costs 0. */
export function searchLegCost(platform: Platform, results: number): number {
  if (results <= 0) return 0;
  if (platform === 'google') return Math.ceil(results / GOOGLE_PAGE) * GOOGLE_PAGE_COST;
  return Math.max(SEARCH_MIN, (SEARCH_RATE[platform] ?? 1) * results);
}

/** D5: the worst case of a search is every leg full at `limit`. */
export function searchWorstCase(platforms: Platform[], limit: number): number {
  return platforms.reduce((sum, p) => sum + searchLegCost(p, limit), 0);
}

/** D4: zero reviews costs 0. */
export function reviewsCost(platform: Platform, reviews: number): number {
  return reviews <= 0 ? 0 : Math.max(REVIEWS_MIN, (REVIEW_RATE[platform] ?? 1) * reviews);
}

export const PRICE_COST = 3;
export const GOOGLE_COMPARE_COST = 30; // D1

/** D25: with or without dates. */
export const listingCost = (platform: Platform) => (platform === 'vrbo' ? VRBO_LISTING_COST : LISTING_COST);

/** D2: per listing. */
export function availabilityCost(platform: Platform, days: number): number {
  return Math.max(platform === 'vrbo' ? VRBO_AVAILABILITY_BASE : AVAILABILITY_BASE, Math.ceil(days / 2));
}

/**
 * D26 Family S: a lookup (by id or url) or a sub-resource costs 1; batch, search and presets 1 per
 * returned row; with-details 2 per returned row (1 search + 1 detail); missing rows 0.
 */
export const STAY_LOOKUP_COST = 1;
export const stayRowsCost = (rows: number, withDetails = false) => Math.max(0, rows) * (withDetails ? 2 : 1);

const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;
const rates = (r: Partial<Record<Platform, number>>) => (['airbnb', 'booking', 'vrbo'] as const).map((p) => `${p} ${r[p]}`).join(', ');

/** The rates in words, for the OpenAPI descriptions and the MCP tools. */
export const BILLING_TEXT = {
  search: `credits per result per platform (${rates(SEARCH_RATE)}, min ${SEARCH_MIN}; google ${GOOGLE_PAGE_COST} per page)`,
  reviews: `Per review: ${rates(REVIEW_RATE)} credits, minimum ${REVIEWS_MIN}; zero reviews cost 0`,
  price: credits(PRICE_COST),
  listing: `${credits(LISTING_COST)} (vrbo ${VRBO_LISTING_COST})`,
  availability: `max(${AVAILABILITY_BASE}, ceil(days/2)) credits`,
  availabilityVrbo: `vrbo base ${VRBO_AVAILABILITY_BASE}`,
  compareGoogle: credits(GOOGLE_COMPARE_COST),
  compareLeg: `${credits(PRICE_COST)} per successful leg`,
  stayLookup: credits(STAY_LOOKUP_COST),
  stayRow: `${credits(stayRowsCost(1))} per returned row`,
  stayRowDetails: `${credits(stayRowsCost(1, true))} per returned row: ${stayRowsCost(1)} search + ${stayRowsCost(1, true) - stayRowsCost(1)} detail`,
} as const;
