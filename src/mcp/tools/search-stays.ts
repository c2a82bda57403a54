// search_stays: GET /v1/search.
import { operations } from '../../client/operations.js';
import type { Envelope } from '../../client/types.js';
import { SearchParams } from '../../core/schemas/params.js';
import type { Property } from '../../core/schemas/resources.js';
import { queryOf, runOperation } from '../run.js';
import { clip, creditsText, money, platformsText, plural, rating, tailLines } from '../text.js';
import type { Args, ToolDef } from '../tool.js';
import { checkAvailability } from './check-availability.js';
import { getListing } from './get-listing.js';
import { getPrice } from './get-price.js';
import { getReviews } from './get-reviews.js';
import { BILLING_TEXT } from '../../core/billing.js';

const SHOWN = 10;

function row(p: Property, i: number): string {
  const bits = [`${p.platform} ${p.platformListingId}`, p.propertyType];
  const r = rating(p.guestRating, p.ratingScale);
  if (r) bits.push(`${r}${p.reviewCount !== null ? ` (${plural(p.reviewCount, 'review')})` : ''}`);
  if (p.bedrooms !== null) bits.push(plural(p.bedrooms, 'bedroom'));
  if (p.price) bits.push(`${money(p.price.nightlyPrice, p.price.currency)}/night`);
  return `${i + 1}. ${clip(p.name, 70)}: ${bits.join(', ')}`;
}

/** The tools a search row leads to, each with the argument it takes the id in (read from its own schema). */
const FOLLOW_UPS: readonly ToolDef[] = [getListing, getPrice, checkAvailability, getReviews];

/** `get_listing {platform, id}, get_price {platform, listingId}, …`: the hint cannot name an argument a tool does not have. */
function followUps(): string {
  return FOLLOW_UPS.map((t) => {
    const keys = Object.keys(t.params.shape);
    const key = ['id', 'listingId'].find((k) => keys.includes(k)) ?? keys.find((k) => /id$/i.test(k))!;
    return `${t.name} {platform, ${key}: platformListingId}`;
  }).join(', ');
}

export function summarizeSearch(env: Envelope<Property[]>, args: Args): string {
  const rows = env.data;
  const where = typeof args.location === 'string' ? ` in ${args.location}` : '';
  const lines = [`${plural(rows.length, 'property', 'properties')}${where} (${platformsText(env.meta)}); ${creditsText(env.meta)}.`];
  lines.push(...rows.slice(0, SHOWN).map(row));
  if (rows.length > SHOWN) lines.push(`… and ${rows.length - SHOWN} more in the structured result.`);
  if (rows.length > 0) lines.push(`Next: a row's platform and platformListingId go to ${followUps()}.`);
  lines.push(...tailLines(env.meta, 'search_stays', true));
  return lines.join('\n');
}

export const searchStays: ToolDef = {
  name: 'search_stays',
  title: 'Search stays',
  description:
    'Search stays across platforms (airbnb, booking, vrbo, google) by location, dates, occupancy and filters. ' +
    'Results are merged across platforms; limit applies per platform; page with the cursor from meta.pagination.nextCursor. ' +
    `Live keys pay ${BILLING_TEXT.search}; sandbox keys are free.`,
  params: SearchParams,
  run: (ctx, args) => runOperation<Property[]>(ctx, { tool: 'search_stays', call: operations.search(queryOf(args)), summarize: (env) => summarizeSearch(env, args) }),
};
