// GET /v1/listing/{platform}/{id}: detail with an identity echo; dates embed a best-effort price
// composed at read time over the cached body (D20).
import { requireScope } from '../auth.js';
import { listingCost } from '../billing.js';
import { utcToday } from '../clock.js';
import type { RequestContext, Services } from '../context.js';
import { parseListingId } from '../listing-ref.js';
import { type Leg, type Plan, TTL } from '../plan.js';
import { observeListing } from '../observe.js';
import { type EnabledPlatform, SINGLE_LISTING_PLATFORMS } from '../platforms.js';
import { listingParams, listingPathParams } from '../schemas/param-schemas.js';
import type { Price, Property } from '../schemas/resources.js';
import { type RawInput, checkChildAges, checkStay, parseParams } from '../validate.js';
import { okResult, requireEnabled } from './common.js';
import { priceLeg } from './price.js';

/** A listing's body (no price, no identity; D20): shared with the Family S lookups and their cache. */
export function listingBodyLeg(platform: EnabledPlatform, id: string, currency: string): Leg {
  return {
    platform,
    key: `listing:${platform}:${id}:${currency}`,
    ttlMs: TTL.listing,
    need: 'listing',
    fetch: (u) => u.listing(platform, id, { currency }),
    observe: observeListing,
    stay: { platform, id },
  };
}

export function listingPlan(services: Services, ctx: RequestContext, path: RawInput, raw: RawInput): Plan<Property> {
  requireScope(ctx, 'stays.read');
  const p = parseParams(listingPathParams(), path);
  const platform = requireEnabled(p.platform, SINGLE_LISTING_PLATFORMS, 'listing');
  const q = parseParams(listingParams(), raw);
  const id = parseListingId(platform, p.id, { country: q.country, param: 'id' });
  checkStay(q, utcToday(services.clock));
  const childAges = checkChildAges(q);
  const stay = q.checkIn && q.checkOut ? { checkIn: q.checkIn, checkOut: q.checkOut, adults: q.adults, children: q.children, childAges, currency: q.currency } : undefined;
  const body = listingBodyLeg(platform, id, q.currency);
  const cost = listingCost(platform); // D25: with or without dates; the embedded price adds nothing
  return {
    operation: 'listing',
    platforms: [platform],
    currency: q.currency,
    worstCase: cost,
    legs: stay ? [body, priceLeg(platform, id, stay)] : [body],
    compose: ([b, pr]) => {
      if (!b!.ok) throw b!.error;
      const property = b!.value as Property;
      const price = pr?.ok ? (pr.value as Price) : null;
      const warnings =
        stay && !pr?.ok ? [{ code: 'price_unavailable', message: `No live price could be quoted for these dates${pr && !pr.ok ? ` (${pr.error.code})` : ''}; price is null.`, platform }] : [];
      return {
        data: { ...property, price, identity: { requestedId: p.id, resolvedId: id, canonicalUrl: property.url } },
        platformResults: [okResult(platform, 1, cost, b!.cached && (pr === undefined || pr.ok === false || pr.cached))],
        warnings,
      };
    },
  };
}
