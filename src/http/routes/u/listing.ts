import { listingPlan } from '../../../core/ops/listing.js';
import { listingParams, listingPathParams } from '../../../core/schemas/param-schemas.js';
import { resourceSchemas } from '../../../core/schemas/resource-schemas.js';
import { execute } from '../../../core/execute.js';
import { defineRoute, preferWaitMs, queryInput } from '../../route.js';
import { renderExec } from '../../render.js';
import { BILLING_TEXT } from '../../../core/billing.js';

export const listingGet = defineRoute({
  method: 'get',
  scopes: ['stays.read'],
  path: '/v1/listing/{platform}/{id}',
  doc: () => ({
    operationId: 'listing',
    summary: 'Full detail of one listing',
    description: `${BILLING_TEXT.listing}. Dates embed a best-effort live price (may be null; the call still bills). Assert identity on data.identity.resolvedId.`,
    tags: ['Data'],
    path: listingPathParams(),
    query: listingParams(),
    data: resourceSchemas().PropertySchema,
    async: true,
    errors: [400, 402, 403, 404, 503, 504],
    auth: true,
  }),
  handle: async (c, ctx) => {
    const plan = listingPlan(c.get('services'), ctx, { platform: c.req.param('platform'), id: c.req.param('id') }, queryInput(c));
    return renderExec(c, await execute(c.get('services'), ctx, plan, { waitMs: preferWaitMs(c) }));
  },
});
