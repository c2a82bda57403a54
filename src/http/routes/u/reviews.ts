import { z } from 'zod';
import { reviewsPlan } from '../../../core/ops/reviews.js';
import { ReviewsParams } from '../../../core/schemas/params.js';
import { ReviewSchema } from '../../../core/schemas/resources.js';
import { execute } from '../../../core/execute.js';
import { type RouteDef, preferWaitMs, queryInput } from '../../route.js';
import { renderExec } from '../../render.js';
import { BILLING_TEXT } from '../../../core/billing.js';

export const reviewsGet: RouteDef = {
  method: 'get',
  scopes: ['stays.read'],
  path: '/v1/reviews',
  doc: {
    operationId: 'reviews',
    summary: 'Reviews of one listing',
    description: `${BILLING_TEXT.reviews}. Cursor-paginated.`,
    tags: ['Data'],
    query: ReviewsParams,
    data: z.array(ReviewSchema),
    async: true,
    errors: [400, 402, 403, 404, 503, 504],
    auth: true,
  },
  handle: async (c, ctx) => renderExec(c, await execute(c.get('services'), ctx, reviewsPlan(c.get('services'), ctx, queryInput(c)), { waitMs: preferWaitMs(c) })),
};
