import { z } from 'zod';
import { createCompSet, deleteCompSet, getCompSet, listCompSets } from '../../../core/ops/compsets.js';
import { market } from '../../../core/ops/market.js';
import { MAX_COMPSETS, compSetDetailSchema, compSetListParams, compSetPathParams, compSetSchema, createCompSetBody, marketParams, marketSchema } from '../../../core/schemas/market.js';
import { withWarningDocs } from '../../docs/base.js';
import { renderOk } from '../../render.js';
import { defineRoute, jsonBody, queryInput } from '../../route.js';

// Beyond the spec (issue 27, item 2; docs/decisions.md "Market metrics", "Comp sets").
const WRITE = 'Needs the stays.read and watches.write scopes (else 403 scope_insufficient; an OAuth token, read-only, has no watches.write). Free (0 credits).';
const OWN = "Another account's comp set, one of the other environment (sandbox or live) or a deleted one is 404 compset_not_found.";

export const marketGet = defineRoute({
  method: 'get',
  scopes: ['stays.read'],
  path: '/v1/market',
  doc: () => ({
    operationId: 'market',
    summary: 'Market metrics of a place, a bounding box or a comp set',
    description:
      'Always 0 credits, never 202: computed from what the live calls of its account observed (README: what accounts see of each other; live calls record searches, listings, quotes and calendars). ' +
      'Exactly one of location, bbox, compSet. For the nights [from, to): active listings, ADR, occupancy as two labelled figures (the calendar-unavailable ' +
      'rate and the inferred booked rate), RevPAR, booking window, length of stay and nightly price percentiles (25/50/75/90), overall, by platform and by ' +
      'bedroom count, and per week or month with interval; every figure with its sample size and method (methods says each in words), and the window the ' +
      'observations used were made in. A figure with no sample is null, never zero. 404 no_observations when nothing of the scope was observed for those ' +
      'nights. A sandbox key reads a synthetic history of the sandbox world (the same on every call).',
    tags: ['Market'],
    query: marketParams(),
    data: marketSchema(),
    errors: [400, 403, 404],
    auth: true,
  }),
  handle: async (c, ctx) => renderOk(c, await market(c.get('services'), ctx, queryInput(c))),
});

export const compSetCreate = defineRoute({
  method: 'post',
  scopes: ['stays.read', 'watches.write'],
  path: '/v1/compsets',
  doc: () => ({
    operationId: 'createCompSet',
    summary: 'Save a comp set: the listings observed within a radius of an anchor listing',
    description:
      "The anchor's coordinates are its latest observed ones (404 listing_not_found when it was never observed; 404 no_observations when no observation " +
      'recorded where it is). The comp set holds whichever listings were observed within radiusMeters of it (and with bedrooms, on platforms) when its ' +
      `metrics are read: GET /v1/market?compSet=ID. Names are unique per account and environment (400 compset_name_taken); at most ${MAX_COMPSETS} ` +
      `(403 compset_limit_exceeded). ${WRITE}`,
    tags: ['Market'],
    body: createCompSetBody(),
    data: compSetSchema(),
    created: true,
    errors: [400, 403, 404],
    auth: true,
  }),
  handle: async (c, ctx) => {
    const r = await createCompSet(c.get('services'), ctx, await jsonBody(c));
    return c.json({ data: r.data, meta: withWarningDocs(c, r.meta) }, 201);
  },
});

export const compSetList = defineRoute({
  method: 'get',
  scopes: ['stays.read'],
  path: '/v1/compsets',
  doc: () => ({
    operationId: 'listCompSets',
    summary: "The account's comp sets",
    description: "The comp sets of the key's environment, newest first. Free.",
    tags: ['Market'],
    query: compSetListParams(),
    data: z.array(compSetSchema()),
    errors: [400, 403],
    auth: true,
  }),
  handle: async (c, ctx) => renderOk(c, await listCompSets(c.get('services'), ctx, queryInput(c))),
});

export const compSetGet = defineRoute({
  method: 'get',
  scopes: ['stays.read'],
  path: '/v1/compsets/{id}',
  doc: () => ({
    operationId: 'getCompSet',
    summary: 'A comp set, with the listings it holds now',
    description: `By its id (cs_…) or its name, with its members: the listings observed (with coordinates) within its radius now, nearest first, which its market figures rest on. Free. ${OWN}`,
    tags: ['Market'],
    path: compSetPathParams(),
    data: compSetDetailSchema(),
    errors: [403, 404],
    auth: true,
  }),
  handle: async (c, ctx) => renderOk(c, await getCompSet(c.get('services'), ctx, c.req.param('id') ?? '')),
});

export const compSetDelete = defineRoute({
  method: 'delete',
  scopes: ['stays.read', 'watches.write'],
  path: '/v1/compsets/{id}',
  doc: () => ({
    operationId: 'deleteCompSet',
    summary: 'Delete a comp set',
    description: `By its id or its name; answers the comp set as it was. ${OWN} ${WRITE}`,
    tags: ['Market'],
    path: compSetPathParams(),
    data: compSetSchema(),
    errors: [403, 404],
    auth: true,
  }),
  handle: async (c, ctx) => renderOk(c, await deleteCompSet(c.get('services'), ctx, c.req.param('id') ?? '')),
});
