// Dataset items → the port's answers, through the platform normalizers (src/sources/normalize):
// non-data rows (errors, not-found markers) are set aside, rows naming another listing never
// answer for the one asked (identity_mismatch), an empty dataset where rows were expected is a
// block (actor_blocked), unless it is a search the run or the query's width says is simply empty
// (emptyAnswer); a not-found marker is listing_not_found.
import { ServiceError } from '../../core/errors.js';
import { parseListingId } from '../../core/listing-ref.js';
import type { EnabledPlatform } from '../../core/platforms.js';
import type { Availability, Offer, Price, Property, Review } from '../../core/schemas/resources.js';
import type { GoogleCompareQuery, StayQuery } from '../../core/upstream.js';
import * as airbnb from '../normalize/airbnb.js';
import * as booking from '../normalize/booking.js';
import { type ListingBody, idFrom } from '../normalize/common.js';
import * as google from '../normalize/google.js';
import * as vrbo from '../normalize/vrbo.js';
import { blockedMessage } from './run.js';

type Row = Record<string, unknown>;

const N = { airbnb, booking, vrbo, google } as const;

interface Rows {
  data: Row[];
  /** A row said the input was not found (status not_found, an error naming 404 or not found). */
  notFound: boolean;
  /** Rows that were errors (not data, not a not-found marker). */
  errors: string[];
}

const NOT_FOUND = /not[ _-]?found|\b404\b|no longer (?:available|exists)|removed|does not exist/i;

/** Splits items into data rows and markers (research §3: filter non-data rows). */
function splitRows(items: readonly unknown[]): Rows {
  const out: Rows = { data: [], notFound: false, errors: [] };
  for (const item of items) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) continue;
    const row = item as Row;
    const status = typeof row.status === 'string' ? row.status.toLowerCase() : null;
    const err = row.error ?? row.errorCode ?? row.errorMessage;
    if (status === 'not_found' || status === 'no_results' || (err !== undefined && err !== null && NOT_FOUND.test(JSON.stringify(err)))) {
      out.notFound = true;
      continue;
    }
    if ((err !== undefined && err !== null && err !== false && err !== '') || (status !== null && status !== 'ok' && status !== 'success' && status !== 'succeeded')) {
      out.errors.push(typeof err === 'string' ? err : JSON.stringify(err ?? status).slice(0, 200));
      continue;
    }
    out.data.push(row);
  }
  return out;
}

/** No data rows: a not-found marker (for a listing), a block, or rows that were all errors. */
function empty(platform: EnabledPlatform, actor: string, r: Rows, what: string, statusMessage: string | null, single: boolean): never {
  if (single && r.notFound) throw new ServiceError('listing_not_found', `${platform}: actor ${actor} found no ${what}.`);
  if (r.errors.length > 0 && !r.errors.some((e) => blockedMessage(e))) throw new ServiceError('all_actors_failed', `${platform}: actor ${actor} returned only error rows: ${r.errors[0]}`);
  const why = statusMessage ? ` (${statusMessage})` : '';
  throw new ServiceError('actor_blocked', `${platform}: actor ${actor} succeeded with no ${what}${why}; the platform most likely blocked it.`);
}

/** Normalizes each row, skipping the ones a normalizer refuses; all refused is a failure of this source. */
function each<T>(platform: EnabledPlatform, actor: string, rows: Row[], f: (r: Row) => T): T[] {
  const out: T[] = [];
  let last: ServiceError | undefined;
  for (const row of rows) {
    try {
      out.push(f(row));
    } catch (e) {
      if (!(e instanceof ServiceError)) throw e;
      last = e;
    }
  }
  if (out.length === 0 && last) throw new ServiceError('all_actors_failed', `${platform}: actor ${actor}: ${last.message}`);
  return out;
}

export interface Ctx {
  platform: EnabledPlatform;
  actor: string;
  statusMessage: string | null;
}

/** A run's status message saying its crawl loaded every page it asked for (Crawlee's "N succeeded, 0 failed"). */
const CRAWLED = /\b[1-9]\d* succeeded, 0 failed\b/;

/**
 * Whether a search run that succeeded with no rows is an empty answer rather than a block (issue
 * 36, item 6). The run's status message decides when there is one (async runs): a block signal is
 * a block, pages all loaded is an empty answer. A sync run says nothing of itself, so the query's
 * width decides: a dated search is narrow (the place may have nothing free on those nights), an
 * undated search of a place that shows nothing was most likely blocked. Error rows are never empty.
 */
function emptyAnswer(c: Ctx, r: Rows, stay: StayQuery | undefined): boolean {
  if (r.errors.length > 0) return false;
  if (c.statusMessage !== null) {
    if (blockedMessage(c.statusMessage)) return false;
    if (CRAWLED.test(c.statusMessage)) return true;
  }
  return stay !== undefined;
}

export function searchAnswer(c: Ctx, items: unknown[], stay: StayQuery | undefined): Property[] {
  const r = splitRows(items);
  if (r.data.length === 0) {
    if (r.notFound || emptyAnswer(c, r, stay)) return [];
    empty(c.platform, c.actor, r, 'search results', c.statusMessage, false);
  }
  const seen = new Set<string>();
  return each(c.platform, c.actor, r.data, (row) => N[c.platform].normalizeSearchItem(row as never, { stay })).filter((p) => !seen.has(p.id) && seen.add(p.id));
}

