// GET /v1/listing/{platform}/{id}: detail with an identity echo; dates embed a best-effort price.
import { requireScope } from '../auth.js';
import { listingCost } from '../billing.js';
import { utcToday } from '../clock.js';
import type { OpResult, RequestContext, Services } from '../context.js';
import { parseListingId } from '../listing-ref.js';
import { SINGLE_LISTING_PLATFORMS } from '../platforms.js';
import { ListingParams, ListingPathParams } from '../schemas/params.js';
import type { Property } from '../schemas/resources.js';
import { type RawInput, checkChildAges, checkStay, parseParams } from '../validate.js';
import { buildMeta, liveGate, okResult, requireEnabled } from './common.js';

export async function listing(services: Services, ctx: RequestContext, path: RawInput, raw: RawInput): Promise<OpResult<Property>> {
  requireScope(ctx, 'stays.read');
  const p = parseParams(ListingPathParams, path);
  const platform = requireEnabled(p.platform, SINGLE_LISTING_PLATFORMS, 'listing');
  const q = parseParams(ListingParams, raw);
  const id = parseListingId(platform, p.id, { country: q.country, param: 'id' });
  checkStay(q, utcToday(services.clock));
  const childAges = checkChildAges(q);
  await liveGate(services, ctx, listingCost(platform));

  const stay = q.checkIn && q.checkOut
    ? { checkIn: q.checkIn, checkOut: q.checkOut, adults: q.adults, children: q.children, childAges, currency: q.currency }
    : undefined;
  const data = services.sandbox.listing(platform, id, { currency: q.currency, requestedId: p.id, stay });
  const warnings = stay && data.price === null
    ? [{ code: 'price_unavailable', message: 'No live price could be quoted for these dates; price is null.', platform }]
    : [];
  return { data, meta: buildMeta(services, ctx, { platforms: [platform], currency: q.currency, platformResults: [okResult(platform, 1)], warnings }) };
}
