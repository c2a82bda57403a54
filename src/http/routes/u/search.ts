import { z } from 'zod';
import { ServiceError } from '../../../core/errors.js';
import { execute } from '../../../core/execute.js';
import { searchPlan, searchPlanOf } from '../../../core/ops/search.js';
import { SearchParams } from '../../../core/schemas/params.js';
import { PropertySchema } from '../../../core/schemas/resources.js';
import { FAMILY_S_SEARCH_KEYS, FAMILY_U_ONLY_SEARCH_KEYS } from '../../../core/search-family.js';
import { type RawInput, normalizeInput } from '../../../core/validate.js';
import { type RouteDef, jsonBody, preferWaitMs, queryInput } from '../../route.js';
import { renderExec } from '../../render.js';
import { BILLING_TEXT } from '../../../core/billing.js';

const doc = {
  summary: 'Search properties across platforms',
  description:
    'Fans out to each platform (limit applies per platform), merges round-robin by default, cursor-paginated. Credits per result per platform (airbnb 2, booking 1, vrbo 1, min 5; google 15 per page of 20).',
  tags: ['Data'],
  data: z.array(PropertySchema),
  async: true,
  errors: [400, 402, 403, 503, 504],
  auth: true,
};

export const searchGet: RouteDef = {
  method: 'get',
  scopes: ['stays.read'],
  path: '/v1/search',
  doc: { ...doc, operationId: 'searchGet', query: SearchParams },
  handle: async (c, ctx) => {
    // The query is a function of the URL: parsed and planned once per URL and day.
    const { plan, memoKey } = searchPlanOf(c.get('services'), ctx, c.req.url, () => queryInput(c));
    return renderExec(c, await execute(c.get('services'), ctx, plan, { memoKey, waitMs: preferWaitMs(c) }));
  },
};

/** D8: the body's keys choose the family; a body that has keys only Family S has is an S search. */
function sKeyOf(body: RawInput): string | undefined {
  // Null and blank values are absent here as everywhere (normalizeInput): `"pets": null` is no S key.
  const given = normalizeInput(body);
  return FAMILY_S_SEARCH_KEYS.find((k) => k in given);
}

export const searchPost: RouteDef = {
  method: 'post',
  scopes: ['stays.read'],
  path: '/v1/search',
  doc: {
    ...doc,
    operationId: 'searchPost',
    summary: 'Search: the JSON body form of GET /v1/search, or a Family S SearchRequest',
    description: `${doc.description} A body with any key only Family S has (${FAMILY_S_SEARCH_KEYS.join(', ')}) is a Family S search (D8): Stay rows, { data, meta, request_id }, ${BILLING_TEXT.stayRow}; mixing it with a Family U-only key is 400 mutually_exclusive_params.`,
    body: SearchParams,
    alsoS: true,
  },
  // Known before authentication, so an S body's every error (401, 429 included) takes the S envelope (D9).
  familyFor: async (c) => {
    try {
      return sKeyOf(await jsonBody(c)) !== undefined ? 'S' : 'U';
    } catch {
      // A body refused for what it holds (text no store can keep, too deep) is still an S body
      // when its top-level keys say so, and its 400 takes the S envelope.
      try {
        const raw: unknown = JSON.parse(await c.req.text());
        return typeof raw === 'object' && raw !== null && !Array.isArray(raw) && sKeyOf(raw as RawInput) !== undefined ? 'S' : 'U';
      } catch {
        return 'U';
      }
    }
  },
  handle: async (c, ctx) => {
    const body = await jsonBody(c);
    const sKey = sKeyOf(body);
    if (sKey !== undefined) {
      const given = normalizeInput(body);
      const uKey = FAMILY_U_ONLY_SEARCH_KEYS.find((k) => k in given);
      if (uKey !== undefined) {
        throw new ServiceError('mutually_exclusive_params', `The body mixes ${uKey} (unified search) with ${sKey} (stay search); use one form.`, { param: sKey });
      }
      // Family S is loaded with its first request: a plain search does not build its schemas.
      const { runSSearch } = await import('../s/search.js');
      return runSSearch(c, ctx, body, 'search');
    }
    const { plan, memoKey } = searchPlan(c.get('services'), ctx, normalizeInput(body));
    return renderExec(c, await execute(c.get('services'), ctx, plan, { memoKey, waitMs: preferWaitMs(c) }));
  },
};
