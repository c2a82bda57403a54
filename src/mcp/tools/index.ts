// The tools, in the order tools/list gives them: the provider's published seven, the history (issue 26), then the market and find_matches (issue 27), then the inferred bookings (issues 27 and 37).
import type { ToolDef } from '../tool.js';
import { checkAvailability } from './check-availability.js';
import { comparePrices } from './compare-prices.js';
import { findMatches } from './find-matches.js';
import { getAvailabilityChanges } from './get-availability-changes.js';
import { getInferredBookings } from './get-inferred-bookings.js';
import { getJob } from './get-job.js';
import { getListing } from './get-listing.js';
import { getPrice } from './get-price.js';
import { getMarketMetrics } from './get-market-metrics.js';
import { getPriceHistory } from './get-price-history.js';
import { getReviews } from './get-reviews.js';
import { searchStays } from './search-stays.js';

export const TOOLS: readonly ToolDef[] = [
  searchStays,
  checkAvailability,
  getListing,
  getPrice,
  comparePrices,
  getReviews,
  getJob,
  getPriceHistory,
  getAvailabilityChanges,
  getMarketMetrics,
  findMatches,
  getInferredBookings,
];
