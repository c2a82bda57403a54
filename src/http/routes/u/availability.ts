import { z } from 'zod';
import { availabilityPlan } from '../../../core/ops/availability.js';
import { availabilityParams } from '../../../core/schemas/param-schemas.js';
import { resourceSchemas } from '../../../core/schemas/resource-schemas.js';
import { execute } from '../../../core/execute.js';
import { defineRoute, preferWaitMs, queryInput } from '../../route.js';
import { renderExec } from '../../render.js';
import { BILLING_TEXT } from '../../../core/billing.js';

export const availabilityGet = defineRoute({
  method: 'get',
  scopes: ['stays.read'],
  path: '/v1/availability',
  doc: () => ({
    operationId: 'availability',
    summary: 'Day-by-day availability',
    description: `One entry per day in [startDate, endDate). Per listing ${BILLING_TEXT.availability} (${BILLING_TEXT.availabilityVrbo}). Cached 6 hours.`,
    tags: ['Data'],
    query: availabilityParams(),
    data: z.array(resourceSchemas().AvailabilitySchema),
    async: true,
    errors: [400, 402, 403, 404, 503, 504],
    auth: true,
  }),
  handle: async (c, ctx) => renderExec(c, await execute(c.get('services'), ctx, availabilityPlan(c.get('services'), ctx, queryInput(c)), { waitMs: preferWaitMs(c) })),
});
