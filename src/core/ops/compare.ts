// GET /v1/price-compare: google mode (one aggregated leg) or direct mode (a price call per pair).
import { requireScope } from '../auth.js';
import { GOOGLE_COMPARE_COST, PRICE_COST } from '../billing.js';
import { utcToday } from '../clock.js';
import type { RequestContext, Services } from '../context.js';
import { type Plan, TTL } from '../plan.js';
import { priceLeg } from './price.js';
import { ServiceError } from '../errors.js';
import { inferListingRef, parseListingId } from '../listing-ref.js';
import { rankHonestly } from '../price-parts.js';
import { type EnabledPlatform, SINGLE_LISTING_PLATFORMS } from '../platforms.js';
import { priceCompareParams } from '../schemas/param-schemas.js';
import type { Offer, PlatformResult, Price, PriceCompare, Warning } from '../schemas/resources.js';
import { type RawInput, checkChildAges, checkStay, parseParams } from '../validate.js';
import { failedResult, okResult, parsePlatform, requireEnabled } from './common.js';

const MIN_PAIRS = 2;
const MAX_PAIRS = 6;

/** min and median totals of the offers in `currency`. */
function minMedian(offers: Offer[], currency: string): { min: number | null; median: number | null } {
  const totals = offers
    .filter((o) => o.currency === currency)
    .map((o) => o.totalPrice)
    .sort((a, b) => a - b);
  if (totals.length === 0) return { min: null, median: null };
  const mid = Math.floor(totals.length / 2);
  const median = totals.length % 2 ? totals[mid]! : (totals[mid - 1]! + totals[mid]!) / 2;
  return { min: totals[0]!, median: Math.round(median * 100) / 100 };
}

/**
 * The answer's figures (issue 36, item 7): min and median over every offer in the currency, as the
 * contract has them; when the offers' inclusions differ, the like-for-like figures of the offers
 * ranked first, in `comparable`.
 */
function figures(r: ReturnType<typeof rankHonestly>, currency: string): Pick<PriceCompare, 'min' | 'median' | 'comparable'> {
  const all = minMedian(r.offers, currency);
  if (r.warning === null) return all;
  return { ...all, comparable: { ...minMedian(r.stats, currency), offers: r.stats.length } };
}

/** Direct mode compares several listings: the title names them all (in the order given), not the first. */
function directTitle(pairs: { platform: string; id: string }[]): string {
  return pairs.map((p) => `${p.platform}:${p.id}`).join(' vs ');
}

/**
 * "platform:listingId", split on the first colon so a full URL works as the id; a listing URL or a
 * stays_ id alone names its platform itself.
 */
function parsePair(pair: string): { platform: EnabledPlatform; id: string } {
  const ref = inferListingRef(pair, { param: 'listings' });
  if (ref) return { platform: requireEnabled(ref.platform, SINGLE_LISTING_PLATFORMS, 'price'), id: ref.id };
  const at = pair.indexOf(':');
  if (at <= 0 || at === pair.length - 1) {
    throw new ServiceError('invalid_parameter', `listings entries are platform:listingId pairs or listing URLs (got ${JSON.stringify(pair.slice(0, 80))}).`, { param: 'listings' });
  }
  const platform = requireEnabled(parsePlatform(pair.slice(0, at), 'listings'), SINGLE_LISTING_PLATFORMS, 'price');
  return { platform, id: parseListingId(platform, pair.slice(at + 1), { param: 'listings' }) };
}

export function priceComparePlan(services: Services, ctx: RequestContext, raw: RawInput): Plan<PriceCompare> {
  requireScope(ctx, 'stays.read');
  const q = parseParams(priceCompareParams(), raw);
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
  const base = { checkIn: q.checkIn, checkOut: q.checkOut, currency: q.currency };

  if (pairs.length === 0) {
    const query = { name: q.name, location: q.location, googleHotelId: q.googleHotelId };
    return {
      operation: 'price-compare',
      platforms: ['google'],
      currency: q.currency,
      worstCase: GOOGLE_COMPARE_COST,
      legs: [{ platform: 'google', key: `compare:google:${JSON.stringify([query, stay])}`, ttlMs: TTL.compare, need: 'compare', fetch: (u) => u.compareGoogle(query, stay) }],
      compose: ([o]) => {
        if (!o!.ok) throw o!.error;
        const g = o!.value as { property: string; offers: Offer[] };
        const r = rankHonestly(g.offers, q.currency, (x) => x.ota);
        return {
          data: { property: g.property, ...base, ...figures(r, q.currency), offers: r.offers, source: 'google_aggregator' },
          platformResults: [okResult('google', g.offers.length, GOOGLE_COMPARE_COST, o!.cached)],
          warnings: r.warning ? [r.warning] : [],
        };
      },
    };
  }

  // Direct mode: a real price call per pair, in parallel; failed legs cost 0 (D1).
  return {
    operation: 'price-compare',
    platforms: [...new Set(pairs.map((p) => p.platform))],
    currency: q.currency,
    worstCase: pairs.length * PRICE_COST,
    legs: pairs.map(({ platform, id }) => priceLeg(platform, id, stay)),
    compose: (outcomes) => {
      const offers: Offer[] = [];
      const results: PlatformResult[] = [];
      const warnings: Omit<Warning, 'docUrl'>[] = [];
      outcomes.forEach((o, i) => {
        const { platform, id } = pairs[i]!;
        if (!o.ok) {
          results.push(failedResult(platform, o.error));
          warnings.push({ code: o.error.code, message: `${platform}:${id}: ${o.error.message}`, platform });
          return;
        }
        const p = o.value as Price;
        const offer: Offer = { ota: platform, platform, listingId: id, totalPrice: p.totalPrice, nightlyPrice: p.nightlyPrice, currency: p.currency, url: p.url, fees: p.fees, nights: p.nights };
        if (p.includes) offer.includes = p.includes;
        if (p.lineItems) offer.lineItems = p.lineItems;
        offers.push(offer);
        results.push(okResult(platform, 1, PRICE_COST, o.cached));
      });
      if (offers.length === 0) {
        const errors = outcomes.flatMap((o) => (o.ok ? [] : [o.error]));
        if (errors.every((e) => e.code === errors[0]!.code)) throw errors[0]!;
        throw new ServiceError('upstream_degraded', `Every leg failed: ${errors.map((e) => e.code).join(', ')}.`);
      }
      const r = rankHonestly(offers, q.currency, (x) => `${x.platform}:${x.listingId}`);
      if (r.warning) warnings.push(r.warning);
      return {
        data: { property: directTitle(pairs), ...base, ...figures(r, q.currency), offers: r.offers, source: 'direct_fanout' },
        platformResults: results,
        warnings,
      };
    },
  };
}
