// What each kind of observation holds (issue 34): one schema per kind, the single source of the
// history port's value types (src/core/ports/store/observations.ts). The live path builds these
// values (src/core/observe.ts) and the store keeps them as JSON; the port's implementations read
// them back typed, so no analytic module casts an observation's value.
import { z } from 'zod';
import { once } from './once.js';

const money = () => z.number().nullable();

/** A listing as one search showed it: its price for the search's stay (if dated), where it is, its bedrooms. */
export const searchValueSchema = once(() =>
  z.strictObject({
    name: z.string().nullable(),
    nightlyPrice: money(),
    totalPrice: money(),
    lat: z.number().optional(),
    lng: z.number().optional(),
    bedrooms: z.number().optional(),
  }),
);

/** A listing's own facts. */
export const listingValueSchema = once(() =>
  z.strictObject({
    name: z.string().nullable(),
    propertyType: z.string().nullable(),
    maxOccupancy: z.number().nullable(),
    bedrooms: z.number().nullable(),
    bathrooms: z.number().nullable(),
    lat: z.number().optional(),
    lng: z.number().optional(),
  }),
);

/** A listing's rating. */
export const ratingValueSchema = once(() =>
  z.strictObject({
    guestRating: z.number().nullable(),
    ratingScale: z.number().nullable(),
    reviewCount: z.number().nullable(),
  }),
);

/** A quote for one stay (fees as the quote states them). */
export const quoteValueSchema = once(() =>
  z.strictObject({
    nightlyPrice: money(),
    totalPrice: money(),
    fees: z.unknown(),
  }),
);

/** One calendar night. */
export const dayValueSchema = once(() =>
  z.strictObject({
    available: z.boolean(),
    minNights: z.number().nullable(),
    checkIn: z.boolean().nullable(),
    checkOut: z.boolean().nullable(),
    bookable: z.boolean().nullable(),
  }),
);

export type SearchValue = z.infer<ReturnType<typeof searchValueSchema>>;
export type ListingValue = z.infer<ReturnType<typeof listingValueSchema>>;
export type RatingValue = z.infer<ReturnType<typeof ratingValueSchema>>;
export type QuoteValue = z.infer<ReturnType<typeof quoteValueSchema>>;
export type DayValue = z.infer<ReturnType<typeof dayValueSchema>>;

/** The value of each kind of observation. */
export interface ObservationValues {
  search: SearchValue;
  listing: ListingValue;
  rating: RatingValue;
  quote: QuoteValue;
  day: DayValue;
}

/** Each kind's schema: what a test or an importer checks a stored value against. */
export const observationValueSchemas = {
  search: searchValueSchema,
  listing: listingValueSchema,
  rating: ratingValueSchema,
  quote: quoteValueSchema,
  day: dayValueSchema,
} as const;
