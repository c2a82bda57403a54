// GET /v1/history/price (issue 26): a listing's quotes for one stay as this deployment observed
// them, a row per change (src/store/sql/observations.ts). Free: it reads the deployment's own
// store. Live keys read what live calls observed; sandbox keys a fixed synthetic history of the
// sandbox world's quote, the same for every caller and every day (docs/sandbox.md).
import { requireScope } from '../auth.js';
import type { OpResult, RequestContext, Services } from '../context.js';
import { isSandbox } from '../context.js';
import { decodeCursor, encodeCursor, fingerprint } from '../cursor.js';
import { ServiceError } from '../errors.js';
import { parseListingId } from '../listing-ref.js';
import { stayKey } from '../observe.js';
import { type EnabledPlatform, SINGLE_LISTING_PLATFORMS } from '../platforms.js';
import type { ObservationRow } from '../ports/store.js';
import { HISTORY_MAX_DAYS, type PriceObservation, historyPriceParams } from '../schemas/history.js';
import type { Price } from '../schemas/resources.js';
import type { StayQuery } from '../upstream.js';
import { MAX_STAY_NIGHTS } from '../limits.js';
import { type RawInput, daysBetween, parseParams } from '../validate.js';
import { buildMeta, platformFor, requireEnabled } from './common.js';

const DAY_MS = 86_400_000;
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

/**
 * The sandbox's history of a quote: one sighting a day at 00:00 UTC over the 60 days before the
 * stay, its price moving week by week around the sandbox world's quote (a pure function of the
 * listing and the stay, so the same on every day it is asked), as rows per change.
 */
async function sandboxQuotes(services: Services, platform: EnabledPlatform, id: string, stay: StayQuery): Promise<ObservationRow[]> {
  const quote = (await services.sandboxUpstream.price(platform, id, stay)) as Price;
  const start = Date.parse(`${stay.checkIn}T00:00:00Z`) - 60 * DAY_MS;
  const seed = fingerprint([platform, id, stay.checkIn, stay.checkOut, stay.adults]);
  const rows: ObservationRow[] = [];
  for (let day = 0; day < 60; day++) {
    const week = Math.floor(day / 7);
    // -8 % … +8 % by week, the last week at the quote itself.
    const step = week === 8 ? 0 : (seed.charCodeAt(week % seed.length) % 17) - 8;
    const factor = 1 + step / 100;
    const at = start + day * DAY_MS;
    const value = { nightlyPrice: Math.round(quote.nightlyPrice * factor * 100) / 100, totalPrice: Math.round(quote.totalPrice * factor * 100) / 100, fees: quote.fees };
    const last = rows.at(-1);
    if (last && JSON.stringify(last.value) === JSON.stringify(value)) {
      last.lastSeen = at;
      last.timesSeen++;
    } else {
      rows.push({ id: rows.length + 1, platform, listingId: id, kind: 'quote', key: stayKey(stay), currency: quote.currency, value, source: 'sandbox', firstSeen: at, lastSeen: at, timesSeen: 1 });
    }
  }
  return rows;
}

const toPriceObservation = (r: ObservationRow): PriceObservation => {
  const v = r.value as { nightlyPrice?: number | null; totalPrice?: number | null };
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

export async function historyPrice(services: Services, ctx: RequestContext, raw: RawInput): Promise<OpResult<PriceObservation[]>> {
  requireScope(ctx, 'stays.read');
  const q = parseParams(historyPriceParams(), raw);
  const platform = requireEnabled(platformFor(q.platform, q.listingId), SINGLE_LISTING_PLATFORMS, 'price history');
  const id = parseListingId(platform, q.listingId, { country: q.country, param: 'listingId' });
  if (q.checkOut <= q.checkIn) throw new ServiceError('invalid_date_range', 'checkOut must be after checkIn.', { param: 'checkOut' });
  if (daysBetween(q.checkIn, q.checkOut) > MAX_STAY_NIGHTS) {
    throw new ServiceError('stay_too_long', `The stay is ${daysBetween(q.checkIn, q.checkOut)} nights; at most ${MAX_STAY_NIGHTS}.`, { param: 'checkOut' });
  }
  const { from, to } = windowOf(q, services.clock.now());
  const stay: StayQuery = { checkIn: q.checkIn, checkOut: q.checkOut, adults: q.adults, children: 0, childAges: [], currency: 'USD' };
  const fp = fingerprint(['history-price', ctx.key.env, platform, id, q.checkIn, q.checkOut, q.adults, from, to]);
  const cursor = decodeCursor(q.cursor, fp);
  const after = cursor ? { firstSeen: cursor.o.t ?? 0, id: cursor.o.i ?? 0 } : null;
  let rows: ObservationRow[];
  if (isSandbox(ctx)) {
    rows = (await sandboxQuotes(services, platform, id, stay))
      .filter((r) => r.lastSeen >= from && r.firstSeen <= to && (after === null || r.firstSeen > after.firstSeen || (r.firstSeen === after.firstSeen && r.id > after.id)))
      .slice(0, q.limit + 1);
  } else {
    rows = await services.store.observationSeries({ platform, listingId: id, kind: 'quote', key: stayKey(stay), from, to, after, limit: q.limit + 1 });
    if (rows.length === 0 && after === null && !(await services.store.observedListing(platform, id))) {
      throw new ServiceError('listing_not_found', `Nothing of ${platform} listing ${id} was ever observed by this deployment (a live call for it records what it sees).`, { param: 'listingId' });
    }
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
