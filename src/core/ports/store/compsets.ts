// Comp sets (issue 27, item 2): an account's saved sets of comparable listings (the listings
// observed within a radius of an anchor listing, optionally of one bedroom count), and the
// coordinates observations recorded, which comp sets and bounding boxes select by. Part of the
// store port (../store.ts).
import type { KeyEnv } from '../../ids.js';

export interface CompSetRow {
  /** cs_… */
  id: string;
  accountId: string;
  env: KeyEnv;
  /** Unique among the account's comp sets of the environment (deleted ones aside). */
  name: string;
  anchorPlatform: string;
  anchorListingId: string;
  anchorLat: number;
  anchorLng: number;
  radiusMeters: number;
  bedrooms: number | null;
  platforms: string[] | null;
  createdAt: number;
}

export type NewCompSet = CompSetRow;

/** A listing's latest observed place (and bedroom count, when observed). */
export interface PlacedListing {
  platform: string;
  listingId: string;
  lat: number;
  lng: number;
  bedrooms: number | null;
}

export interface CompSetStore {
  /**
   * Creates a comp set unless the account already has one of that name in the environment
   * ('name_taken') or `maxCount` of them there ('limit'), checked in the same transaction.
   */
  createCompSet(c: NewCompSet, maxCount: number): Promise<CompSetRow | 'limit' | 'name_taken'>;
  /** The account's comp sets of one environment, not deleted, newest first (createdAt, then id). */
  listCompSets(accountId: string, env: KeyEnv): Promise<CompSetRow[]>;
  /** A comp set, unless deleted. */
  getCompSet(id: string): Promise<CompSetRow | null>;
  /** Marks it deleted; null if it is not the account's (or already deleted). */
  deleteCompSet(id: string, accountId: string, at: number): Promise<CompSetRow | null>;
}
