import { pricePlan } from '../../../core/ops/price.js';
import { PriceParams } from '../../../core/schemas/params.js';
import { PriceSchema } from '../../../core/schemas/resources.js';
import { execute } from '../../../core/execute.js';
import { type RouteDef, preferWaitMs, queryInput } from '../../route.js';
import { renderExec } from '../../render.js';
import { BILLING_TEXT } from '../../../core/billing.js';

export const priceGet: RouteDef = {
  method: 'get',
  scopes: ['stays.read'],
  path: '/v1/price',
  doc: {
    operationId: 'price',
    summary: 'Live price for one listing and one stay',
    description: `${BILLING_TEXT.price}. The quote is for exactly this listing and stay, or a typed error; cached 1 hour.`,
    tags: ['Data'],
    query: PriceParams,
    data: PriceSchema,
    async: true,
    errors: [400, 402, 403, 404, 503, 504],
    auth: true,
  },
  handle: async (c, ctx) => renderExec(c, await execute(c.get('services'), ctx, pricePlan(c.get('services'), ctx, queryInput(c)), { waitMs: preferWaitMs(c) })),
};
