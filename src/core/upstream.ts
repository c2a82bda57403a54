// The upstream port: where live data comes from. One implementation per kind of source (the
// sandbox world, the simulated upstream, real providers later), composed per platform into
// ordered chains (src/sources/chain.ts). Listing bodies never carry a price or an identity echo:
// those are composed at read time (D20).
import type { EnabledPlatform } from './platforms.js';
import type { Availability, Offer, Price, Property, Review } from './schemas/resources.js';

/** A stay a price is asked for: dates, party and currency. */
export interface StayQuery {
  checkIn: string; // YYYY-MM-DD
  checkOut: string; // YYYY-MM-DD, after checkIn
  adults: number;
  children: number;
  childAges: number[];
  currency: string; // ISO-4217, upper case
}

export interface GoogleCompareQuery {
  name?: string | undefined;
  location?: string | undefined;
  googleHotelId?: string | undefined;
}

/** What a call asks of a platform: one actor (or chain of actors) serves each. */
export type Need = 'search' | 'listing' | 'price' | 'availability' | 'reviews' | 'compare';
export const NEEDS: readonly Need[] = ['search', 'listing', 'price', 'availability', 'reviews', 'compare'];

/** Who served (or failed) one call: for the leg's meta (`source`) and the operator's log. */
export interface SourceReport {
  platform: EnabledPlatform;
  need: Need;
  /** The source's name: an actor id (`owner~name`), "sandbox", "simulated". */
  source: string;
  ok: boolean;
  /** The error code of a failed call. */
  code?: string;
  ms: number;
  /** What the platform charged for the run, when it says (async runs; null for sync runs). */
  costUsd?: number | null;
  runId?: string | null;
  items?: number;
}

/** A map rectangle in degrees: west and east longitudes, south and north latitudes (west < east, south < north). */
export interface BBox {
  west: number;
  south: number;
  east: number;
  north: number;
}

/**
 * What an area search asks of a platform beyond a place (issue 38, discovery): the listings
 * inside a bounding box, optionally only those whose nightly price is in a band. Both go to the
 * platform, so its result cap applies after them.
 */
export interface SearchArea {
  bbox: BBox;
  /** A nightly price band (the platform's own nightly price filter; the simulated world reads each listing's base rate, USD). */
  priceMin?: number | undefined;
  priceMax?: number | undefined;
}

/** A platform's search answer that its result cap cut short (issue 38: truncation is never silent). */
export interface Truncation {
  /** The most rows the platform answers a query with. */
  cap: number;
  /** The rows it returned. */
  returned: number;
  /** How many results the platform said it had, when it says (null: it does not). */
  reported: number | null;
}

/** A capped search answer: its rows (in recommended order) and what was cut. JSON-safe, so it is cached as it is. */
export interface CappedRows {
  rows: Property[];
  truncated: Truncation;
}

/** Options of a platform search. */
export interface SearchOptions {
  currency: string;
  rooms: number;
  stay?: StayQuery | undefined;
  /** An area search (bbox, price band); the location is then only a label. */
  area?: SearchArea | undefined;
}

const isCapped = (value: unknown): value is CappedRows => typeof value === 'object' && value !== null && !Array.isArray(value) && 'truncated' in value && 'rows' in value;

/** The truncation of a search leg's value, or null when the platform answered in full. */
export function truncationOf(value: unknown): Truncation | null {
  return isCapped(value) ? value.truncated : null;
}

/**
 * A search candidate set read row by row: the sandbox's, whose rows are costly to make and of
 * which a recommended-order page reads only a prefix (Upstream.searchCandidates). Its JSON is
 * every row, as the array searchPlatform answers.
 */
export interface CandidateList {
  /** The i-th row in recommended order, or undefined past the end. */
  at(i: number): Property | undefined;
  /** Every row (made once, then the same array). */
  all(): readonly Property[];
  toJSON(): readonly Property[];
}

/** A search leg's value as the array of every row, whichever form the upstream answered in. */
export function allCandidates(value: unknown): Property[] {
  if (isCapped(value)) return value.rows;
  return (Array.isArray(value) ? value : (value as CandidateList).all()) as Property[];
}

/** A listing with the perceptual hashes (16 hex digits) of its photos, or null when none are known. */
export interface PhotographedListing {
  property: Property;
  photoHashes: string[] | null;
}

export interface Upstream {
  /** A name for logs and warnings (e.g. "sandbox", "simulated"). */
  readonly name: string;
  /** Answers carry a `simulated_upstream` warning so nobody mistakes them for real data. */
  readonly simulated: boolean;
  /** Seconds a call is expected to take, for estimatedSeconds and Retry-After. */
  estimateSeconds(platform: EnabledPlatform): number;
  searchPlatform(platform: EnabledPlatform, location: string, opts: { currency: string; rooms: number; stay?: StayQuery | undefined }): Promise<Property[]>;
  /** searchPlatform's rows, made as they are read (the sandbox world): a search leg asks this when there is one. */
  searchCandidates?(platform: EnabledPlatform, location: string, opts: { currency: string; rooms: number; stay?: StayQuery | undefined }): Promise<CandidateList>;
  /**
   * A search that says when the platform's cap cut it (CappedRows, issue 38) and can ask for an
   * area (opts.area: a bbox, a price band): a search leg asks this when there is one. An upstream
   * without it answers no area search (the leg refuses it) and never says it was capped.
   */
  searchAnswer?(platform: EnabledPlatform, location: string, opts: SearchOptions): Promise<Property[] | CandidateList | CappedRows>;
  listing(platform: EnabledPlatform, id: string, opts: { currency: string }): Promise<Property>;
  price(platform: EnabledPlatform, id: string, stay: StayQuery): Promise<Price>;
  availability(platform: EnabledPlatform, id: string, startDate: string, endDate: string): Promise<Availability>;
  reviews(platform: EnabledPlatform, id: string): Promise<Review[]>;
  compareGoogle(query: GoogleCompareQuery, stay: StayQuery): Promise<{ property: string; offers: Offer[] }>;
  /**
   * The listing and the listings on other platforms that may be the same property, with the
   * perceptual hashes of their photos where known (GET /v1/matches, issue 27): the sandbox world
   * answers from what it knows. Absent: this upstream offers none.
   */
  matchCandidates?(platform: EnabledPlatform, id: string): Promise<{ subject: PhotographedListing; candidates: PhotographedListing[] }>;
  /**
   * Why this upstream cannot serve a need on a platform at all (no source for it: booking
   * calendars on the scraping platform), or null when it can. A call that needs only such things
   * is refused before any hold or source run (src/core/execute.ts). Absent: every need is served.
   */
  unsupported?(platform: EnabledPlatform, need: Need): string | null;
  /** Whether this source answers a need on a platform (default: every need); chains skip it otherwise. */
  serves?(platform: EnabledPlatform, need: Need): boolean;
  /** Overrides the chain's deadline for a call to this source (an actor's own timeout). */
  readonly deadlineMs?: number;
  /** A view of this source whose calls are also reported to `report` (who served, how long, cost). */
  observe?(report: (r: SourceReport) => void): Upstream;
}
