// The history port (issue 34): every read the analyst wing makes of what was observed, typed by
// observation kind (src/core/schemas/observations.ts), bounded (no read grows with the whole
// store's size: each is an index range of one listing, one place or one box), and the same for
// its two readers:
// - the store (src/store/sql/history.ts): what this deployment's live calls observed, served by
//   indexed columns; its reads write the store's queued observations first;
// - the sandbox world (src/sources/sandbox/history.ts): one synthetic history per listing, the
//   same whichever endpoint asks and whenever.
// Operations pick the reader by the key's environment (historyFor) and compute with the pure
// modules of src/core/analytics/.
import type { PlacedListing } from './store/compsets.js';
import type { ObservationRow, SeenListing } from './store/observations.js';

export interface ListingRef {
  platform: string;
  listingId: string;
}

/** A listing's own facts as last observed (its listing read, else what searches showed). */
export interface ListingFacts extends ListingRef {
  name: string | null;
  /** Where it was last placed: its listing read's coordinates, else the latest search row's that stated them. */
  lat: number | null;
  lng: number | null;
  /** Its listing read's bedrooms, else the latest search row's that stated them. */
  bedrooms: number | null;
  bathrooms: number | null;
  maxOccupancy: number | null;
}

/** A price row: a quote, or a dated search's row (its key names the stay). */
export type PriceRow = ObservationRow<'quote'> | ObservationRow<'search'>;

/**
 * The form of a kept summary: one more whenever its fields or the inference it keeps change, so a
 * store makes again every summary it kept of another form.
 */
export const SUMMARY_FORM = 4;

/** A listing's booking inference over what was observed of it, as a store keeps it (src/core/analytics/listing-summary.ts makes it). */
export interface ListingSummary {
  /** SUMMARY_FORM when it was made. */
  form: number;
  method: string;
  /** The first night classified; states[i] is the night `first` + i days. Null: no night observed. */
  first: string | null;
  /** A letter a night: a available, b booked, k blocked, u unbookable, ? unknown (not observed). */
  states: string;
  /** A character a night: its state's confidence in twentieths (listing-summary.ts, confidenceOf), read by the booked rate's interval. */
  confidences: string;
  /**
   * Each night's calendar rows (listing-summary.ts, `seenWithin`): how many, the first first seen
   * and the last last seen (indexes into the instants it lists first), so a window's sample needs
   * no calendar row.
   */
  seen: string;
  /**
   * Its bookings, five numbers each (flat: a city's summaries decode without an object a
   * booking): check-in (nights after `first`), nights, lead time in days (null: taken when first
   * observed, only a floor is known), the nightly price last seen before it was taken (null: none)
   * and that price's currency, an index into `currencies` (null: none).
   */
  bookings: (number | null)[];
  /**
   * Its booked nights with a price (a nightly price seen, before the night was taken, for a stay
   * including it), in runs of consecutive nights priced the same, four numbers each (flat): first
   * night (nights after `first`), nights, price, and its currency, an index into `currencies` (null: none).
   */
  priced: (number | null)[];
  currencies: string[];
}

/** What the market reads of a listing in scope: its summary (which counts each night's calendar rows), its bedrooms, and its prices of the window. */
export interface ListingDigest extends ListingRef {
  bedrooms: number | null;
  /** Its booking inference over what was observed of it (null: no calendar was). */
  summary: ListingSummary | null;
  /** Its prices (quotes and dated searches) of stays checking in on a night asked: a row each. */
  prices: WindowPrice[];
}

/** A price row as the market reads it: the stay's check-in, the nightly price and when it was seen. */
export interface WindowPrice {
  checkIn: string;
  currency: string | null;
  nightly: number | null;
  firstSeen: number;
  lastSeen: number;
}

/** The summary of one listing from its rows (core/analytics/listing-summary.ts): given to the port, which keeps what it returns. */
export type Summarize = (days: readonly ObservationRow<'day'>[], prices: readonly PriceRow[], within?: DateSpan) => ListingSummary;

