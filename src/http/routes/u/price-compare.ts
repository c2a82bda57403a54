import { priceComparePlan } from '../../../core/ops/compare.js';
import { PriceCompareParams } from '../../../core/schemas/params.js';
import { PriceCompareSchema } from '../../../core/schemas/resources.js';
import { execute } from '../../../core/execute.js';
import { type RouteDef, preferWaitMs, queryInput } from '../../route.js';
import { renderExec } from '../../render.js';
import { BILLING_TEXT } from '../../../core/billing.js';

export const priceCompareGet: RouteDef = {
  method: 'get',
  scopes: ['stays.read'],
  path: '/v1/price-compare',
  doc: {
    operationId: 'priceCompare',
    summary: 'Compare one property across sellers',
    description: `Google mode (name, location or googleHotelId): ${BILLING_TEXT.compareGoogle}. Direct mode (listings): ${BILLING_TEXT.compareLeg}. Cached 1 hour.`,
    tags: ['Data'],
    query: PriceCompareParams,
    data: PriceCompareSchema,
    async: true,
    errors: [400, 402, 403, 404, 503, 504],
    auth: true,
  },
  handle: async (c, ctx) => renderExec(c, await execute(c.get('services'), ctx, priceComparePlan(c.get('services'), ctx, queryInput(c)), { waitMs: preferWaitMs(c) })),
};
