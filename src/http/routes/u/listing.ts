import { listing } from '../../../core/ops/listing.js';
import { ListingParams, ListingPathParams } from '../../../core/schemas/params.js';
import { PropertySchema } from '../../../core/schemas/resources.js';
import { type RouteDef, queryInput } from '../../route.js';
import { renderOk } from '../../render.js';

export const listingGet: RouteDef = {
  method: 'get',
  path: '/v1/listing/{platform}/{id}',
  doc: {
    operationId: 'listing',
    summary: 'Full detail of one listing',
    description: '3 credits (vrbo 15). Dates embed a best-effort live price (may be null; the call still bills). Assert identity on data.identity.resolvedId.',
    tags: ['Data'],
    path: ListingPathParams,
    query: ListingParams,
    data: PropertySchema,
    async: true,
    errors: [400, 402, 403, 404, 503, 504],
    auth: true,
  },
  handle: async (c, ctx) =>
    renderOk(c, await listing(c.var.services, ctx, { platform: c.req.param('platform'), id: c.req.param('id') }, queryInput(c))),
};
