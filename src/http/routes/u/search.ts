import { z } from 'zod';
import { ServiceError } from '../../../core/errors.js';
import { execute } from '../../../core/execute.js';
import { searchPlan, searchPlanOf } from '../../../core/ops/search.js';
import { searchParams } from '../../../core/schemas/param-schemas.js';
import { resourceSchemas } from '../../../core/schemas/resource-schemas.js';
import { once } from '../../../core/schemas/once.js';
import { FAMILY_S_SEARCH_KEYS, FAMILY_U_ONLY_SEARCH_KEYS } from '../../../core/search-family.js';
import { type RawInput, normalizeInput } from '../../../core/validate.js';
import { defineRoute, jsonBody, preferWaitMs, queryInput } from '../../route.js';
import { renderExec } from '../../render.js';
import { BILLING_TEXT } from '../../../core/billing.js';

const DESCRIPTION =
  'Fans out to each platform (limit applies per platform), merges round-robin by default, cursor-paginated. Credits per result per platform (airbnb 2, booking 1, vrbo 1, min 5; google 15 per page of 20).';

/** The rows both forms answer: one schema, so the OpenAPI document names it once. */
const searchData = once(() => z.array(resourceSchemas().PropertySchema));

/** What both forms document (made with the first doc read: defineRoute). */
const doc = () => ({
  summary: 'Search properties across platforms',
  description: DESCRIPTION,
  tags: ['Data'],
  data: searchData(),
  async: true as const,
  errors: [400, 402, 403, 503, 504],
  auth: true,
});

export const searchGet = defineRoute({
  method: 'get',
  scopes: ['stays.read'],
  path: '/v1/search',
  doc: () => ({ ...doc(), operationId: 'searchGet', query: searchParams() }),
  handle: async (c, ctx) => {
    // The query is a function of the URL: parsed and planned once per URL and day.
    const { plan, memoKey } = searchPlanOf(c.get('services'), ctx, c.req.url, () => queryInput(c));
    return renderExec(c, await execute(c.get('services'), ctx, plan, { memoKey, waitMs: preferWaitMs(c) }));
  },
});

/** D8: the body's keys choose the family; a body that has keys only Family S has is an S search. */
function sKeyOf(body: RawInput): string | undefined {
  // Null and blank values are absent here as everywhere (normalizeInput): `"pets": null` is no S key.
  const given = normalizeInput(body);
  return FAMILY_S_SEARCH_KEYS.find((k) => k in given);
}

export const searchPost = defineRoute({
  method: 'post',
  scopes: ['stays.read'],
  path: '/v1/search',
  doc: () => ({
    ...doc(),
    operationId: 'searchPost',
    summary: 'Search: the JSON body form of GET /v1/search, or a Family S SearchRequest',
    description: `${DESCRIPTION} A body with any key only Family S has (${FAMILY_S_SEARCH_KEYS.join(', ')}) is a Family S search (D8): Stay rows, { data, meta, request_id }, ${BILLING_TEXT.stayRow}; mixing it with a Family U-only key is 400 mutually_exclusive_params.`,
    body: searchParams(),
    alsoS: true,
  }),
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
});
