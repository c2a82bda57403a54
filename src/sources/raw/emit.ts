// The simulated upstream's path through raw rows: per platform, unified objects from the sandbox
// world are emitted as the platform's actor rows (emit-<platform>.ts) and read back by that
// platform's normalizer, exactly as rows from a real provider would be. The lane for a platform
// pairs its emitter and normalizer under one set of row types, so a mismatch fails to compile.
import type { EnabledPlatform } from '../../core/platforms.js';
import type { Availability, Offer, Price, Property, Review } from '../../core/schemas/resources.js';
import type { StayQuery } from '../../core/upstream.js';
import * as airbnbRaw from './emit-airbnb.js';
import * as bookingRaw from './emit-booking.js';
import * as googleRaw from './emit-google.js';
import * as vrboRaw from './emit-vrbo.js';
import * as airbnb from '../normalize/airbnb.js';
import * as booking from '../normalize/booking.js';
import type { CalendarContext, ListingBody, PriceContext, ReviewContext, SearchContext } from '../normalize/common.js';
import * as google from '../normalize/google.js';
import * as vrbo from '../normalize/vrbo.js';

interface Emitter<S, L, Q, C, R> {
  emitSearchItem(x: Property, stay: StayQuery | undefined): S;
  emitListing(x: ListingBody): L;
  emitQuote(x: Price, stay: StayQuery): Q;
  emitCalendar(x: Availability): C[];
  emitReview?: (x: Review) => R;
}

interface Normalizer<S, L, Q, C, R> {
  normalizeSearchItem(raw: S, ctx: SearchContext): Property;
  normalizeListing(raw: L): ListingBody;
  normalizePrice(raw: Q, ctx: PriceContext): Price | null;
  normalizeCalendar(rows: readonly C[], ctx: CalendarContext): Availability;
  normalizeReview?: (raw: R, ctx: ReviewContext) => Review;
}

/** Unified → raw rows → unified, per kind of answer. */
export interface Lane {
  search(x: Property, stay: StayQuery | undefined): Property;
  listing(x: ListingBody): ListingBody;
  /** null when the emitted row states no price (never, for a world quote). */
  price(x: Price, stay: StayQuery): Price | null;
  availability(x: Availability, window?: { startDate: string; endDate: string }): Availability;
  /** null on platforms without a reviews normalizer (google: the service refuses its reviews). */
  reviews(xs: readonly Review[], listingId: string): Review[] | null;
}

function lane<S, L, Q, C, R>(e: Emitter<S, L, Q, C, R>, n: Normalizer<S, L, Q, C, R>): Lane {
  const { emitReview } = e;
  const { normalizeReview } = n;
  return {
    search: (x, stay) => n.normalizeSearchItem(e.emitSearchItem(x, stay), { stay }),
    listing: (x) => n.normalizeListing(e.emitListing(x)),
    price: (x, stay) => n.normalizePrice(e.emitQuote(x, stay), { stay }),
    availability: (x, window) => n.normalizeCalendar(e.emitCalendar(x), { listingId: x.listingId, ...window }),
    reviews: (xs, listingId) => (emitReview && normalizeReview ? xs.map((x) => normalizeReview(emitReview(x), { listingId })) : null),
  };
}

export const LANES: Record<EnabledPlatform, Lane> = {
  airbnb: lane(airbnbRaw, airbnb),
  booking: lane(bookingRaw, booking),
  vrbo: lane(vrboRaw, vrbo),
  google: lane(googleRaw, google),
};

/** Google-mode comparison: the hotel's prices[] row read back by the google normalizer. */
export function offersLane(x: { property: string; offers: Offer[] }, stay: StayQuery): { property: string; offers: Offer[] } {
  return google.normalizeHotelOffers(googleRaw.emitHotelOffers(x, stay), { stay });
}
