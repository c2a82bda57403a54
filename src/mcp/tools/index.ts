// The seven tools, in the order tools/list gives them (the provider's published list).
import type { ToolDef } from '../tool.js';
import { checkAvailability } from './check-availability.js';
import { comparePrices } from './compare-prices.js';
import { getJob } from './get-job.js';
import { getListing } from './get-listing.js';
import { getPrice } from './get-price.js';
import { getReviews } from './get-reviews.js';
import { searchStays } from './search-stays.js';

export const TOOLS: readonly ToolDef[] = [searchStays, checkAvailability, getListing, getPrice, comparePrices, getReviews, getJob];
