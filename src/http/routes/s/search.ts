// The Family S search forms (D8, D10): POST /v1/search with an S body (dispatched from the shared
// route), /v1/search/with-details and the presets /v1/listings/{superhost,luxury,instant-book}.
// maxItems up to 240 and the presets are synchronous (a live job is waited for until it ends);
// 241–250 go async: 202 with a job unless cached or Prefer: wait answers.
import type { Context } from 'hono';
import type { RequestContext } from '../../../core/context.js';
import { execute } from '../../../core/execute.js';
import type { SSearchKind } from '../../../core/ops/stay-search.js';
import { SSearchBody, StayListSchema } from '../../../core/schemas/stays.js';
import { type RawInput, normalizeInput } from '../../../core/validate.js';
import { listMetaS, renderExecS } from '../../render.js';
import { type Env, type RouteDef, jsonBody, preferWaitMs } from '../../route.js';
import { alwaysSyncWaitMs } from './stays.js';
import { BILLING_TEXT } from '../../../core/billing.js';

/** Runs one S search form over a parsed body. */
export async function runSSearch(c: Context<Env>, ctx: RequestContext, body: RawInput, kind: SSearchKind): Promise<Response> {
  const s = c.get('services');
  // The S search's operation (and its Stay paths) load with the first S search a process serves.
  const { sSearchPlan } = await import('../../../core/ops/stay-search.js');
  // As Family U bodies: null and blank values are absent, so a resent body with `nextPageToken: null` is page one.
  const { plan, memoKey, async, metaWarning, defaultDates } = sSearchPlan(s, ctx, normalizeInput(body), kind);
  const waitMs = async ? preferWaitMs(c) : alwaysSyncWaitMs(c);
  return renderExecS(c, await execute(s, ctx, plan, { memoKey, waitMs }), (data: unknown[], meta) => ({
    data,
    meta: { ...listMetaS(data.length, meta), ...(metaWarning ? { warning: metaWarning } : {}), ...(defaultDates ? { default_dates: defaultDates } : {}) },
  }));
}

const BILLING: Record<SSearchKind, string> = {
  search: `${BILLING_TEXT.stayRow} (D26).`,
  'with-details': `${BILLING_TEXT.stayRowDetails} (D26).`,
  superhost: `Keeps only rows whose host is a superhost, so count may be below maxItems. ${BILLING_TEXT.stayRow}.`,
  luxury: `priceMin is pinned to 300 per night, or the caller's value if higher. ${BILLING_TEXT.stayRow}.`,
  'instant-book': `Rows are not filtered; meta.warning is "experimental". ${BILLING_TEXT.stayRow}.`,
};

function searchRoute(kind: Exclude<SSearchKind, 'search'>, path: string, summary: string): RouteDef {
  const preset = kind !== 'with-details';
  return {
    method: 'post',
    scopes: ['stays.read'],
    family: 'S',
    path,
    doc: {
      operationId:
        kind === 'with-details'
          ? 'searchWithDetails'
          : `listings${kind
              .split('-')
              .map((w) => w[0]!.toUpperCase() + w.slice(1))
              .join('')}`,
      summary,
      description: `${preset ? 'Body as SearchRequest; maxItems defaults to 50 and is capped at 50 (with a warning); always synchronous. ' : 'Body as SearchRequest; each row enriched like a stay lookup (description, amenities, availability, reviews). '}${BILLING[kind]}`,
      tags: ['Stays'],
      body: SSearchBody,
      data: StayListSchema,
      envelope: 's-list',
      async: !preset,
      errors: [400, 402, 403, 415, 503, 504],
      auth: true,
    },
    handle: async (c, ctx) => runSSearch(c, ctx, await jsonBody(c), kind),
  };
}

export const searchWithDetails = searchRoute('with-details', '/v1/search/with-details', 'Search stays, each row enriched like a lookup');
export const listingsSuperhost = searchRoute('superhost', '/v1/listings/superhost', 'Preset: stays of superhosts');
export const listingsLuxury = searchRoute('luxury', '/v1/listings/luxury', 'Preset: stays from 300 per night');
export const listingsInstantBook = searchRoute('instant-book', '/v1/listings/instant-book', 'Preset: instant-book stays (experimental)');
