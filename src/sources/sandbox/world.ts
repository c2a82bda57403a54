// The deterministic sandbox world (D21): every answer is generated from a stable hash of the
// request's arguments, never fetched, never random, never clock-dependent. Triggers (magic
// locations and listing ids) are in src/core/sandbox-triggers.ts and documented in docs/sandbox.md.
import type { EnabledPlatform } from '../../core/platforms.js';
import type { Availability, AvailabilityDay, Price, Property } from '../../core/schemas/resources.js';
import { BookingCalendar, dateOf, dayNumber, weekday } from './calendar.js';
import { compareGoogle } from './compare.js';
import { listingUrl } from '../../core/listing-ref.js';
import { Lru, approxBytes, keyBytes } from '../../core/lru.js';
import type { CandidateList } from '../../core/upstream.js';
import type { Core } from './core.js';
import { assertListing, assertSearch, isUnpriceable, magicOf } from '../../core/sandbox-triggers.js';
import { quote } from './money.js';
import { rng } from './prng.js';
import { reviewsFor } from './reviews.js';
import { CandidateRows, detailRow } from './rows.js';
import type { SandboxWorld, StayQuery } from './types.js';

/** The quote of price(), shared by listing() so an embedded price always equals it. */
function priceOf(platform: EnabledPlatform, id: string, core: Core, stay: StayQuery, rooms = 1): Price {
  return quote({ platform, id, url: listingUrl(platform, id), basis: core.basis, stay, rooms });
}

/**
 * A platform's search candidates at a location, priced when a stay is given, each row made when
 * it is first read (CandidateRows): a recommended-order page reads a prefix of the 60.
 */
class SearchCandidates implements CandidateList {
  /** What makes the rows not read yet; null once every row is made (or the search has none). */
  private rows: CandidateRows | null;
  private readonly out: Property[] = [];
  private every: readonly Property[] | undefined;
  /** A booking search price covers every room asked for; other platforms price the listing. */
  private readonly rooms: number;

  constructor(
    private readonly platform: EnabledPlatform,
    location: string,
    private readonly stay: StayQuery | undefined,
    rooms: number,
  ) {
    this.rows = assertSearch(platform, location) ? null : new CandidateRows(platform, location);
    this.rooms = platform === 'booking' ? Math.max(1, rooms) : 1;
  }

  at(i: number): Property | undefined {
    while (this.out.length <= i && this.rows !== null) {
      const row = this.rows.next();
      if (row === undefined) {
        this.rows = null;
        break;
      }
      const { id, core, property } = row;
      this.out.push({ ...property, price: this.stay ? priceOf(this.platform, id, core, this.stay, this.rooms) : null });
    }
    return this.out[i];
  }

  all(): readonly Property[] {
    if (this.every === undefined) {
      while (this.rows !== null) this.at(this.out.length);
      this.every = Object.freeze([...this.out]);
    }
    return this.every;
  }

  toJSON(): readonly Property[] {
    return this.all();
  }

  /**
   * The bytes the whole set holds (core/lru.ts), projected from the rows made so far when not
   * all of them are: each row costs about what the ones made cost.
   */
  bytes(): number {
    const made = this.out.length;
    if (this.rows === null || made === 0) return approxBytes(this.out);
    const empty = approxBytes([]);
    return Math.round(empty + ((approxBytes(this.out) - empty) * this.rows.length) / made);
  }
}

function listing(platform: EnabledPlatform, id: string, opts: { currency: string; requestedId: string; stay?: StayQuery | undefined }): Property {
  assertListing(id, 'listing');
  const { core, property } = detailRow(platform, id);
  const price = opts.stay && !isUnpriceable(id) ? priceOf(platform, id, core, opts.stay) : null;
  return {
    ...property,
    price,
    identity: { requestedId: opts.requestedId.length > 0 ? opts.requestedId : null, resolvedId: id, canonicalUrl: property.url },
  };
}

function price(platform: EnabledPlatform, id: string, stay: StayQuery): Price {
  assertListing(id, 'price');
  return priceOf(platform, id, detailRow(platform, id).core, stay);
}

/**
 * Nightly calendar. Per platform, what it does not state is null: booking states availability
 * (bookable = available); google only availability; airbnb and vrbo every rule.
 */
function availability(platform: EnabledPlatform, id: string, startDate: string, endDate: string): Availability {
  assertListing(id, 'listing');
  const { core } = detailRow(platform, id);
  const cal = new BookingCalendar(platform, id);
  const soldOut = magicOf(id) === '410';
  const dates: AvailabilityDay[] = [];
  for (let d = dayNumber(startDate), end = dayNumber(endDate); d < end; d++) {
    const available = !soldOut && !cal.isBooked(d);
    const date = dateOf(d);
    if (platform === 'google') {
      dates.push({ date, available, minNights: null, checkIn: null, checkOut: null, bookable: null });
    } else if (platform === 'booking') {
      dates.push({ date, available, minNights: null, checkIn: null, checkOut: null, bookable: available });
    } else {
      const peak = rng('min-nights', platform, id, cal.chunkOf(d)).chance(0.15);
      const minNights = Math.min(7, core.minNights + (peak ? 2 : 0));
      const checkIn = available && weekday(d) !== core.noCheckInDay && cal.freeRun(d, minNights) >= minNights;
      const checkOut = !soldOut && !cal.isBooked(d - 1);
      dates.push({ date, available, minNights, checkIn, checkOut, bookable: available && checkIn });
    }
  }
  return { platform, listingId: id, dates };
}

function reviews(platform: EnabledPlatform, id: string) {
  assertListing(id, 'listing');
  return reviewsFor(platform, id);
}

/**
 * Search candidate sets are pure and costly to generate (60 rows, made as they are read): keep the
 * recent ones, within a byte budget (a whole set costs ~68 KB, ~90 KB with dates and prices; a set
 * is counted as whole from the moment it is kept) and, as before the byte bound, at most 512 of them. The default budget is half of the default
 * STAYS_MEMORY_CACHE_MB; the runtime passes its share of the configured one.
 */
const SEARCH_MEMO_BYTES = 32 * 1024 * 1024;
const SEARCH_MEMO_ENTRIES = 512;

export interface SandboxWorldOptions {
  /** Bytes the memoised search candidate sets may hold (estimated, see core/lru.ts). */
  memoBytes?: number;
}

export function createSandboxWorld(opts: SandboxWorldOptions = {}): SandboxWorld {
  const memo = new Lru<string, SearchCandidates>({
    maxBytes: opts.memoBytes ?? SEARCH_MEMO_BYTES,
    maxEntries: SEARCH_MEMO_ENTRIES,
    sizeOf: (set, key) => set.bytes() + keyBytes(key),
  });
  const searchCandidates = (platform: EnabledPlatform, location: string, o: { currency: string; rooms: number; stay?: StayQuery | undefined }): SearchCandidates => {
    const key = JSON.stringify([platform, location, o.currency, o.rooms, o.stay ?? null]);
    let set = memo.get(key);
    if (!set) {
      set = new SearchCandidates(platform, location, o.stay, o.rooms);
      // The first row, which every read takes, sizes the set (bytes()).
      set.at(0);
      memo.set(key, set);
    }
    return set;
  };
  return {
    searchPlatform: (platform, location, o) => searchCandidates(platform, location, o).all() as Property[],
    searchCandidates,
    listing,
    price,
    availability,
    reviews,
    compareGoogle,
  };
}
