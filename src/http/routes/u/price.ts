import { pricePlan } from '../../../core/ops/price.js';
import { priceParams } from '../../../core/schemas/param-schemas.js';
import { resourceSchemas } from '../../../core/schemas/resource-schemas.js';
import { execute } from '../../../core/execute.js';
import { defineRoute, preferWaitMs, queryInput } from '../../route.js';
import { renderExec } from '../../render.js';
import { BILLING_TEXT } from '../../../core/billing.js';

export const priceGet = defineRoute({
  method: 'get',
  scopes: ['stays.read'],
  path: '/v1/price',
  doc: () => ({
    operationId: 'price',
    summary: 'Live price for one listing and one stay',
    description: `${BILLING_TEXT.price}. The quote is for exactly this listing and stay, or a typed error; cached 1 hour.`,
    tags: ['Data'],
    query: priceParams(),
    data: resourceSchemas().PriceSchema,
    async: true,
    errors: [400, 402, 403, 404, 503, 504],
    auth: true,
  }),
  handle: async (c, ctx) => renderExec(c, await execute(c.get('services'), ctx, pricePlan(c.get('services'), ctx, queryInput(c)), { waitMs: preferWaitMs(c) })),
});
