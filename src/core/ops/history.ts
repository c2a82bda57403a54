// GET /v1/history/price and /v1/history/availability (issue 26): a listing's quotes for one stay,
// and its calendar night by night, as this deployment observed them, a row per change
// (src/store/sql/observations.ts). Free: it reads the deployment's own
// store. Live keys read what live calls observed; sandbox keys a fixed synthetic history of the
// sandbox world's quote, the same for every caller and every day (docs/sandbox.md).
import { requireScope } from '../auth.js';
import type { OpResult, RequestContext, Services } from '../context.js';
import { historyFor, historyView, isSandbox, observedBy } from '../context.js';
import { DAY_MS, addDays } from '../clock.js';
import { decodeCursor, encodeCursor, fingerprint } from '../cursor.js';
import { ServiceError } from '../errors.js';
import { parseListingId } from '../listing-ref.js';
import { locationKey, stayKey } from '../observe.js';
import { DEFAULT_SEARCH_PLATFORMS, type EnabledPlatform, type Platform, SINGLE_LISTING_PLATFORMS, isEnabled } from '../platforms.js';
import type { ObservationRow } from '../ports/store.js';
import {
  type AvailabilityHistory,
  HISTORY_MAX_DAYS,
  type ObservationView,
  type PriceObservation,
  type SeenListingView,
  historyAvailabilityParams,
  historyListingsParams,
  historyObservationsParams,
  historyPriceParams,
} from '../schemas/history.js';
import { MAX_STAY_NIGHTS, MAX_WINDOW_DAYS } from '../limits.js';
import { type RawInput, daysBetween, parseParams } from '../validate.js';
import { buildMeta } from '../meta.js';
import { platformFor, requireEnabled } from './common.js';
import { ownCollection } from './collections.js';

const iso = (ms: number) => new Date(ms).toISOString();
const instantMs = (s: string) => Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s);

/** The window a read covers: [from, to] in epoch ms, at most HISTORY_MAX_DAYS long, from before to. */
function windowOf(q: { from?: string | undefined; to?: string | undefined }, now: number): { from: number; to: number } {
  const to = q.to === undefined ? now : instantMs(q.to);
  const from = q.from === undefined ? to - HISTORY_MAX_DAYS * DAY_MS : instantMs(q.from);
  if (from > to) throw new ServiceError('invalid_date_range', `from (${iso(from)}) must not be after to (${iso(to)}).`, { param: 'from' });
  if (to - from > HISTORY_MAX_DAYS * DAY_MS) {
    throw new ServiceError('window_too_long', `The history window from ${iso(from)} to ${iso(to)} is longer than ${HISTORY_MAX_DAYS} days; narrow from or to.`, { param: 'from' });
  }
  return { from, to };
}

const toPriceObservation = (r: ObservationRow<'quote'>): PriceObservation => {
  const v = r.value;
  return {
    observedAt: iso(r.firstSeen),
    firstSeen: iso(r.firstSeen),
    lastSeen: iso(r.lastSeen),
    timesSeen: r.timesSeen,
    nightlyPrice: v.nightlyPrice ?? null,
    totalPrice: v.totalPrice ?? null,
    currency: r.currency,
    source: r.source,
  };
};

/** The listing a history read is of: its platform (given, or from a stays_ id) and its native id. */
function listingOf(q: { platform?: Platform | undefined; listingId: string; country?: string | undefined }, what: string) {
  const platform = requireEnabled(platformFor(q.platform, q.listingId), SINGLE_LISTING_PLATFORMS, what);
  return { platform, id: parseListingId(platform, q.listingId, { country: q.country, param: 'listingId' }) };
}

/**
 * Where a page of a history read starts: the window, and the cursor's position, the cursor bound
 * to the read (`key`) and to the window as asked (a default `to` is now, which moves between
 * pages: the cursor still fits).
 */
function pageStart(services: Services, ctx: RequestContext, q: { from?: string | undefined; to?: string | undefined; cursor?: string | undefined }, key: unknown[]) {
  const { from, to } = windowOf(q, services.clock.now());
  const fp = fingerprint([...key, ctx.key.env, q.from ?? null, q.to ?? null]);
  const cursor = decodeCursor(q.cursor, fp);
  return { from, to, fp, after: cursor ? { firstSeen: cursor.o.t ?? 0, id: cursor.o.i ?? 0 } : null };
}

