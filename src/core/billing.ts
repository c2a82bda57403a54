// Billing formulas (spec "Billing rules", D1–D4, D25). Credits are integers.
import type { Platform } from './platforms.js';

const SEARCH_RATE: Partial<Record<Platform, number>> = { airbnb: 2, booking: 1, vrbo: 1 };
const REVIEW_RATE: Partial<Record<Platform, number>> = { airbnb: 5, booking: 1, vrbo: 1 };

/** D3: one search leg; an empty or failed leg costs 0. */
export function searchLegCost(platform: Platform, results: number): number {
  if (results <= 0) return 0;
  if (platform === 'google') return Math.ceil(results / 20) * 15;
  return Math.max(5, (SEARCH_RATE[platform] ?? 1) * results);
}

/** D5: the worst case of a search is every leg full at `limit`. */
export function searchWorstCase(platforms: Platform[], limit: number): number {
  return platforms.reduce((sum, p) => sum + searchLegCost(p, limit), 0);
}

/** D4: zero reviews costs 0. */
export function reviewsCost(platform: Platform, reviews: number): number {
  return reviews <= 0 ? 0 : Math.max(5, (REVIEW_RATE[platform] ?? 1) * reviews);
}

export const PRICE_COST = 3;
export const GOOGLE_COMPARE_COST = 30; // D1

/** D25: with or without dates. */
export const listingCost = (platform: Platform) => (platform === 'vrbo' ? 15 : 3);

/** D2: per listing. */
export function availabilityCost(platform: Platform, days: number): number {
  return Math.max(platform === 'vrbo' ? 12 : 5, Math.ceil(days / 2));
}

/**
 * D26 Family S: a lookup (by id or url) or a sub-resource costs 1; batch, search and presets 1 per
 * returned row; with-details 2 per returned row (1 search + 1 detail); missing rows 0.
 */
export const STAY_LOOKUP_COST = 1;
export const stayRowsCost = (rows: number, withDetails = false) => Math.max(0, rows) * (withDetails ? 2 : 1);
