// Collections (issue 38, item 1): an account's standing orders to cover a whole market: an area
// (a searched place, a box or a comp set), platforms, how far ahead calendars are kept, a cadence,
// which rates to keep, and a daily credit budget. Part of the store port (../store.ts).
import type { KeyEnv } from '../../ids.js';

export const COLLECTION_CADENCES = ['daily', 'weekly'] as const;
export type CollectionCadence = (typeof COLLECTION_CADENCES)[number];
/**
 * Which rates a collection keeps: `auto`, each night's rate where the platform's calendar states
 * one, otherwise a sampled stay's quote (stated per platform in the collection's answer);
 * `sampled`, sampled stays' quotes on every platform; `none`, calendars only.
 */
export const COLLECTION_RATES = ['auto', 'sampled', 'none'] as const;
export type CollectionRates = (typeof COLLECTION_RATES)[number];
export type CollectionStatus = 'active' | 'paused' | 'deleted';

/** What a collection covers: exactly one of a place searched, a box, or a comp set. */
export type CollectionArea = { location: string } | { bbox: [minLng: number, minLat: number, maxLng: number, maxLat: number] } | { compSet: string };

export interface CollectionRow {
  /** col_… */
  id: string;
  accountId: string;
  env: KeyEnv;
  /** Unique among the account's collections of the environment (deleted ones aside). */
  name: string;
  area: CollectionArea;
  platforms: string[];
  horizonNights: number;
  cadence: CollectionCadence;
  rates: CollectionRates;
  maxCreditsPerDay: number;
  status: CollectionStatus;
  /** The key that created it, whose account pays its runs and as which they are made (null: made before runs existed; its runs refuse). */
  keyId: string | null;
  createdAt: number;
  updatedAt: number;
}

/** What PATCH may change. */
export type CollectionPatch = Partial<Pick<CollectionRow, 'name' | 'platforms' | 'horizonNights' | 'cadence' | 'rates' | 'maxCreditsPerDay'>> & { status?: 'active' | 'paused' };

export interface CollectionStore {
  /**
   * Creates a collection unless the account already has one of that name in the environment
   * ('name_taken') or `maxCount` of them there ('limit'), checked in the same transaction.
   */
  createCollection(c: Omit<CollectionRow, 'updatedAt'>, maxCount: number): Promise<CollectionRow | 'limit' | 'name_taken'>;
  /** The account's collections of one environment, not deleted, newest first (createdAt, then id). */
  listCollections(accountId: string, env: KeyEnv): Promise<CollectionRow[]>;
  /** A collection, unless deleted. */
  getCollection(id: string): Promise<CollectionRow | null>;
  /** Applies a patch to the account's collection; null if it is not the account's (or deleted); 'name_taken' if the new name is. */
  updateCollection(id: string, accountId: string, patch: CollectionPatch, at: number): Promise<CollectionRow | 'name_taken' | null>;
  /** Marks it deleted; null if it is not the account's (or already deleted). */
  deleteCollection(id: string, accountId: string, at: number): Promise<CollectionRow | null>;
  /** Every active collection of every account (the runner plans their passes), oldest first. */
  activeCollections(): Promise<CollectionRow[]>;
}

/**
 * The work of a collection's passes (issue 38, item 5): one row per item of a pass (`track:…` a
 * listing whose calendar the pass fetches, `discover:…` an area discovery searches), due at an
 * instant spread over the pass's interval. Any instance on the store claims due items under a
 * lease it renews while it works; an item whose lease ran out (its instance died) is claimed
 * again; an item is finished once, by the instance holding it.
 */
export interface CollectionItemKey {
  collectionId: string;
  pass: number;
  item: string;
}

/**
 * One claim of an item: its key and the claim's number (`attempts` when it was claimed). Renewing,
 * finishing or giving back an item takes the claim, so a holder whose lease ran out and whose item
 * was claimed again since (by another instance, or another worker of the same one) holds nothing.
 */
export interface CollectionItemClaim extends CollectionItemKey {
  attempts: number;
}

export interface CollectionItemRow extends CollectionItemKey {
  dueAt: number;
  claimedBy: string | null;
  leaseUntil: number | null;
  /** How many times it was claimed (more than once: an instance died holding it, or gave it back). */
  attempts: number;
  doneAt: number | null;
  outcome: string | null;
  charged: number;
}

