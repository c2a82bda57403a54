// GET /v1/price-compare: google mode (one aggregated leg) or direct mode (a price call per pair).
import { requireScope } from '../auth.js';
import { GOOGLE_COMPARE_COST, PRICE_COST } from '../billing.js';
import { utcToday } from '../clock.js';
import type { OpResult, RequestContext, Services } from '../context.js';
import { ServiceError } from '../errors.js';
import { parseListingId } from '../listing-ref.js';
import { type EnabledPlatform, SINGLE_LISTING_PLATFORMS } from '../platforms.js';
import { PriceCompareParams } from '../schemas/params.js';
import type { Offer, PlatformResult, PriceCompare, Warning } from '../schemas/resources.js';
import { type RawInput, checkChildAges, checkStay, parseParams } from '../validate.js';
import { buildMeta, failedResult, liveGate, okResult, parsePlatform, requireEnabled } from './common.js';

export const MIN_PAIRS = 2;
export const MAX_PAIRS = 6;

function minMedian(offers: Offer[], currency: string): { min: number | null; median: number | null } {
  const totals = offers.filter((o) => o.currency === currency).map((o) => o.totalPrice).sort((a, b) => a - b);
  if (totals.length === 0) return { min: null, median: null };
  const mid = Math.floor(totals.length / 2);
  const median = totals.length % 2 ? totals[mid]! : (totals[mid - 1]! + totals[mid]!) / 2;
  return { min: totals[0]!, median: Math.round(median * 100) / 100 };
}

/** "platform:listingId", split on the first colon so a full URL works as the id. */
function parsePair(pair: string): { platform: EnabledPlatform; id: string } {
  const at = pair.indexOf(':');
  if (at <= 0 || at === pair.length - 1) {
    throw new ServiceError('invalid_parameter', `listings entries are platform:listingId pairs (got ${JSON.stringify(pair.slice(0, 80))}).`, { param: 'listings' });
  }
  const platform = requireEnabled(parsePlatform(pair.slice(0, at), 'listings'), SINGLE_LISTING_PLATFORMS, 'price');
  return { platform, id: parseListingId(platform, pair.slice(at + 1), { param: 'listings' }) };
}

export async function priceCompare(services: Services, ctx: RequestContext, raw: RawInput): Promise<OpResult<PriceCompare>> {
  requireScope(ctx, 'stays.read');
  const q = parseParams(PriceCompareParams, raw);
  const google = (['name', 'location', 'googleHotelId'] as const).filter((k) => q[k] !== undefined);
  if (q.listings !== undefined && google.length > 0) {
    throw new ServiceError('mutually_exclusive_params', `listings (direct mode) and ${google[0]} (google mode) are mutually exclusive.`, { param: google[0]! });
  }
  if (q.listings === undefined && google.length === 0) {
    throw new ServiceError('missing_parameter', 'Give listings (direct mode) or name, location or googleHotelId (google mode).', { param: 'listings' });
  }
  if (q.googleHotelId !== undefined && google.length > 1) {
    throw new ServiceError('mutually_exclusive_params', 'googleHotelId identifies the property exactly; do not combine it with name or location.', {
      param: 'googleHotelId',
    });
  }
  let pairs: { platform: EnabledPlatform; id: string }[] = [];
  if (q.listings !== undefined) {
    if (q.listings.length < MIN_PAIRS || q.listings.length > MAX_PAIRS) {
      throw new ServiceError('invalid_parameter', `listings takes ${MIN_PAIRS} to ${MAX_PAIRS} platform:listingId pairs (got ${q.listings.length}).`, { param: 'listings' });
    }
    pairs = q.listings.map(parsePair);
  }
  checkStay(q, utcToday(services.clock));
  const childAges = checkChildAges(q);
  const stay = { checkIn: q.checkIn, checkOut: q.checkOut, adults: q.adults, children: q.children, childAges, currency: q.currency };
  await liveGate(services, ctx, pairs.length > 0 ? pairs.length * PRICE_COST : GOOGLE_COMPARE_COST);

  if (pairs.length === 0) {
    const g = services.sandbox.compareGoogle({ name: q.name, location: q.location, googleHotelId: q.googleHotelId }, stay);
    const data: PriceCompare = { property: g.property, checkIn: q.checkIn, checkOut: q.checkOut, currency: q.currency, ...minMedian(g.offers, q.currency), offers: g.offers, source: 'google_aggregator' };
    return { data, meta: buildMeta(services, ctx, { platforms: ['google'], currency: q.currency, platformResults: [okResult('google', g.offers.length)] }) };
  }

  const offers: Offer[] = [];
  const results: PlatformResult[] = [];
  const warnings: Omit<Warning, 'docUrl'>[] = [];
  const errors: ServiceError[] = [];
  let property: string | null = null;
  for (const { platform, id } of pairs) {
    try {
      const p = services.sandbox.price(platform, id, stay);
      offers.push({ ota: platform, platform, listingId: id, totalPrice: p.totalPrice, nightlyPrice: p.nightlyPrice, currency: p.currency, url: p.url, fees: p.fees, nights: p.nights });
      property ??= `${platform}:${id}`;
      results.push(okResult(platform, 1));
    } catch (e) {
      if (!(e instanceof ServiceError)) throw e;
      errors.push(e);
      results.push(failedResult(platform, e));
      warnings.push({ code: e.code, message: `${platform}:${id}: ${e.message}`, platform });
    }
  }
  if (offers.length === 0) {
    const first = errors[0]!;
    if (errors.every((e) => e.code === first.code)) throw first;
    throw new ServiceError('upstream_degraded', `Every leg failed: ${errors.map((e) => e.code).join(', ')}.`);
  }
  const data: PriceCompare = { property: property!, checkIn: q.checkIn, checkOut: q.checkOut, currency: q.currency, ...minMedian(offers, q.currency), offers, source: 'direct_fanout' };
  const platforms = [...new Set(pairs.map((p) => p.platform))];
  return { data, meta: buildMeta(services, ctx, { platforms, currency: q.currency, platformResults: results, warnings }) };
}