export async function historyPrice(services: Services, ctx: RequestContext, raw: RawInput): Promise<OpResult<PriceObservation[]>> {
  requireScope(ctx, 'stays.read');
  const q = parseParams(historyPriceParams(), raw);
  const { platform, id } = listingOf(q, 'price history');
  if (q.checkOut <= q.checkIn) throw new ServiceError('invalid_date_range', 'checkOut must be after checkIn.', { param: 'checkOut' });
  if (daysBetween(q.checkIn, q.checkOut) > MAX_STAY_NIGHTS) {
    throw new ServiceError('stay_too_long', `The stay is ${daysBetween(q.checkIn, q.checkOut)} nights; at most ${MAX_STAY_NIGHTS}.`, { param: 'checkOut' });
  }
  const { from, to, fp, after } = pageStart(services, ctx, q, ['history-price', platform, id, q.checkIn, q.checkOut, q.adults]);
  const history = historyFor(services, ctx);
  const listing = { platform, listingId: id };
  const rows = await history.quoteSeries({ ...listing, key: stayKey(q), from, to, after, limit: q.limit + 1 });
  if (rows.length === 0 && after === null && !isSandbox(ctx) && !(await history.observedListing(listing))) {
    throw new ServiceError('listing_not_found', `Nothing of ${platform} listing ${id} was ever observed by ${observedBy(services)} (a live call for it records what it sees).`, { param: 'listingId' });
  }
  const page = rows.slice(0, q.limit);
  const hasMore = rows.length > q.limit;
  const last = page.at(-1);
  const nextCursor = hasMore && last ? encodeCursor({ o: { t: last.firstSeen, i: last.id } }, fp) : null;
  return {
    data: page.map(toPriceObservation),
    meta: buildMeta(services, ctx, { platforms: [platform], currency: page[0]?.currency ?? 'USD', pagination: { limit: q.limit, cursor: q.cursor ?? null, nextCursor, hasMore } }),
  };
}

/** The page of `rows` (oldest first by first seen, then id) after the cursor's, and the next cursor. */
function pageOf<R extends { t: number; i: number }>(rows: readonly R[], after: { firstSeen: number; id: number } | null, limit: number, fp: string) {
  const rest = after === null ? rows : rows.filter((r) => r.t > after.firstSeen || (r.t === after.firstSeen && r.i > after.id));
  const page = rest.slice(0, limit);
  const hasMore = rest.length > limit;
  const last = page.at(-1);
  return { page, hasMore, nextCursor: hasMore && last ? encodeCursor({ o: { t: last.t, i: last.i } }, fp) : null };
}

export async function historyAvailability(services: Services, ctx: RequestContext, raw: RawInput): Promise<OpResult<AvailabilityHistory>> {
  requireScope(ctx, 'stays.read');
  const q = parseParams(historyAvailabilityParams(), raw);
  const { platform, id } = listingOf(q, 'availability history');
  if (q.endDate <= q.startDate) throw new ServiceError('invalid_date_range', 'endDate must be after startDate.', { param: 'endDate' });
  if (daysBetween(q.startDate, q.endDate) > MAX_WINDOW_DAYS) {
    throw new ServiceError('window_too_long', `The window is ${daysBetween(q.startDate, q.endDate)} nights; at most ${MAX_WINDOW_DAYS}.`, { param: 'endDate' });
  }
  const { from, to, fp, after } = pageStart(services, ctx, q, ['history-availability', platform, id, q.startDate, q.endDate]);
  const history = historyFor(services, ctx);
  const rows = await history.calendar({ platform, listingId: id }, { from: q.startDate, to: addDays(q.endDate, -1) });
  if (rows.length === 0 && !isSandbox(ctx) && !(await history.observedListing({ platform, listingId: id }))) {
    throw new ServiceError('listing_not_found', `Nothing of ${platform} listing ${id} was ever observed by ${observedBy(services)} (a live call for it records what it sees).`, { param: 'listingId' });
  }
  // Rows come by night, oldest first: each is a change from the one before it of its night.
  const changes: (AvailabilityHistory['changes'][number] & { t: number; i: number })[] = [];
  const latest = new Map<string, AvailabilityHistory['latest'][number]>();
  let prev: ObservationRow<'day'> | null = null;
  for (const r of rows) {
    const before = prev !== null && prev.key === r.key ? prev.value : null;
    const now = r.value;
    // The state in effect at `to`: the last row first seen by then.
    if (r.firstSeen <= to) latest.set(r.key, { date: r.key, ...now, lastSeen: iso(r.lastSeen) });
    if (r.firstSeen >= from && r.firstSeen <= to) {
      const was = <K extends 'minNights' | 'checkIn' | 'checkOut' | 'bookable'>(k: K) => (before === null ? null : (before[k] ?? null));
      const fields = ['available', 'minNights', 'checkIn', 'checkOut', 'bookable'] as const;
      changes.push({
        date: r.key,
        observedAt: iso(r.firstSeen),
        available: { from: before?.available ?? null, to: now.available },
        minNights: { from: was('minNights'), to: now.minNights ?? null },
        price: null,
        checkIn: { from: was('checkIn'), to: now.checkIn ?? null },
        checkOut: { from: was('checkOut'), to: now.checkOut ?? null },
        bookable: { from: was('bookable'), to: now.bookable ?? null },
        // A row is stored when any part of the night's state changed: name the parts (issue 36, item 11).
        changed: before === null ? ['observed'] : fields.filter((k) => (before[k] ?? null) !== (now[k] ?? null)),
        t: r.firstSeen,
        i: r.id,
      });
    }
    prev = r;
  }
  changes.sort((a, b) => a.t - b.t || a.i - b.i);
  const { page, hasMore, nextCursor } = pageOf(changes, after, q.limit, fp);
  return {
    data: { changes: page.map(({ t: _t, i: _i, ...c }) => c), latest: [...latest.values()] },
    meta: buildMeta(services, ctx, { platforms: [platform], currency: 'USD', pagination: { limit: q.limit, cursor: q.cursor ?? null, nextCursor, hasMore } }),
  };
}