/** The row for exactly this listing; rows for others are never taken for it. */
function rowFor(c: Ctx, items: unknown[], id: string, what: string): Row {
  const want = parseListingId(c.platform, id, { param: 'id' });
  const r = splitRows(items);
  if (r.data.length === 0) empty(c.platform, c.actor, r, what, c.statusMessage, true);
  const others: string[] = [];
  for (const row of r.data) {
    let got: string;
    try {
      got = rowId(c.platform, row);
    } catch {
      continue;
    }
    if (got === want) return row;
    others.push(got);
  }
  if (others.length === 0) throw new ServiceError('all_actors_failed', `${c.platform}: actor ${c.actor} returned rows without a usable listing id.`);
  throw new ServiceError('identity_mismatch', `${c.platform}: asked for ${want}, actor ${c.actor} answered for ${others.slice(0, 3).join(', ')}; not using another property's data.`);
}

function rowId(platform: EnabledPlatform, row: Row): string {
  return platform === 'booking' || platform === 'google' ? idFrom(platform, [row.url]) : idFrom(platform, [row.id, row.url]);
}

export function listingAnswer(c: Ctx, items: unknown[], id: string): ListingBody {
  return N[c.platform].normalizeListing(rowFor(c, items, id, `listing ${id}`) as never);
}

export function priceAnswer(c: Ctx, items: unknown[], id: string, stay: StayQuery): Price {
  const p = N[c.platform].normalizePrice(rowFor(c, items, id, `listing ${id}`) as never, { stay });
  if (!p) throw new ServiceError('price_not_found', `${c.platform}: actor ${c.actor} states no price for ${id} on ${stay.checkIn}–${stay.checkOut}.`);
  return p;
}

/** Day rows directly, or inside a listing row (legacy airbnb calendar[], vrbo availabilityCalendar). */
export function availabilityAnswer(c: Ctx, items: unknown[], id: string, startDate: string, endDate: string): Availability {
  const r = splitRows(items);
  if (r.data.length === 0) empty(c.platform, c.actor, r, `calendar for ${id}`, c.statusMessage, true);
  let days = r.data.filter((row) => typeof row.date === 'string');
  if (days.length === 0) {
    const row = rowFor(c, items, id, `calendar for ${id}`);
    const cal = row.calendar ?? row.availabilityCalendar;
    const list = Array.isArray(cal) ? cal : Array.isArray((cal as { days?: unknown } | null)?.days) ? (cal as { days: unknown[] }).days : [];
    days = splitRows(list).data.filter((d) => typeof d.date === 'string');
    // The actor answered (nothing blocked it) with no calendar: it does not return one, which a
    // retry will not change. Not actor_blocked: that blames the platform.
    if (days.length === 0)
      throw new ServiceError(
        'all_actors_failed',
        `${c.platform}: actor ${c.actor} returned listing ${id} without calendar days; it does not answer with a calendar (configure one that does under STAYS_ACTORS ${c.platform}.availability).`,
      );
  }
  return N[c.platform].normalizeCalendar(days as never, { listingId: id, startDate, endDate });
}

export function reviewsAnswer(c: Ctx, items: unknown[], id: string): Review[] {
  const normalize = c.platform === 'google' ? undefined : N[c.platform].normalizeReview;
  if (!normalize) throw new ServiceError('all_actors_failed', `${c.platform}: reviews are not read from this platform.`);
  const want = parseListingId(c.platform, id, { param: 'id' });
  const r = splitRows(items);
  if (r.data.length === 0) empty(c.platform, c.actor, r, `reviews for ${id}`, c.statusMessage, true);
  // A row whose startUrl names another listing is that listing's review, never this one's.
  const mine = r.data.filter((row) => {
    if (typeof row.startUrl !== 'string') return true;
    try {
      return idFrom(c.platform, [row.startUrl]) === want;
    } catch {
      return true;
    }
  });
  if (mine.length === 0) throw new ServiceError('identity_mismatch', `${c.platform}: actor ${c.actor} returned reviews of another listing than ${want}.`);
  const seen = new Set<string>();
  return each(c.platform, c.actor, mine, (row) => normalize(row as never, { listingId: want })).filter((x) => !seen.has(x.reviewId) && seen.add(x.reviewId));
}

export function compareAnswer(c: Ctx, items: unknown[], query: GoogleCompareQuery, stay: StayQuery): { property: string; offers: Offer[] } {
  const r = splitRows(items);
  if (r.data.length === 0) {
    if (r.notFound) throw new ServiceError('listing_not_found', `google: actor ${c.actor} found no hotel for ${JSON.stringify(query.name ?? query.googleHotelId ?? '')}.`);
    empty(c.platform, c.actor, r, 'hotel', c.statusMessage, false);
  }
  let row = r.data[0]!;
  if (query.googleHotelId) {
    const want = parseListingId('google', query.googleHotelId, { param: 'googleHotelId' });
    const match = r.data.find((x) => {
      try {
        return idFrom('google', [x.url]) === want;
      } catch {
        return false;
      }
    });
    if (!match) throw new ServiceError('identity_mismatch', `google: actor ${c.actor} did not answer for hotel ${want}.`);
    row = match;
  }
  return google.normalizeHotelOffers(row as never, { stay });
}
