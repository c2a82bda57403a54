import { priceComparePlan } from '../../../core/ops/compare.js';
import { priceCompareParams } from '../../../core/schemas/param-schemas.js';
import { resourceSchemas } from '../../../core/schemas/resource-schemas.js';
import { execute } from '../../../core/execute.js';
import { defineRoute, preferWaitMs, queryInput } from '../../route.js';
import { renderExec } from '../../render.js';
import { BILLING_TEXT } from '../../../core/billing.js';

export const priceCompareGet = defineRoute({
  method: 'get',
  scopes: ['stays.read'],
  path: '/v1/price-compare',
  doc: () => ({
    operationId: 'priceCompare',
    summary: 'Compare one property across sellers',
    description: `Google mode (name, location or googleHotelId): ${BILLING_TEXT.compareGoogle}. Direct mode (listings): ${BILLING_TEXT.compareLeg}. Cached 1 hour.`,
    tags: ['Data'],
    query: priceCompareParams(),
    data: resourceSchemas().PriceCompareSchema,
    async: true,
    errors: [400, 402, 403, 404, 503, 504],
    auth: true,
  }),
  handle: async (c, ctx) => renderExec(c, await execute(c.get('services'), ctx, priceComparePlan(c.get('services'), ctx, queryInput(c)), { waitMs: preferWaitMs(c) })),
});
