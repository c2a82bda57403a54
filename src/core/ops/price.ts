// GET /v1/price: a quote for exactly the requested listing and stay, or a typed error.
import { requireScope } from '../auth.js';
import { PRICE_COST } from '../billing.js';
import { utcToday } from '../clock.js';
import type { RequestContext, Services } from '../context.js';
import { parseListingId } from '../listing-ref.js';
import { type Leg, type Plan, TTL } from '../plan.js';
import { observeQuote } from '../observe.js';
import { type EnabledPlatform, SINGLE_LISTING_PLATFORMS } from '../platforms.js';
import { priceParams } from '../schemas/param-schemas.js';
import type { Price } from '../schemas/resources.js';
import type { StayQuery } from '../upstream.js';
import { type RawInput, checkChildAges, checkStay, parseParams } from '../validate.js';
import { okResult, platformFor, requireEnabled } from './common.js';

/** The price leg, shared by price, listing (embedded price) and direct-mode price-compare. */
export function priceLeg(platform: EnabledPlatform, id: string, stay: StayQuery): Leg {
  return {
    platform,
    key: `price:${platform}:${id}:${JSON.stringify(stay)}`,
    ttlMs: TTL.price,
    need: 'price',
    fetch: (u) => u.price(platform, id, stay),
    observe: observeQuote(stay),
  };
}

export function pricePlan(services: Services, ctx: RequestContext, raw: RawInput): Plan<Price> {
  requireScope(ctx, 'stays.read');
  const q = parseParams(priceParams(), raw);
  const platform = requireEnabled(platformFor(q.platform, q.listingId), SINGLE_LISTING_PLATFORMS, 'price');
  const id = parseListingId(platform, q.listingId, { country: q.country, param: 'listingId' });
  checkStay(q, utcToday(services.clock));
  const childAges = checkChildAges(q);
  const stay = { checkIn: q.checkIn, checkOut: q.checkOut, adults: q.adults, children: q.children, childAges, currency: q.currency };
  return {
    operation: 'price',
    platforms: [platform],
    currency: q.currency,
    worstCase: PRICE_COST,
    legs: [priceLeg(platform, id, stay)],
    compose: ([o]) => {
      // A price is for exactly this listing and stay, or the leg's typed error (never another property's price).
      if (!o!.ok) throw o!.error;
      return { data: o!.value as Price, platformResults: [okResult(platform, 1, PRICE_COST, o!.cached)], warnings: [] };
    },
  };
}