export interface CollectionPassProgress {
  pass: number;
  items: number;
  done: number;
  charged: number;
  /** When its last item was finished (null while any is open). */
  endedAt: number | null;
}

export interface CollectionWorkStore {
  /** Adds a pass's items (an item already in the pass is left as it is); returns how many were added. */
  planCollectionItems(collectionId: string, pass: number, items: readonly { item: string; dueAt: number }[]): Promise<number>;
  /**
   * Claims up to `limit` items due by `now` that no live lease holds (never claimed, or their lease
   * ran out), earliest due first, for `owner` until `leaseUntil`. Concurrent claimers on a shared
   * store never get the same item (PostgreSQL: FOR UPDATE SKIP LOCKED).
   */
  claimCollectionItems(owner: string, now: number, leaseUntil: number, limit: number, only?: ClaimFilter): Promise<CollectionItemRow[]>;
  /** Extends the leases `owner` still holds on these items; returns those it still held. */
  renewCollectionItems(owner: string, items: readonly CollectionItemClaim[], leaseUntil: number): Promise<CollectionItemKey[]>;
  /** Finishes an item `owner` still holds: false when it does not (its lease ran out and another took it, or it is done). */
  finishCollectionItem(claim: CollectionItemClaim, owner: string, done: { at: number; outcome: string; charged: number }): Promise<boolean>;
  /** Gives an item `owner` holds back, due again at `dueAt` (the day's budget spent, say); false when it does not hold it. */
  releaseCollectionItem(claim: CollectionItemClaim, owner: string, dueAt: number): Promise<boolean>;
  /** Each pass of a collection: its items, how many are done, what they were charged; latest pass first. */
  collectionPasses(collectionId: string): Promise<CollectionPassProgress[]>;
  /**
   * Keeps a discovery page's answer (JSON) under the request id it was charged under, until the
   * discovery ends; a page kept again under the same id is left as it was.
   */
  keepCollectionPage(collectionId: string, pass: number, requestId: string, page: string, charged: number, at: number): Promise<void>;
  /** The pages kept under these request ids. */
  collectionPages(collectionId: string, requestIds: readonly string[]): Promise<{ requestId: string; page: string; charged: number }[]>;
  /** Removes the pages a pass's discovery kept (it ended). */
  dropCollectionPages(collectionId: string, pass: number): Promise<void>;
  /** The latest discovery that finished (its pass and what it was charged), or null before one has. */
  lastDiscovery(collectionId: string): Promise<{ pass: number; charged: number } | null>;
  /**
   * Reserves `amount` of the collection's budget of UTC day `day` (its reservations of an earlier
   * day forgotten) unless that would pass `max`: false then. Instances sharing the collection
   * reserve before each call, so together they never spend past it.
   */
  reserveCollectionBudget(collectionId: string, day: string, amount: number, max: number): Promise<boolean>;
  /** Gives back what a reservation of `day` did not spend (nothing if the day has turned). */
  returnCollectionBudget(collectionId: string, day: string, amount: number): Promise<void>;
  /** What the collection reserved (spent, or still spending) on `day`. */
  collectionBudgetUsed(collectionId: string, day: string): Promise<number>;
  /** Records the listings a pass's discovery found (new ones join; known ones are seen again). */
  recordCollectionListings(collectionId: string, pass: number, listings: readonly CollectionListingFound[]): Promise<void>;
  /** The listings every discovery of the collection found, by platform and id. */
  collectionListings(collectionId: string): Promise<CollectionListing[]>;
  /** Credits charged to the account by calls of these request ids (a call its item made before its instance died). */
  chargedForRequests(accountId: string, requestIds: readonly string[]): Promise<{ requestId: string; charged: number }[]>;
}

/** Narrows a claim: items of these collections only; items due by `dueBy` rather than by now (a pass made at once). */
export interface ClaimFilter {
  collectionIds?: readonly string[];
  dueBy?: number;
}

export interface CollectionListingFound {
  platform: string;
  listingId: string;
  bedrooms: number | null;
}

export interface CollectionListing extends CollectionListingFound {
  firstPass: number;
  /** The latest pass whose discovery found it: one before the latest discovery's means gone. */
  lastPass: number;
}
