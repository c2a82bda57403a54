// get_listing: GET /v1/listing/{platform}/{id}; one input schema from the path and query schemas.
import { operations } from '../../client/operations.js';
import type { Envelope } from '../../client/types.js';
import { ListingParams, ListingPathParams } from '../../core/schemas/params.js';
import type { Property } from '../../core/schemas/resources.js';
import { parseParams } from '../../core/validate.js';
import { errorResult } from '../results.js';
import { queryOf, runOperation } from '../run.js';
import { clip, creditsText, money, plural, rating, tailLines } from '../text.js';
import type { ToolDef } from '../tool.js';
import { BILLING_TEXT } from '../../core/billing.js';

const AMENITIES_SHOWN = 12;

export function summarizeListing(env: Envelope<Property>): string {
  const p = env.data;
  const place = [p.location.city, p.location.country].filter(Boolean).join(', ');
  const lines = [`${clip(p.name, 100)} (${p.platform} ${p.platformListingId}): ${p.propertyType}${place ? ` in ${place}` : ''}.`];
  const size = [
    p.bedrooms !== null ? plural(p.bedrooms, 'bedroom') : null,
    p.bathrooms !== null ? plural(p.bathrooms, 'bathroom') : null,
    p.maxOccupancy !== null ? `sleeps ${p.maxOccupancy}` : null,
  ].filter(Boolean);
  if (size.length > 0) lines.push(`Size: ${size.join(', ')}.`);
  const r = rating(p.guestRating, p.ratingScale);
  if (r) lines.push(`Guest rating ${r}${p.reviewCount !== null ? ` from ${plural(p.reviewCount, 'review')}` : ''}${p.starRating ? `; ${p.starRating} stars` : ''}.`);
  if (p.host?.name) lines.push(`Host: ${p.host.name}${p.host.isSuperhost ? ' (superhost)' : ''}.`);
  if (p.amenities.length > 0) {
    const more = p.amenities.length - AMENITIES_SHOWN;
    lines.push(`Amenities: ${p.amenities.slice(0, AMENITIES_SHOWN).join(', ')}${more > 0 ? ` (+${more} more)` : ''}.`);
  }
  if (p.price) lines.push(`Price: ${money(p.price.totalPrice, p.price.currency)} for ${plural(p.price.nights, 'night')} (${money(p.price.nightlyPrice, p.price.currency)}/night).`);
  if (p.identity?.resolvedId && p.identity.requestedId && p.identity.resolvedId !== p.identity.requestedId) lines.push(`Note: ${p.identity.requestedId} resolved to ${p.identity.resolvedId}.`);
  lines.push(`URL: ${p.url}`, `Cost: ${creditsText(env.meta)}.`);
  lines.push(...tailLines(env.meta, 'get_listing'));
  return lines.join('\n');
}

export const getListing: ToolDef = {
  name: 'get_listing',
  title: 'Get listing',
  description:
    'Full detail for one listing: type, location, size, ratings, host, amenities, photos; with checkIn and checkOut, a best-effort live price. ' +
    `id is the platform-native id (platformListingId from search_stays), a stays_ id or a listing URL. Live keys pay ${BILLING_TEXT.listing}; sandbox keys are free.`,
  params: ListingPathParams.extend(ListingParams.shape),
  run: async (ctx, args) => {
    const { platform, id, ...query } = args;
    try {
      // The path's two values are checked here: an empty id would be another route.
      parseParams(ListingPathParams, { platform, id });
    } catch (e) {
      return errorResult(e);
    }
    return runOperation<Property>(ctx, { tool: 'get_listing', call: operations.listing(String(platform), String(id), queryOf(query)), summarize: summarizeListing });
  },
};
