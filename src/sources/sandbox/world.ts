// The deterministic sandbox world (D21): every answer is generated from a stable hash of the
// request's arguments, never fetched, never random, never clock-dependent. Triggers (magic
// locations and listing ids) are in src/core/sandbox-triggers.ts and documented in docs/sandbox.md.
// Given a clock, the same world moves with it (moving.ts, for the simulated upstream): each answer
// is then the world at the clock's instant; without one (sandbox keys) it is the fixed world.
import type { EnabledPlatform } from '../../core/platforms.js';
import type { Availability, AvailabilityDay, Price, Property } from '../../core/schemas/resources.js';
import { BookingCalendar, dateOf, dayNumber, minNightsOn, weekday } from './calendar.js';
import type { Clock } from '../../core/clock.js';
import { CalendarAt, HOUR_MS, isListed, movingQuote } from './moving.js';
import { type SimCalendars, familiesAvailability, familiesReviewCount, familiesReviews } from './families-upstream.js';
import { compareGoogle } from './compare.js';
import { listingUrl } from '../../core/listing-ref.js';
import { Lru, approxBytes, keyBytes } from '../../core/lru.js';
import type { CandidateList, CappedRows, SearchOptions } from '../../core/upstream.js';
import { SEARCH_CAPS } from '../../core/search-caps.js';
import { inBox, intersects, isMetropolis, metropolisMatches, metropolisRow } from './metropolis.js';
import { CITIES } from './places.js';
import type { Core } from './core.js';
import { assertListing, assertSearch, isUnpriceable, magicOf } from '../../core/sandbox-triggers.js';
import { quote } from './money.js';
import { reviewsFor } from './reviews.js';
import { CandidateRows, detailRow } from './rows.js';
import type { SandboxWorld, StayQuery } from './types.js';

/**
 * An instant of the moving world (epoch ms), or null for the fixed world: what every answer below
 * is a function of besides its arguments.
 */
type At = number | null;

/** The quote of price(), shared by listing() and search rows so an embedded price always equals it. */
function priceOf(platform: EnabledPlatform, id: string, core: Core, stay: StayQuery, at: At, rooms = 1): Price {
  if (at !== null) return movingQuote(platform, id, core.basis, stay, at, rooms);
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
    /** The moving world's instant: only the candidates listed then are rows. */
    private readonly instant: At = null,
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
      if (this.instant !== null && !isListed(this.platform, id, this.instant)) continue;
      this.out.push({ ...property, price: this.stay ? priceOf(this.platform, id, core, this.stay, this.instant, this.rooms) : null });
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

/** A listing's detail answers whether or not it is listed at the instant (a delisted page still resolves). */
function listing(platform: EnabledPlatform, id: string, opts: { currency: string; requestedId: string; stay?: StayQuery | undefined }, at: At = null, calendars: SimCalendars = MOVING): Property {
  assertListing(id, 'listing');
  const { core, property } = detailRow(platform, id);
  const price = opts.stay && !isUnpriceable(id) ? priceOf(platform, id, core, opts.stay, at) : null;
  // The calendar families' listing counts the reviews its guests wrote by the instant.
  const reviewCount = at !== null && calendars.kind === 'families' ? familiesReviewCount(calendars, platform, id, at) : property.reviewCount;
  return {
    ...property,
    reviewCount,
    price,
    identity: { requestedId: opts.requestedId.length > 0 ? opts.requestedId : null, resolvedId: id, canonicalUrl: property.url },
  };
}

function price(platform: EnabledPlatform, id: string, stay: StayQuery, at: At = null): Price {
  assertListing(id, 'price');
  return priceOf(platform, id, detailRow(platform, id).core, stay, at);
}

/**
 * Nightly calendar. Per platform, what it does not state is null: booking states availability
 * (bookable = available); google only availability; airbnb and vrbo every rule.
 */
function availability(platform: EnabledPlatform, id: string, startDate: string, endDate: string, at: At = null, calendars: SimCalendars = MOVING): Availability {
  assertListing(id, 'listing');
  const { core } = detailRow(platform, id);
  if (at !== null && calendars.kind === 'families') return familiesAvailability(calendars, platform, id, startDate, endDate, at, magicOf(id) === '410');
  // The moving world's calendar holds only the bookings and blocks made by the instant; the rules
  // below read it alike, so minimum stays and check-in days agree with what is booked then.
  const cal = at === null ? new BookingCalendar(platform, id) : new CalendarAt(platform, id, at);
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
      const minNights = minNightsOn(platform, id, core.minNights, cal.chunkOf(d));
      const checkIn = available && weekday(d) !== core.noCheckInDay && cal.freeRun(d, minNights) >= minNights;
      const checkOut = !soldOut && !cal.isBooked(d - 1);
      dates.push({ date, available, minNights, checkIn, checkOut, bookable: available && checkIn });
    }
  }
  return { platform, listingId: id, dates };
}

