import { z } from 'zod';
import { createCollection, deleteCollection, getCollection, listCollections, runCollectionsNow, updateCollection } from '../../../core/ops/collections.js';
import {
  MAX_COLLECTIONS,
  collectionItemSchema,
  collectionListParams,
  collectionPathParams,
  collectionRunBody,
  collectionSchema,
  createCollectionBody,
  updateCollectionBody,
} from '../../../core/schemas/collections.js';
import { withWarningDocs } from '../../docs/base.js';
import { renderOk } from '../../render.js';
import { defineRoute, jsonBody, queryInput } from '../../route.js';

// Beyond the spec (issue 38, item 1; docs/decisions.md "Collections").
const WRITE =
  'Needs the stays.read and collections.write scopes (else 403 scope_insufficient; an OAuth token, read-only, has no collections.write). The request itself is free (0 credits); a collection spends up to maxCreditsPerDay a day on its passes.';
const OWN = "Another account's collection, one of the other environment (sandbox or live) or a deleted one is 404 collection_not_found.";

export const collectionCreate = defineRoute({
  method: 'post',
  scopes: ['stays.read', 'collections.write'],
  path: '/v1/collections',
  doc: () => ({
    operationId: 'createCollection',
    summary: 'Start covering a market: every listing of an area, its calendar each cadence, within a daily budget',
    description:
      'A collection covers exactly one of a place (location), a box (bbox) or a comp set (compSet: the box around its radius), on platforms; keeps each listing’s ' +
      'calendar horizonNights ahead, fetched again each cadence; keeps rates as `rates` says (ratesByPlatform states what each platform gives); and never ' +
      `spends more than maxCreditsPerDay a UTC day. Names are unique per account and environment (400 collection_name_taken); at most ${MAX_COLLECTIONS} ` +
      `(403 collection_limit_exceeded). dryRun: true answers (200) the collection it would be, with its estimate, and creates nothing. ${WRITE}`,
    tags: ['Collections'],
    body: createCollectionBody(),
    data: collectionSchema(),
    created: true,
    errors: [400, 403, 404],
    auth: true,
  }),
  handle: async (c, ctx) => {
    const r = await createCollection(c.get('services'), ctx, await jsonBody(c));
    return c.json({ data: r.data, meta: withWarningDocs(c, r.meta) }, r.created ? 201 : 200);
  },
});

export const collectionList = defineRoute({
  method: 'get',
  scopes: ['stays.read'],
  path: '/v1/collections',
  doc: () => ({
    operationId: 'listCollections',
    summary: "The account's collections",
    description: "The collections of the key's environment, newest first, each with its progress. Free.",
    tags: ['Collections'],
    query: collectionListParams(),
    data: z.array(collectionSchema()),
    errors: [400, 403],
    auth: true,
  }),
  handle: async (c, ctx) => renderOk(c, await listCollections(c.get('services'), ctx, queryInput(c))),
});

export const collectionGet = defineRoute({
  method: 'get',
  scopes: ['stays.read'],
  path: '/v1/collections/{id}',
  doc: () => ({
    operationId: 'getCollection',
    summary: 'A collection and its progress',
    description: `By its id (col_…) or its name: its settings and its progress (listings discovered and tracked, the last complete pass, coverage, credits spent today). Free. ${OWN}`,
    tags: ['Collections'],
    path: collectionPathParams(),
    data: collectionSchema(),
    errors: [403, 404],
    auth: true,
  }),
  handle: async (c, ctx) => renderOk(c, await getCollection(c.get('services'), ctx, c.req.param('id') ?? '')),
});

export const collectionUpdate = defineRoute({
  method: 'patch',
  scopes: ['stays.read', 'collections.write'],
  path: '/v1/collections/{id}',
  doc: () => ({
    operationId: 'updateCollection',
    summary: 'Change, pause or resume a collection',
    description:
      'By its id or its name: any of name, platforms, horizonNights, cadence, rates, maxCreditsPerDay and status (active or paused); fields left out keep their ' +
      `value. The area a collection covers is fixed (create another collection for another area: 400 invalid_parameter). ${OWN} ${WRITE}`,
    tags: ['Collections'],
    path: collectionPathParams(),
    body: updateCollectionBody(),
    data: collectionSchema(),
    errors: [400, 403, 404],
    auth: true,
  }),
  handle: async (c, ctx) => renderOk(c, await updateCollection(c.get('services'), ctx, c.req.param('id') ?? '', await jsonBody(c))),
});

export const collectionDelete = defineRoute({
  method: 'delete',
  scopes: ['stays.read', 'collections.write'],
  path: '/v1/collections/{id}',
  doc: () => ({
    operationId: 'deleteCollection',
    summary: 'Delete a collection',
    description: `By its id or its name: nothing more runs for it; what it observed stays in the account's history. Answers the collection as it was deleted. ${OWN} ${WRITE}`,
    tags: ['Collections'],
    path: collectionPathParams(),
    data: collectionSchema(),
    errors: [403, 404],
    auth: true,
  }),
  handle: async (c, ctx) => renderOk(c, await deleteCollection(c.get('services'), ctx, c.req.param('id') ?? '')),
});

export const collectionRun = defineRoute({
  method: 'post',
  scopes: ['stays.read', 'collections.write'],
  path: '/v1/collections/run',
  doc: () => ({
    operationId: 'runCollections',
    summary: "Make what is left of the current pass of the account's collections, now",
    description:
      "What `stays serve` does on its own, spread over each pass (and `stays collect run`, for cron without a server): the current pass of every active collection of the key's account and environment " +
      '(or of `collection`) is planned if it is new (its discovery first, then one item per tracked listing) and its open items are made now, whatever their due time; items another ' +
      "instance holds are left to it. Each call is billed as the same call made by hand, within the collection's maxCreditsPerDay (meta.creditsCharged: their sum); an item the day's " +
      `budget cannot cover is deferred to the next UTC day. A paused collection named is 400 invalid_parameter. ${OWN} ${WRITE}`,
    tags: ['Collections'],
    body: collectionRunBody(),
    data: z.array(collectionItemSchema()),
    errors: [400, 403, 404],
    auth: true,
  }),
  handle: async (c, ctx) => renderOk(c, await runCollectionsNow(c.get('services'), ctx, await jsonBody(c))),
});