export async function historyListings(services: Services, ctx: RequestContext, raw: RawInput): Promise<OpResult<SeenListingView[]>> {
  requireScope(ctx, 'stays.read');
  const q = parseParams(historyListingsParams(), raw);
  const asked = q.platforms ?? DEFAULT_SEARCH_PLATFORMS;
  const off = asked.find((p) => !isEnabled(p));
  if (off !== undefined) throw new ServiceError('platform_not_enabled', `${off} is not enabled on this service; use one of ${DEFAULT_SEARCH_PLATFORMS.join(', ')}.`, { param: 'platforms' });
  const platforms = [...new Set(asked)] as EnabledPlatform[];
  const location = locationKey(q.location);
  const { from, to, fp, after } = pageStart(services, ctx, q, ['history-listings', location, platforms]);
  const seen = await historyFor(services, ctx).listingsShownIn({ place: location, platforms, from, to });
  // Paged by position in the list (first seen, then platform and id): i is the index.
  const rows = seen.listings.map((l, i) => ({ l, t: l.firstSeen, i }));
  const { page, hasMore, nextCursor } = pageOf(rows, after, q.limit, fp);
  return {
    data: page.map(({ l }) => ({
      platform: l.platform,
      listingId: l.listingId,
      name: l.name,
      firstSeen: iso(l.firstSeen),
      lastSeen: iso(l.lastSeen),
      timesSeen: l.timesSeen,
      inLatestSearch: l.lastSeen === seen.lastSearched[l.platform],
    })),
    meta: buildMeta(services, ctx, { platforms, currency: 'USD', pagination: { limit: q.limit, cursor: q.cursor ?? null, nextCursor, hasMore } }),
  };
}

/**
 * GET /v1/history/observations: every observation last seen since an instant, in the order they
 * were stored, a page at a time (`stays history export`). A sandbox key's export is empty: its
 * histories are synthetic, made per listing and stay when asked, so there is no stored set to
 * walk, and a sandbox key does not read what live calls observed (docs/decisions.md).
 */
export async function historyObservations(services: Services, ctx: RequestContext, raw: RawInput): Promise<OpResult<ObservationView[]>> {
  requireScope(ctx, 'stays.read');
  const q = parseParams(historyObservationsParams(), raw);
  const since = instantMs(q.since);
  // A collection of the key's account and environment (another's answers 404, as an unknown one).
  const collectionId = q.collection === undefined ? undefined : (await ownCollection(services, ctx, q.collection, 'collection')).id;
  const fp = fingerprint(['history-observations', ctx.key.env, since, collectionId ?? '']);
  const afterId = decodeCursor(q.cursor, fp)?.o.i ?? 0;
  const rows = isSandbox(ctx) ? [] : await services.store.observationsSince({ since, afterId, limit: q.limit + 1, view: historyView(services, ctx), collectionId });
  const page = rows.slice(0, q.limit);
  const hasMore = rows.length > q.limit;
  const last = page.at(-1);
  return {
    data: page.map((r) => ({
      platform: r.platform,
      listingId: r.listingId,
      kind: r.kind,
      key: r.key,
      currency: r.currency,
      value: r.value,
      source: r.source,
      firstSeen: iso(r.firstSeen),
      lastSeen: iso(r.lastSeen),
      timesSeen: r.timesSeen,
    })),
    meta: buildMeta(services, ctx, {
      platforms: [...new Set(page.map((r) => r.platform as Platform))],
      currency: 'USD',
      pagination: { limit: q.limit, cursor: q.cursor ?? null, nextCursor: hasMore && last ? encodeCursor({ o: { i: last.id } }, fp) : null, hasMore },
    }),
  };
}
