// Stay lookups (Family S): GET /v1/stays/{id}, /by-url, /by-address (501, D9), the eight
// sub-resources and POST /v1/stays/batch. One credit per lookup or returned row (D26). The spec
// calls batch synchronous: it waits for its job to end. A live lookup waits for its job up to
// STAYS_S_SYNC_WAIT_MS, then answers 202 with the job rather than lose it.
import { ServiceError } from '../../../core/errors.js';
import { execute } from '../../../core/execute.js';
import { batchPlan, stayPartPlan, stayPlan } from '../../../core/ops/stays.js';
import { StayDatesParams } from '../../../core/schemas/params.js';
import { BatchBody, STAY_PARTS, type Stay, type StayPart, StayByUrlParams, StayListSchema, StayPartSchemas, StayPathParams, StaySchema } from '../../../core/schemas/stays.js';
import { objectMetaS, renderExecS } from '../../render.js';
import { type Env, type RouteDef, jsonBody, preferWaitMs, queryInput } from '../../route.js';
import type { Context } from 'hono';
import { BILLING_TEXT } from '../../../core/billing.js';

const TAGS = ['Stays'];
const COST = `${BILLING_TEXT.stayLookup} (D26; sandbox keys 0). Live: answered when the upstream answers, or 202 with a job past STAYS_S_SYNC_WAIT_MS.`;

/**
 * Batch, presets and S searches up to 240 rows are synchronous (spec, D10): they wait for their
 * job to end, which the source deadline bounds; the margin covers settling. Only a job that
 * outlives even that answers 202.
 */
export function alwaysSyncWaitMs(c: Context<Env>): number {
  return c.get('services').config.sourceDeadlineMs + 30_000;
}

/** Lookups and sub-resources wait for a live job up to STAYS_S_SYNC_WAIT_MS (a shorter Prefer: wait wins), then answer 202. */
function sSyncWaitMs(c: Context<Env>): number {
  const prefer = preferWaitMs(c);
  const bound = c.get('services').config.sSyncWaitMs;
  return prefer > 0 ? Math.min(prefer, bound) : bound;
}

const one = <T>(data: T, meta: Parameters<typeof objectMetaS>[0]) => ({ data, meta: objectMetaS(meta) });

/** The doc of a billed lookup: a whole Stay or one part, by path id or query. */
function lookupDoc(operationId: string, summary: string, description: string, data: RouteDef['doc']['data'], input: Pick<RouteDef['doc'], 'path' | 'query'>): RouteDef['doc'] {
  return { operationId, summary, description: `${description}${COST}`, tags: TAGS, ...input, data, envelope: 's', async: true, errors: [400, 402, 403, 404, 503, 504], auth: true };
}

export const stayGet: RouteDef = {
  method: 'get',
  scopes: ['stays.read'],
  family: 'S',
  path: '/v1/stays/{id}',
  doc: lookupDoc(
    'getStay',
    'A stay by airbnb listing id',
    'The whole Stay: pricing all null (spec rule 1) unless checkIn and checkOut are given, the next 30 days of availability, the most recent reviews. ',
    StaySchema,
    { path: StayPathParams, query: StayDatesParams },
  ),
  handle: async (c, ctx) => {
    const s = c.get('services');
    // /v1/stays/batch is a POST route; a GET of it is not a lookup of a stay called "batch".
    if (c.req.param('id') === 'batch') {
      c.header('Allow', 'POST');
      throw new ServiceError('method_not_allowed', 'GET is not allowed on /v1/stays/batch; use POST with { entries }.');
    }
    const plan = stayPlan(s, ctx, { ...queryInput(c), id: c.req.param('id') });
    return renderExecS(c, await execute(s, ctx, plan, { waitMs: sSyncWaitMs(c) }), one);
  },
};

export const stayByUrl: RouteDef = {
  method: 'get',
  scopes: ['stays.read'],
  family: 'S',
  path: '/v1/stays/by-url',
  doc: lookupDoc(
    'getStayByUrl',
    'A stay by airbnb room URL',
    'An airbnb room URL (https://www.airbnb.com/rooms/<id>); anything else is 400 invalid_listing_url. With checkIn and checkOut, pricing is quoted. ',
    StaySchema,
    { query: StayByUrlParams.extend(StayDatesParams.shape) },
  ),
  handle: async (c, ctx) => {
    const s = c.get('services');
    const plan = stayPlan(s, ctx, queryInput(c), { byUrl: true });
    return renderExecS(c, await execute(s, ctx, plan, { waitMs: sSyncWaitMs(c) }), one);
  },
};

export const stayByAddress: RouteDef = {
  method: 'get',
  scopes: ['stays.read'],
  family: 'S',
  path: '/v1/stays/by-address',
  doc: {
    operationId: 'getStayByAddress',
    summary: 'A stay by street address (not implemented)',
    description: 'Always 501 not_implemented (D9); free.',
    tags: TAGS,
    data: StaySchema,
    envelope: 's',
    errors: [501],
    auth: true,
  },
  handle: async () => {
    throw new ServiceError('not_implemented', 'Looking a stay up by address is not available yet; use GET /v1/stays/{id} or /v1/stays/by-url. Nothing was charged.');
  },
};

function partRoute(part: StayPart): RouteDef {
  const pricing = part === 'pricing' ? 'Null fields (spec rule 1) unless checkIn and checkOut are given: then the quote of that stay, as the dated search path gives it. ' : '';
  return {
    method: 'get',
    scopes: ['stays.read'],
    family: 'S',
    path: `/v1/stays/{id}/${part}`,
    doc: lookupDoc(`getStay${part[0]!.toUpperCase()}${part.slice(1)}`, `A stay's ${part}`, pricing, StayPartSchemas[part], {
      path: StayPathParams,
      ...(part === 'pricing' ? { query: StayDatesParams } : {}),
    }),
    handle: async (c, ctx) => {
      const s = c.get('services');
      const plan = stayPartPlan(s, ctx, part === 'pricing' ? { ...queryInput(c), id: c.req.param('id') } : { id: c.req.param('id') }, part);
      return renderExecS(c, await execute(s, ctx, plan, { waitMs: sSyncWaitMs(c) }), one);
    },
  };
}

export const stayPartRoutes: RouteDef[] = STAY_PARTS.map(partRoute);

export const stayBatch: RouteDef = {
  method: 'post',
  scopes: ['stays.read'],
  family: 'S',
  path: '/v1/stays/batch',
  doc: {
    operationId: 'batchStays',
    summary: 'Up to 50 stays in one call',
    description:
      'Body { entries: [{ id } or { url }] }, 1 to 50 entries, each exactly one of id or url (else 400 invalid_parameter naming entries[i]). ' +
      `An entry the upstream cannot resolve is left out of data and counted in meta.missing; the call is still 200. ${BILLING_TEXT.stayRow} (D26).`,
    tags: TAGS,
    body: BatchBody,
    data: StayListSchema,
    envelope: 's-batch',
    async: true,
    errors: [400, 402, 403, 415, 503, 504],
    auth: true,
  },
  handle: async (c, ctx) => {
    const s = c.get('services');
    const { plan, requested } = batchPlan(s, ctx, await jsonBody(c));
    return renderExecS(c, await execute(s, ctx, plan, { waitMs: alwaysSyncWaitMs(c) }), (stays: Stay[], meta) => ({
      data: stays,
      meta: { count: stays.length, requested, missing: requested - stays.length, ...objectMetaS(meta) },
    }));
  },
};