function reviews(platform: EnabledPlatform, id: string, at: At = null, calendars: SimCalendars = MOVING) {
  assertListing(id, 'listing');
  if (at !== null && calendars.kind === 'families') return familiesReviews(calendars, platform, id, at);
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

/** The memo of search candidate sets, which a fixed and a moving world may share (keys differ). */
export type SearchMemo = Lru<string, SearchCandidates>;

export function searchMemo(bytes = SEARCH_MEMO_BYTES): SearchMemo {
  return new Lru<string, SearchCandidates>({
    maxBytes: bytes,
    maxEntries: SEARCH_MEMO_ENTRIES,
    sizeOf: (set, key) => set.bytes() + keyBytes(key),
  });
}

export interface SandboxWorldOptions {
  /** Bytes the memoised search candidate sets may hold (estimated, see core/lru.ts). */
  memoBytes?: number;
  /** A memo to keep them in instead (shared with another world; memoBytes is then unused). */
  memo?: SearchMemo;
  /**
   * The moving world's clock (the simulated upstream's): each answer is the world at its
   * instant. Absent: the fixed world (sandbox keys, D21).
   */
  clock?: Clock;
  /**
   * The moving world's calendars and reviews (STAYS_SIM_CALENDARS): its own (`moving`, the
   * default) or the calendar families' (families-upstream.ts). Read only with a clock.
   */
  calendars?: SimCalendars;
}

const MOVING: SimCalendars = { kind: 'moving' };

/** Search rows without their review counts (the calendar families: each listing's detail counts them). */
function withoutReviewCounts(s: CandidateList | CappedRows): CandidateList | CappedRows {
  const strip = (p: Property): Property => ({ ...p, reviewCount: null });
  if ('truncated' in s) return { rows: s.rows.map(strip), truncated: s.truncated };
  let every: readonly Property[] | undefined;
  const all = () => (every ??= Object.freeze(s.all().map(strip)));
  return { at: (i) => all()[i], all, toJSON: all };
}

/** Rows already made, as a candidate list. */
function listOf(rows: readonly Property[]): CandidateList {
  const all = Object.freeze([...rows]);
  return { at: (i) => all[i], all: () => all, toJSON: () => all };
}

/** How far a built-in city's rows reach from its centre, in degrees (5 km; generous in longitude). */
const CITY_REACH_DEG = 0.2;

/**
 * An area search (issue 38): every listing of the box (Metropolis's and the built-in cities'
 * search rows), in the price band, or Metropolis whole; cut at the platform's cap, which it then
 * says (CappedRows, with the count the platform reports).
 */
function areaSearch(
  platform: EnabledPlatform,
  location: string,
  o: SearchOptions,
  cityRows: (city: string) => readonly Property[],
  priced: (id: string, core: Core) => Price | null,
): CandidateList | CappedRows {
  const area = o.area;
  const cap = SEARCH_CAPS[platform];
  const rows: Property[] = [];
  if (area) {
    const b = area.bbox;
    for (const c of CITIES) {
      if (!intersects(b, { west: c.lng - CITY_REACH_DEG, south: c.lat - CITY_REACH_DEG, east: c.lng + CITY_REACH_DEG, north: c.lat + CITY_REACH_DEG })) continue;
      for (const p of cityRows(c.name)) {
        const { lat, lng } = p.location;
        const base = baseRateOf(platform, p.platformListingId);
        if (lat !== null && lng !== null && inBox(b, lat, lng) && base >= (area.priceMin ?? 0) && base <= (area.priceMax ?? Number.POSITIVE_INFINITY)) rows.push(p);
      }
    }
  }
  const city = area || isMetropolis(location) ? metropolisMatches(platform, area) : [];
  const total = rows.length + city.length;
  for (const x of city) {
    if (rows.length >= cap) break;
    const { core, property } = metropolisRow(x);
    rows.push({ ...property, price: priced(x.id, core) });
  }
  const kept = rows.slice(0, cap);
  return total > cap ? { rows: kept, truncated: { cap, returned: kept.length, reported: total } } : listOf(kept);
}

/** A listing's base nightly rate (USD): what the simulated platforms' price filter reads. */
const baseRateOf = (platform: EnabledPlatform, id: string) => detailRow(platform, id).core.basis.baseUsd;

export function createSandboxWorld(opts: SandboxWorldOptions = {}): SandboxWorld {
  const memo = opts.memo ?? searchMemo(opts.memoBytes);
  const clock = opts.clock;
  const calendars = opts.calendars ?? MOVING;
  // The moving world changes only on the hour (moving.ts): a search is the same set all hour long.
  const at = (): At => (clock ? Math.floor(clock.now() / HOUR_MS) * HOUR_MS : null);
  const searchCandidates = (platform: EnabledPlatform, location: string, o: SearchOptions): SearchCandidates => {
    const instant = at();
    const key = JSON.stringify(instant === null ? [platform, location, o.currency, o.rooms, o.stay ?? null] : [platform, location, o.currency, o.rooms, o.stay ?? null, instant]);
    let set = memo.get(key);
    if (!set) {
      set = new SearchCandidates(platform, location, o.stay, o.rooms, instant);
      // The first row, which every read takes, sizes the set (bytes()).
      set.at(0);
      memo.set(key, set);
    }
    return set;
  };
  const search = (platform: EnabledPlatform, location: string, o: SearchOptions): CandidateList | CappedRows => {
    if (!o.area && !isMetropolis(location)) return searchCandidates(platform, location, o);
    const instant = at();
    const rooms = platform === 'booking' ? Math.max(1, o.rooms) : 1;
    return areaSearch(
      platform,
      location,
      o,
      (city) => searchCandidates(platform, city, { currency: o.currency, rooms: o.rooms, stay: o.stay }).all(),
      (id, core) => (o.stay ? priceOf(platform, id, core, o.stay, instant, rooms) : null),
    );
  };
  // The calendar families count reviews per listing and instant (the listing's detail): search
  // rows state none, so a listing's review count is followed by its detail alone.
  const countless = (s: CandidateList | CappedRows): CandidateList | CappedRows => (calendars.kind === 'families' && clock ? withoutReviewCounts(s) : s);
  const rowsOf = (s: CandidateList | CappedRows): CandidateList => ('truncated' in s ? listOf(s.rows) : s);
  return {
    searchPlatform: (platform, location, o) => rowsOf(countless(search(platform, location, o))).all() as Property[],
    searchCandidates: (platform, location, o) => rowsOf(countless(search(platform, location, o))),
    searchAnswer: (platform, location, o) => countless(search(platform, location, o)),
    listing: (platform, id, o) => listing(platform, id, o, at(), calendars),
    price: (platform, id, stay) => price(platform, id, stay, at()),
    availability: (platform, id, s, e) => availability(platform, id, s, e, at(), calendars),
    reviews: (platform, id) => reviews(platform, id, at(), calendars),
    compareGoogle,
  };
}
