import { z } from 'zod';
import { createWatch, deleteWatch, getWatch, listWatchEvents, listWatches } from '../../../core/ops/watches.js';
import { MAX_ACTIVE_WATCHES, WATCH_MIN_INTERVAL_MINUTES, createWatchBody, watchEventSchema, watchEventsParams, watchListParams, watchPathParams, watchSchema } from '../../../core/schemas/watches.js';
import { runWatchesNow } from '../../../core/ops/watch-run-now.js';
import { watchRunBody, watchRunSchema } from '../../../core/schemas/watch-runs.js';
import { withWarningDocs } from '../../docs/base.js';
import { renderOk } from '../../render.js';
import { defineRoute, jsonBody, queryInput } from '../../route.js';

// Beyond the spec (issue 26, item 4; docs/decisions.md "Watches").
const WRITE = 'Needs the stays.read and watches.write scopes (else 403 scope_insufficient; an OAuth token, read-only, has no watches.write). Free (0 credits): the runs are billed.';
const OWN = "Another account's watch, one of the other environment (sandbox or live) or a deleted one is 404 watch_not_found.";

export const watchCreate = defineRoute({
  method: 'post',
  scopes: ['stays.read', 'watches.write'],
  path: '/v1/watches',
  doc: () => ({
    operationId: 'createWatch',
    summary: 'Watch a call: run it on an interval and raise an event when a rule holds',
    description:
      'A watch names a call (a price quote, one listing’s availability window, a search: the query parameters of GET /v1/price, /v1/availability or ' +
      '/v1/search, checked as those endpoints check them, an invalid one 400 with param call.params.<name>) and rules: price_below (amount), price_drop ' +
      '(percent, from one run to the next), nights_available, min_nights_changed, new_listings. A rule that cannot trigger on the call is 400 ' +
      `invalid_parameter. \`stays serve\` runs it every intervalMinutes (at least ${WATCH_MIN_INTERVAL_MINUTES}), the first run at once, as the key that ` +
      'created it: each run is billed exactly as the same call made by hand (holds, free failures), and skipped when it could take the day past ' +
      'maxCreditsPerDay. Each rule that holds on a run is an event: GET /v1/watches/{id}/events, and a signed watch.triggered webhook event to the ' +
      "account's webhooks of the key's environment. Sandbox keys may create watches (free): listing 100 (any platform) and the search location `watch` " +
      `raise every rule on every run (docs/sandbox.md). At most ${MAX_ACTIVE_WATCHES} watches per account, active and ended (else 403 watch_limit_exceeded); call.params only the parameters the endpoint takes. ${WRITE}`,
    tags: ['Watches'],
    body: createWatchBody(),
    data: watchSchema(),
    created: true,
    errors: [400, 403],
    auth: true,
  }),
  handle: async (c, ctx) => {
    const r = await createWatch(c.get('services'), ctx, await jsonBody(c));
    return c.json({ data: r.data, meta: withWarningDocs(c, r.meta) }, 201);
  },
});

export const watchList = defineRoute({
  method: 'get',
  scopes: ['stays.read'],
  path: '/v1/watches',
  doc: () => ({
    operationId: 'listWatches',
    summary: "The account's watches",
    description: "The watches of the key's environment, active and ended (not deleted), newest first, cursor-paginated. Free.",
    tags: ['Watches'],
    query: watchListParams(),
    data: z.array(watchSchema()),
    errors: [400, 403],
    auth: true,
  }),
  handle: async (c, ctx) => renderOk(c, await listWatches(c.get('services'), ctx, queryInput(c))),
});

export const watchGet = defineRoute({
  method: 'get',
  scopes: ['stays.read'],
  path: '/v1/watches/{id}',
  doc: () => ({
    operationId: 'getWatch',
    summary: 'A watch',
    description: `With its last run (outcome, credits charged, error) and the credits its runs spent today. Free. ${OWN}`,
    tags: ['Watches'],
    path: watchPathParams(),
    data: watchSchema(),
    errors: [403, 404],
    auth: true,
  }),
  handle: async (c, ctx) => renderOk(c, await getWatch(c.get('services'), ctx, c.req.param('id') ?? '')),
});

export const watchDelete = defineRoute({
  method: 'delete',
  scopes: ['stays.read', 'watches.write'],
  path: '/v1/watches/{id}',
  doc: () => ({
    operationId: 'deleteWatch',
    summary: 'Delete a watch',
    description: `No more runs; the watch and its events are deleted from the store at once; answers the watch as deleted. A run already under way finishes, keeping nothing. ${OWN} ${WRITE}`,
    tags: ['Watches'],
    path: watchPathParams(),
    data: watchSchema(),
    errors: [403, 404],
    auth: true,
  }),
  handle: async (c, ctx) => renderOk(c, await deleteWatch(c.get('services'), ctx, c.req.param('id') ?? '')),
});

export const watchEventsGet = defineRoute({
  method: 'get',
  scopes: ['stays.read'],
  path: '/v1/watches/{id}/events',
  doc: () => ({
    operationId: 'listWatchEvents',
    summary: "A watch's events",
    description:
      'Every rule that held on a run, oldest first, cursor-paginated: the rule, what the run before saw and what this one saw (price rules), ' +
      `or the nights or listings that changed. Each is also a watch.triggered webhook event (its watch_event_id is the id here). Free. ${OWN}`,
    tags: ['Watches'],
    path: watchPathParams(),
    query: watchEventsParams(),
    data: z.array(watchEventSchema()),
    errors: [400, 403, 404],
    auth: true,
  }),
  handle: async (c, ctx) => renderOk(c, await listWatchEvents(c.get('services'), ctx, c.req.param('id') ?? '', queryInput(c))),
});

export const watchRunPost = defineRoute({
  method: 'post',
  scopes: ['stays.read', 'watches.write'],
  path: '/v1/watches/run',
  doc: () => ({
    operationId: 'runDueWatches',
    summary: 'Run the due watches of this key once, now',
    description:
      "The watches of the key's account and environment whose next run is due, each run once now (what `stays serve` does every 30 s, and " +
      '`stays watch run`), claimed first so a server running them at the same time runs others; a watch not due is not run, so calling this ' +
      'again at once runs nothing. Each run is billed as its call made by hand (meta.creditsCharged: the sum) and its events are also ' +
      'GET /v1/watches/{id}/events and watch.triggered webhooks. A run whose call became a job is `pending`: the job finishes on its own. ' +
      'The body is empty: any field is 400 invalid_parameter. Needs the stays.read and watches.write scopes (else 403 scope_insufficient; an ' +
      'OAuth token, read-only, has no watches.write).',
    tags: ['Watches'],
    body: watchRunBody(),
    data: z.array(watchRunSchema()),
    errors: [400, 403],
    auth: true,
  }),
  handle: async (c, ctx) => renderOk(c, await runWatchesNow(c.get('services'), ctx, await jsonBody(c))),
});
