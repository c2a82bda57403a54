// Observations (issue 26): what the live path received from an upstream, kept as the analyst's
// memory. One series per platform, listing, kind and key; a value equal to its series' latest
// extends that row (last seen, times seen) instead of adding one, so a query re-run while nothing
// changed adds no rows. Part of the store port (../store.ts).

import type { ObservationValues } from '../../schemas/observations.js';

/** What was observed: a search row's price in a location, a listing's facts or rating, a quote for a stay, a calendar day. */
export const OBSERVATION_KINDS = ['search', 'listing', 'rating', 'quote', 'day'] as const;
export type ObservationKind = (typeof OBSERVATION_KINDS)[number];

interface ObservationOf<K extends ObservationKind> {
  platform: string;
  /** The platform's own listing id. */
  listingId: string;
  kind: K;
  /**
   * Which series of the listing: the location searched (search; `location@checkIn/checkOut/adults`
   * for a dated search), `checkIn/checkOut/adults` (quote), the date (day: the night); '' for the
   * listing itself (listing, rating).
   */
  key: string;
  currency: string | null;
  /** The normalized values (src/core/schemas/observations.ts); equal values (as JSON) are the same observation. */
  value: ObservationValues[K];
}

/** An observation of any kind: its value typed by its kind. */
export type NewObservation<K extends ObservationKind = ObservationKind> = K extends ObservationKind ? ObservationOf<K> : never;

interface Stored {
  id: number;
  /** Who served it: an actor id, `simulated`, `sandbox`. */
  source: string;
  firstSeen: number;
  lastSeen: number;
  timesSeen: number;
}

/** A stored observation (a run of equal values of its series): its value typed by its kind. */
export type ObservationRow<K extends ObservationKind = ObservationKind> = K extends ObservationKind ? ObservationOf<K> & Stored : never;

export interface SeenListing {
  platform: string;
  listingId: string;
  name: string | null;
  firstSeen: number;
  lastSeen: number;
  timesSeen: number;
}

/**
 * Who reads the history, and so which rows they see (issue 35, item 5). Rows recorded without an
 * account ('' : before accounts were kept, or by an operator) are seen by every reader.
 * - `account`: the reading account (null: the operator, who sees every row).
 * - `pooled`: false, only the account's own rows; true (STAYS_HISTORY_SCOPE=deployment), every
 *   account's calendars, listing facts, ratings, places and prices, but still only its own
 *   searches and quotes where they would show their keys (a search's location and stay, a quote's
 *   stay and party: other accounts' queries).
 */
export interface HistoryView {
  account: string | null;
  pooled: boolean;
}

export interface ObservationStore {
  /**
   * Records what one upstream answer (served by `source`, received at `at`) held, in one
   * transaction: each observation equal to its series' latest extends it, any other starts a new
   * row. Returns how many rows were added and how many extended. `account`: the account whose
   * call observed it (its rows are series of their own); '' or absent: recorded without one
   * (an operator's or a test's rows, which every reader sees).
   */
  recordObservations(list: readonly NewObservation[], source: string, at: number, account?: string): Promise<{ added: number; extended: number }>;
  /**
   * Records an answer as recordObservations does, later (the live path: its response does not
   * wait for the write): the answers queued within about a second are written in one
   * transaction, sooner when no answer follows for a moment. A failed write is a gap in the
   * history, not an error. This store's reads of observations, recordObservations and close first
   * write what is queued; another process (or instance) sees it within at most about a second.
   */
  queueObservations(list: readonly NewObservation[], source: string, at: number, account?: string): void;
  /** Writes what is queued now; settles when every answer queued so far is written (or failed). */
  observationsWritten(): Promise<void>;
  /**
   * A page of every row (any platform, listing and kind) last seen at or after `since` (epoch ms),
   * in id order after `afterId` (the previous page's last id; 0 to start), at most `limit`: what
   * `stays history export` streams page by page, never the whole store at once.
   */
  observationsSince(q: {
    since: number;
    afterId: number;
    limit: number;
    view?: HistoryView /** Only the listings this collection ever discovered. */;
    collectionId?: string;
  }): Promise<ObservationRow[]>;
}
