import { z } from 'zod';
import { availability } from '../../../core/ops/availability.js';
import { AvailabilityParams } from '../../../core/schemas/params.js';
import { AvailabilitySchema } from '../../../core/schemas/resources.js';
import { type RouteDef, queryInput } from '../../route.js';
import { renderOk } from '../../render.js';

export const availabilityGet: RouteDef = {
  method: 'get',
  path: '/v1/availability',
  doc: {
    operationId: 'availability',
    summary: 'Day-by-day availability',
    description: 'One entry per day in [startDate, endDate). Per listing max(5, ceil(days/2)) credits (vrbo base 12). Cached 6 hours.',
    tags: ['Data'],
    query: AvailabilityParams,
    data: z.array(AvailabilitySchema),
    async: true,
    errors: [400, 402, 403, 404, 503, 504],
    auth: true,
  },
  handle: async (c, ctx) => renderOk(c, await availability(c.var.services, ctx, queryInput(c))),
};
