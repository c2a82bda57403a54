// The shape of one HTTP route: its documentation (for the OpenAPI document, generated from the
// same zod schemas the core validates with) and its handler.
import type { Context } from 'hono';
import type { z } from 'zod';
import type { RequestContext, Services } from '../core/context.js';
import type { Scope } from '../core/plans.js';
import { ServiceError } from '../core/errors.js';
import { type RawInput, checkInputText, checkJsonBounds, normalizeInput } from '../core/validate.js';

export type Env = {
  Variables: {
    requestId: string;
    services: Services;
    /** JSON of immutable response data, reused across requests. */
    jsonCache: WeakMap<object, Buffer>;
    /** Whether X-RateLimit-* headers are set for this response. */
    rateSet: boolean;
    /** The route family answering: S routes wrap errors as { error, request_id } (D9). */
    family: 'U' | 'S';
    /** The JSON body once parsed (POST /v1/search reads it before authentication to choose the family). */
    body: RawInput | undefined;
    /** Whether docUrls point at this app's own /docs (`stays serve`), unless STAYS_DOCS_URL is set. */
    ownDocs: boolean;
    /** This request's docs base, once computed (src/http/docs/base.ts). */
    docsBase: string | undefined;
    /** The host `stays serve` listens on (--host); undefined in-process. */
    listenHost: string | undefined;
  };
};

interface RouteDoc {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  query?: z.ZodObject;
  path?: z.ZodObject;
  body?: z.ZodObject;
  /** Schema of `data` on success. */
  data: z.ZodType;
  /** `{ data, meta }` (default), or bare `{ data }` (account, top-ups) or a job poll; Family S: `{ data, meta?, request_id }`. */
  envelope?: 'meta' | 'bare' | 'job' | 's' | 's-list' | 's-batch';
  /**
   * A Family U route that also takes a Family S body (POST /v1/search, D8): a StaySearchRequest,
   * answered with Stay rows (the OpenAPI document names both; the route does not load them).
   */
  alsoS?: true;
  /** A POST that makes a resource: answers 201 Created. */
  created?: boolean;
  /** Whether a live call may answer 202 with a job. */
  async?: boolean;
  /** Error statuses this route can answer with (besides 401 and 429, which every authed route has). */
  errors: number[];
  /** What an error status means on this route, where the usual text does not fit. */
  errorText?: Partial<Record<number, string>>;
  auth: boolean;
}

export interface RouteDef {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** Family U (camelCase, default) or S (snake_case, request_id in every body, D9). */
  family?: 'U' | 'S';
  /** OpenAPI-style path, e.g. /v1/listing/{platform}/{id}. */
  path: string;
  doc: RouteDoc;
  /**
   * The scopes a caller needs, all of them, checked before the handler runs (403
   * scope_insufficient); `[]`: any valid credential of the account (its own account and jobs).
   * Required, so no route is added without deciding (docs/decisions.md "Scopes on every route").
   */
  scopes: readonly Scope[];
  /** A route both families share (POST /v1/search, D8): the family of this request, decided before authentication. */
  familyFor?(c: Context<Env>): Promise<'U' | 'S'>;
  handle(c: Context<Env>, ctx: RequestContext): Promise<Response>;
}

/**
 * A route whose doc is made when it is first read: the OpenAPI document and the app's method table
 * read it, answering a request does not (a HEAD's billing check aside), so an in-process call
 * builds no documentation schemas.
 */
export function defineRoute(def: Omit<RouteDef, 'doc'> & { doc: () => RouteDoc }): RouteDef {
  const { doc, ...route } = def;
  let made: RouteDoc | undefined;
  return Object.defineProperty(route, 'doc', { get: () => (made ??= doc()), enumerable: true }) as RouteDef;
}

/** Hono's path syntax for an OpenAPI path. */
export const honoPath = (p: string) => p.replace(/\{(\w+)\}/g, ':$1');

/**
 * A request header, read from the Node request when there is one: going through c.req would
 * build a full Fetch API Request (with an AbortSignal) on every call.
 */
export function requestHeader(c: Context<Env>, name: string): string | undefined {
  const incoming = (c.env as { incoming?: { headers?: Record<string, string | string[] | undefined> } } | undefined)?.incoming;
  if (incoming?.headers) {
    const v = incoming.headers[name];
    return Array.isArray(v) ? v.join(', ') : v;
  }
  return c.req.header(name);
}

export function queryInput(c: Context<Env>): RawInput {
  const raw = normalizeInput(c.req.queries() ?? {});
  checkInputText(raw);
  return raw;
}

/** The JSON body as an object, or a typed 400. */
export async function jsonBody(c: Context<Env>): Promise<RawInput> {
  const read = c.get('body');
  if (read !== undefined) return read;
  const type = c.req.header('content-type') ?? '';
  const text = await c.req.text();
  if (text.trim() === '') return {};
  if (type !== '' && !/^application\/(.+\+)?json\b/i.test(type)) {
    throw new ServiceError('unsupported_media_type', `The request body must be JSON (Content-Type: application/json), not ${type.slice(0, 60)}.`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw new ServiceError('invalid_parameter', `The request body is not valid JSON: ${(e as Error).message.slice(0, 120)}.`, { param: 'body' });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ServiceError('invalid_parameter', 'The request body must be a JSON object.', { param: 'body' });
  }
  // Before any schema or message builder walks it: a body 6,000 objects deep once overflowed the
  // stack while an error message was being written.
  checkJsonBounds(body);
  c.set('body', body as RawInput);
  return body as RawInput;
}

/** D17: `Prefer: wait=N` (N <= 30 s) holds a live answer up to N seconds; anything else is ignored. */
export function preferWaitMs(c: Context<Env>): number {
  const m = /(?:^|[;,\s])wait=(\d{1,6})\b/i.exec(requestHeader(c, 'prefer') ?? '');
  return m ? Math.min(30, Number(m[1])) * 1000 : 0;
}
