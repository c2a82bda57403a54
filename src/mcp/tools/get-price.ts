// get_price: GET /v1/price.
import { operations } from '../../client/operations.js';
import type { Envelope } from '../../client/types.js';
import { PriceParams } from '../../core/schemas/params.js';
import type { Price } from '../../core/schemas/resources.js';
import { queryOf, runOperation } from '../run.js';
import { creditsText, money, plural, tailLines } from '../text.js';
import type { Args, ToolDef } from '../tool.js';
import { BILLING_TEXT } from '../../core/billing.js';

export function summarizePrice(env: Envelope<Price>, args: Args): string {
  const p = env.data;
  const party = [plural(p.occupancy.adults, 'adult'), p.occupancy.children > 0 ? plural(p.occupancy.children, 'child', 'children') : null].filter(Boolean).join(', ');
  const dates = typeof args.checkIn === 'string' && typeof args.checkOut === 'string' ? `${args.checkIn} to ${args.checkOut}, ` : '';
  const fees = Object.entries(p.fees)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `${k} ${money(v, p.currency)}`);
  return [
    `${p.platform} ${p.listingId}, ${dates}${plural(p.nights, 'night')}, ${party}: ${money(p.totalPrice, p.currency)} total, ${money(p.nightlyPrice, p.currency)}/night${fees.length > 0 ? ` (fees: ${fees.join(', ')})` : ''}.`,
    ...(p.includes
      ? [
          `The total includes: ${(
            [
              ['cleaning', p.includes.cleaning],
              ['service fee', p.includes.serviceFee],
              ['taxes', p.includes.taxes],
            ] as const
          )
            .map(([n, v]) => `${n} ${v === true ? 'yes' : v === false ? 'no (payable on top)' : 'unknown'}`)
            .join(', ')}.`,
        ]
      : []),
    `Book: ${p.url}`,
    `Cost: ${creditsText(env.meta)}.`,
    ...tailLines(env.meta, 'get_price'),
  ].join('\n');
}

export const getPrice: ToolDef = {
  name: 'get_price',
  title: 'Get price',
  description:
    'A real price quote for one listing for specific dates and occupancy: total, nightly price and fees. ' +
    `The quote is for exactly this listing and stay, or an error. Live keys pay ${BILLING_TEXT.price}; sandbox keys are free.`,
  params: PriceParams,
  run: (ctx, args) => runOperation<Price>(ctx, { tool: 'get_price', call: operations.price(queryOf(args)), summarize: (env) => summarizePrice(env, args) }),
};
