// The booking inference the market metrics read (issue 27, item 1), behind one small adapter: a
// listing's calendar observations in, each night's state and the bookings out, as
// calendar-diff/1 (./bookings.ts, docs/analytics.md) reads them.
import type { PriceRow } from '../ports/history.js';
import type { ObservationRow } from '../ports/store.js';
import { BOOKING_METHOD, type NightState, inferBookings } from './bookings.js';

export interface InferredBooking {
  checkIn: string;
  checkOut: string;
  nights: number;
  /** Days from booking to check-in; null when the booking was already taken when first observed (only a floor is known). */
  leadTimeDays: number | null;
  lastPriceSeen: number | null;
}

export interface ListingInference {
  nights: { date: string; state: NightState }[];
  bookings: InferredBooking[];
}

/** The id of the inference method the booked figures use. */
export const inferenceMethod = (): string => BOOKING_METHOD;

/** A price row's stay: check-in and check-out from its key (`checkIn/checkOut/adults`, after `@` for a search). */
export function stayOfKey(key: string): { checkIn: string; checkOut: string } | null {
  const stay = key.includes('@') ? key.slice(key.lastIndexOf('@') + 1) : key;
  const m = /^(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})\//.exec(stay);
  return m ? { checkIn: m[1]!, checkOut: m[2]! } : null;
}

/** Each night of [from, to) of one listing, and the bookings its calendar observations imply. */
export function inferListing(days: readonly ObservationRow<'day'>[], prices: readonly PriceRow[], from: string, to: string): ListingInference {
  const r = inferBookings({ days, prices, from, to });
  return {
    nights: r.nights.map((n) => ({ date: n.date, state: n.state })),
    bookings: r.bookings.map((b) => ({
      checkIn: b.checkIn,
      checkOut: b.checkOut,
      nights: b.nights,
      leadTimeDays: b.bookedAfter === null ? null : b.leadTimeDays,
      lastPriceSeen: b.lastPriceSeen,
    })),
  };
}
