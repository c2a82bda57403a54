// compare_prices: GET /v1/price-compare.
import { operations } from '../../client/operations.js';
import type { Envelope } from '../../client/types.js';
import { PriceCompareParams } from '../../core/schemas/params.js';
import type { PriceCompare } from '../../core/schemas/resources.js';
import { queryOf, runOperation } from '../run.js';
import { creditsText, money, plural, platformsText, tailLines } from '../text.js';
import type { ToolDef } from '../tool.js';
import { BILLING_TEXT } from '../../core/billing.js';

const SHOWN = 8;

type Offer = PriceCompare['offers'][number];

/** Google mode names the seller; direct mode the listing (its seller is the platform itself). */
const seller = (o: Offer) => (o.platform && o.listingId ? `${o.ota === o.platform ? '' : `${o.ota}, `}${o.platform} ${o.listingId}` : o.ota);

/** What an offer's total includes, when any of it is not known to be included (issue 27, item 3). */
function includesText(o: Offer): string {
  const i = o.includes;
  if (!i || (i.cleaning === true && i.serviceFee === true && i.taxes === true)) return '';
  const named = [
    ['cleaning', i.cleaning],
    ['service fee', i.serviceFee],
    ['taxes', i.taxes],
  ] as const;
  const which = (v: boolean | null) =>
    named
      .filter(([, x]) => x === v)
      .map(([n]) => n)
      .join(', ');
  const parts = [which(true) && `includes ${which(true)}`, which(false) && `excludes ${which(false)}`, which(null) && `unknown whether it includes ${which(null)}`].filter(Boolean);
  return ` (total ${parts.join('; ')})`;
}

export function summarizeCompare(env: Envelope<PriceCompare>): string {
  const c = env.data;
  // The service's order: cheapest first among offers whose totals include the same things, the
  // others after them (a price_inclusions_differ warning below says which and why).
  const offers = c.offers;
  const lines = [
    `${c.property}, ${c.checkIn} to ${c.checkOut}: ${plural(offers.length, 'offer')}, min ${money(c.min, c.currency)}, median ${money(c.median, c.currency)} (total price)${
      c.comparable ? `; like for like (the ${plural(c.comparable.offers, 'offer')} ranked first): min ${money(c.comparable.min, c.currency)}, median ${money(c.comparable.median, c.currency)}` : ''
    }; ${creditsText(env.meta)}.`,
  ];
  lines.push(
    ...offers
      .slice(0, SHOWN)
      .map((o) => `- ${seller(o)}: ${money(o.totalPrice, o.currency)}${o.nightlyPrice !== undefined ? `, ${money(o.nightlyPrice, o.currency)}/night` : ''}${includesText(o)} ${o.url}`),
  );
  if (offers.length > SHOWN) lines.push(`… and ${offers.length - SHOWN} more offers in the structured result.`);
  if (env.meta.partial) lines.push(`Platforms: ${platformsText(env.meta)}.`);
  lines.push(...tailLines(env.meta, 'compare_prices'));
  return lines.join('\n');
}

export const comparePrices: ToolDef = {
  name: 'compare_prices',
  title: 'Compare prices',
  description:
    'Compare one property across sellers and platforms for given dates, with computed min and median total price. ' +
    `Either Google mode (name and location, or googleHotelId; ${BILLING_TEXT.compareGoogle}) or direct mode (listings: 2 to 6 platform:listingId pairs; ${BILLING_TEXT.compareLeg}). Sandbox keys are free.`,
  params: PriceCompareParams,
  run: (ctx, args) => runOperation<PriceCompare>(ctx, { tool: 'compare_prices', call: operations.compare(queryOf(args)), summarize: summarizeCompare }),
};
