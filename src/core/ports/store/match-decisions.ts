// Match decisions (issue 27, item 4): an account's pins and rejections of cross-platform matches.
// A pinned pair is always a match for the account (score 1), a rejected one never. A pair is
// stored once, its two listings in order (listingKey), per account and environment. Part of the
// store port (../store.ts).
import type { KeyEnv } from '../../ids.js';

export type MatchDecision = 'pinned' | 'rejected';

export interface MatchListing {
  platform: string;
  listingId: string;
}

export interface MatchDecisionRow {
  a: MatchListing;
  b: MatchListing;
  decision: MatchDecision;
  decidedAt: number;
}

export interface MatchDecisionStore {
  /**
   * Pins or rejects the pair for the account (either order: one row), replacing an earlier
   * decision; answers the row, or 'limit' when the pair is new and the account (in this key
   * environment) already keeps `maxCount` decisions.
   */
  setMatchDecision(accountId: string, env: KeyEnv, a: MatchListing, b: MatchListing, decision: MatchDecision, at: number, maxCount: number): Promise<MatchDecisionRow | 'limit'>;
  /** Forgets the account's decision on the pair (either order); false when there was none. */
  clearMatchDecision(accountId: string, env: KeyEnv, a: MatchListing, b: MatchListing): Promise<boolean>;
  /** The account's decisions on pairs with this listing, oldest first. */
  matchDecisionsOf(accountId: string, env: KeyEnv, listing: MatchListing): Promise<MatchDecisionRow[]>;
}
