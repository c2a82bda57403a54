// Observations (issue 26): what the live path received from an upstream, kept as the analyst's
// memory. One series per platform, listing, kind and key; a value equal to its series' latest
// extends that row (last seen, times seen) instead of adding one, so a query re-run while nothing
// changed adds no rows. Part of the store port (../store.ts).

/** What was observed: a search row's price in a location, a listing's facts or rating, a quote for a stay, a calendar day. */
export const OBSERVATION_KINDS = ['search', 'listing', 'rating', 'quote', 'day'] as const;
export type ObservationKind = (typeof OBSERVATION_KINDS)[number];

export interface NewObservation {
  platform: string;
  /** The platform's own listing id. */
  listingId: string;
  kind: ObservationKind;
  /**
   * Which series of the listing: the location searched (search), `checkIn/checkOut/adults` (quote),
   * the date (day); '' for the listing itself (listing, rating).
   */
  key: string;
  currency: string | null;
  /** The normalized values; equal values (as JSON) are the same observation. */
  value: unknown;
}

export interface ObservationRow extends NewObservation {
  id: number;
  /** Who served it: an actor id, `simulated`. */
  source: string;
  firstSeen: number;
  lastSeen: number;
  timesSeen: number;
}

export interface SeriesQuery {
  platform: string;
  listingId: string;
  kind: ObservationKind;
  key: string;
  from: number;
  to: number;
  after?: { firstSeen: number; id: number } | null;
  limit?: number;
}

export interface SeenListing {
  platform: string;
  listingId: string;
  name: string | null;
  firstSeen: number;
  lastSeen: number;
  timesSeen: number;
}

export interface ObservationStore {
  /**
   * Records what one upstream answer (served by `source`, received at `at`) held, in one
   * transaction: each observation equal to its series' latest extends it, any other starts a new
   * row. Returns how many rows were added and how many extended.
   */
  recordObservations(list: readonly NewObservation[], source: string, at: number): Promise<{ added: number; extended: number }>;
  /**
   * Records an answer as recordObservations does, later (the live path: its response does not
   * wait for the write): the answers queued within about a second are written in one
   * transaction, sooner when no answer follows for a moment. A failed write is a gap in the
   * history, not an error. This store's reads of observations, recordObservations and close first
   * write what is queued; another process (or instance) sees it within at most about a second.
   */
  queueObservations(list: readonly NewObservation[], source: string, at: number): void;
  /** Writes what is queued now; settles when every answer queued so far is written (or failed). */
  observationsWritten(): Promise<void>;
  /**
   * A series (platform, listing, kind, key), oldest first (first seen, then id): its rows seen
   * within [from, to] (epoch ms; a row seen over a span that overlaps it), after `after` (a row's
   * first seen and id: the previous page's last), at most `limit` (default: all).
   */
  observationSeries(s: SeriesQuery): Promise<ObservationRow[]>;
  /** Every row of a listing's series of one kind whose key is within [keyFrom, keyTo] (text order: dates sort as dates), by key, then oldest first. */
  observationsOfListing(q: { platform: string; listingId: string; kind: ObservationKind; keyFrom: string; keyTo: string }): Promise<ObservationRow[]>;
  /**
   * The listings searches of `location` (a location key, src/core/observe.ts; any dates) showed on
   * `platforms`, each with when it was first and last seen there and how often, and a name it
   * showed; with, per platform, when the location was last searched there. Only listings seen
   * within [from, to].
   */
  listingsSeenIn(q: { location: string; platforms: readonly string[]; from: number; to: number }): Promise<{ listings: SeenListing[]; lastSearched: Record<string, number> }>;
  /**
   * A page of every row (any platform, listing and kind) last seen at or after `since` (epoch ms),
   * in id order after `afterId` (the previous page's last id; 0 to start), at most `limit`: what
   * `stays history export` streams page by page, never the whole store at once.
   */
  observationsSince(q: { since: number; afterId: number; limit: number }): Promise<ObservationRow[]>;
  /** Whether anything of this listing was ever observed (and is still kept). */
  observedListing(platform: string, listingId: string): Promise<boolean>;
}
