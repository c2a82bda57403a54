// Parameter sets of every Family U operation, built (param-schemas.ts defines them; code that
// answers requests takes each from there on first use, so a CLI start builds only its own).
import type { z } from 'zod';
import { searchParams, reviewsParams, priceParams, priceCompareParams, availabilityParams, listingPathParams, listingParams, stayDatesParams, jobPathParams, topupBody } from './param-schemas.js';

export { MAX_ADULTS, MAX_CHILDREN, MAX_CHILD_AGE, MAX_ROOMS, REVIEW_SORTS, SEARCH_SORTS } from './param-schemas.js';

export const SearchParams = searchParams();
export const ReviewsParams = reviewsParams();
export const PriceParams = priceParams();
export const PriceCompareParams = priceCompareParams();
export const AvailabilityParams = availabilityParams();
export const ListingPathParams = listingPathParams();
export const ListingParams = listingParams();
export const StayDatesParams = stayDatesParams();
export const JobPathParams = jobPathParams();
export const TopupBody = topupBody();

export type SearchInput = z.infer<typeof SearchParams>;
export type ReviewsInput = z.infer<typeof ReviewsParams>;
export type PriceInput = z.infer<typeof PriceParams>;
export type PriceCompareInput = z.infer<typeof PriceCompareParams>;
export type AvailabilityInput = z.infer<typeof AvailabilityParams>;
export type ListingInput = z.infer<typeof ListingParams> & z.infer<typeof ListingPathParams>;
export type TopupInput = z.infer<typeof TopupBody>;