/** Dates, YYYY-MM-DD, both ends included. */
export interface DateSpan {
  from: string;
  to: string;
}

export interface HistoryPort {
  /**
   * One quote series (a listing's quotes of one stay, `key` = checkIn/checkOut/adults), oldest
   * first (first seen, then id): rows seen within [from, to] (epoch ms), after `after` (the
   * previous page's last), at most `limit`.
   */
  quoteSeries(q: ListingRef & { key: string; from: number; to: number; after?: { firstSeen: number; id: number } | null; limit?: number }): Promise<ObservationRow<'quote'>[]>;
  /** A listing's calendar rows of the nights in `nights`, by night, then oldest first. */
  calendar(l: ListingRef, nights: DateSpan): Promise<ObservationRow<'day'>[]>;
  /**
   * Many listings' digests for a window's nights, handed to `each` a bounded batch at a time (the
   * event loop yielded between batches). A listing's summary is computed with `summarize` from
   * everything observed of it, and the store keeps it until the listing's observations change:
   * a read of listings whose observations did not change since reads no calendar row, only each
   * one's kept summary, bedrooms and prices of stays checking in on the nights. `each` may throw
   * to stop the read.
   */
  digests(listings: readonly ListingRef[], nights: DateSpan, summarize: Summarize, each: (batch: ListingDigest[]) => void): Promise<void>;
  /**
   * What a listing's classification of some nights reads: its calendar and price rows (quotes and
   * dated searches), and the nights it classifies. The store: everything observed of it, every
   * night observed (so a night's state does not depend on the window asked); the sandbox world,
   * which has no first or last observation: the nights asked, with the month either side.
   * `span` is null when no night of it was observed. `ratings`: its rating and review count
   * series (the store's, oldest first; the sandbox world has none), whose rises date its reviews
   * for calendar-diff/2 (src/core/analytics/review-series.ts).
   */
  observedFor(l: ListingRef, nights: DateSpan): Promise<{ days: ObservationRow<'day'>[]; prices: PriceRow[]; span: DateSpan | null; ratings: ObservationRow<'rating'>[] }>;
  /** The listings searches of a place (a location key, any dates) showed on `platforms`, by platform and id. */
  listingsOfPlace(q: { place: string; platforms: readonly string[] }): Promise<ListingRef[]>;
  /**
   * The listings searches of a place (a location key, src/core/observe.ts; any dates) showed on
   * `platforms`, each with when it was first and last seen there and how often, and a name it
   * showed; with, per platform, when the place was last searched there. Only listings seen
   * within [from, to] (epoch ms). By first seen, platform and id.
   */
  listingsShownIn(q: { place: string; platforms: readonly string[]; from: number; to: number }): Promise<{ listings: SeenListing[]; lastSearched: Record<string, number> }>;
  /**
   * Listings of `platforms` whose latest recorded coordinates (a listing read's, else the latest
   * search row's that had them) fall within the box, inclusive; by platform and id.
   */
  listingsWithin(q: { minLat: number; maxLat: number; minLng: number; maxLng: number; platforms: readonly string[] }): Promise<PlacedListing[]>;
  /** Where a listing is: its latest recorded coordinates (a listing read's or a search row's), or null when none recorded them. */
  placeOf(l: ListingRef): Promise<{ lat: number; lng: number } | null>;
  /** The facts of each listing asked that was observed, in the order asked. */
  listingFacts(listings: readonly ListingRef[]): Promise<ListingFacts[]>;
  /**
   * Listings of `platforms` that a search which showed the listing also showed (the same
   * location and stay), at most `limit`, by platform and id, each with a name it showed; and the
   * name the listing itself showed there (null: none, or never shown by a search).
   */
  shownWith(l: ListingRef, q: { platforms: readonly string[]; limit: number }): Promise<{ name: string | null; listings: (ListingRef & { name: string | null })[] }>;
  /** Whether anything of this listing was ever observed (and is still kept). */
  observedListing(l: ListingRef): Promise<boolean>;
}
