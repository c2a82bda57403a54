// GET /v1/price: a quote for exactly the requested listing and stay, or a typed error.
import { requireScope } from '../auth.js';
import { PRICE_COST } from '../billing.js';
import { utcToday } from '../clock.js';
import type { OpResult, RequestContext, Services } from '../context.js';
import { parseListingId } from '../listing-ref.js';
import { SINGLE_LISTING_PLATFORMS } from '../platforms.js';
import { PriceParams } from '../schemas/params.js';
import type { Price } from '../schemas/resources.js';
import { type RawInput, checkChildAges, checkStay, parseParams } from '../validate.js';
import { buildMeta, liveGate, okResult, requireEnabled } from './common.js';

export async function price(services: Services, ctx: RequestContext, raw: RawInput): Promise<OpResult<Price>> {
  requireScope(ctx, 'stays.read');
  const q = parseParams(PriceParams, raw);
  const platform = requireEnabled(q.platform, SINGLE_LISTING_PLATFORMS, 'price');
  const id = parseListingId(platform, q.listingId, { country: q.country, param: 'listingId' });
  checkStay(q, utcToday(services.clock));
  const childAges = checkChildAges(q);
  await liveGate(services, ctx, PRICE_COST);

  const data = services.sandbox.price(platform, id, {
    checkIn: q.checkIn, checkOut: q.checkOut, adults: q.adults, children: q.children, childAges, currency: q.currency,
  });
  return { data, meta: buildMeta(services, ctx, { platforms: [platform], currency: q.currency, platformResults: [okResult(platform, 1)] }) };
}
