import { z } from 'zod';
import { reviewsPlan } from '../../../core/ops/reviews.js';
import { reviewsParams } from '../../../core/schemas/param-schemas.js';
import { resourceSchemas } from '../../../core/schemas/resource-schemas.js';
import { execute } from '../../../core/execute.js';
import { defineRoute, preferWaitMs, queryInput } from '../../route.js';
import { renderExec } from '../../render.js';
import { BILLING_TEXT } from '../../../core/billing.js';

export const reviewsGet = defineRoute({
  method: 'get',
  scopes: ['stays.read'],
  path: '/v1/reviews',
  doc: () => ({
    operationId: 'reviews',
    summary: 'Reviews of one listing',
    description: `${BILLING_TEXT.reviews}. Cursor-paginated.`,
    tags: ['Data'],
    query: reviewsParams(),
    data: z.array(resourceSchemas().ReviewSchema),
    async: true,
    errors: [400, 402, 403, 404, 503, 504],
    auth: true,
  }),
  handle: async (c, ctx) => renderExec(c, await execute(c.get('services'), ctx, reviewsPlan(c.get('services'), ctx, queryInput(c)), { waitMs: preferWaitMs(c) })),
});
