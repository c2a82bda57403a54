// What the deterministic sandbox world offers the core operations (D21). Everything here is a
// pure function of its arguments: same input, byte-identical output, on any machine.
import type { EnabledPlatform } from '../../core/platforms.js';
import type { Availability, Offer, Price, Property, Review } from '../../core/schemas/resources.js';
import type { CandidateList, CappedRows, GoogleCompareQuery, SearchOptions, StayQuery } from '../../core/upstream.js';

export type { GoogleCompareQuery, StayQuery };

export interface SandboxWorld {
  /**
   * The full candidate set of one platform for a location, unfiltered, in "recommended" order.
   * Prices are set when a stay is given, else price is null. Metropolis is cut at the platform's
   * cap (searchAnswer says so).
   * Throws ServiceError for the platform's failure trigger (see docs/sandbox.md).
   */
  searchPlatform(platform: EnabledPlatform, location: string, opts: { currency: string; rooms: number; stay?: StayQuery | undefined }): Property[];
  /** searchPlatform's set, each row made when it is first read (a page reads a prefix): the same rows. */
  searchCandidates(platform: EnabledPlatform, location: string, opts: { currency: string; rooms: number; stay?: StayQuery | undefined }): CandidateList;
  /**
   * searchCandidates, or an area's listings (opts.area: a bbox and a price band, issue 38), cut at
   * the platform's cap (src/core/search-caps.ts), which a capped answer says (CappedRows).
   */
  searchAnswer(platform: EnabledPlatform, location: string, opts: SearchOptions): CandidateList | CappedRows;
  /** Listing detail with images and identity; embeds a price when a stay is given. Throws for magic ids. */
  listing(platform: EnabledPlatform, id: string, opts: { currency: string; requestedId: string; stay?: StayQuery | undefined }): Property;
  /** A quote for exactly this listing and stay. Throws for magic ids. */
  price(platform: EnabledPlatform, id: string, stay: StayQuery): Price;
  /** One entry per day in [startDate, endDate). Throws for magic ids. */
  availability(platform: EnabledPlatform, id: string, startDate: string, endDate: string): Availability;
  /** Every review of the listing, newest first. Throws for magic ids. */
  reviews(platform: EnabledPlatform, id: string): Review[];
  /** Google-mode comparison: offers for one property as Google aggregates them. */
  compareGoogle(query: GoogleCompareQuery, stay: StayQuery): { property: string; offers: Offer[] };
}
