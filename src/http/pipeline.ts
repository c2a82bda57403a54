// What every API request goes through, whoever delivers it: the request's variables, the route's
// authentication, rate limit, scope check and Idempotency-Key, and the error envelope. The Hono
// app (app.ts) runs these for `stays serve` and tests; the in-process CLI transport runs the very
// same functions without Hono for the plain GET calls a command makes (direct.ts).
import type { Context } from 'hono';
import type { Logger } from 'pino';
import { authenticate, rateBucket, requireActiveAccount, requireScope } from '../core/auth.js';
import type { RequestContext, Services } from '../core/context.js';
import { ServiceError, isServiceError } from '../core/errors.js';
import { newRequestId } from '../core/ids.js';
import { RateLimiter, type RateDecision, refuseIfLimited, takeShared } from '../core/ratelimit.js';
import { withIdempotency } from './idempotency.js';
import { renderError } from './render.js';
import { type Env, type RouteDef, honoPath, requestHeader } from './route.js';

export interface AppOptions {
  logger?: Logger;
  /**
   * docUrls point at this app's own /docs pages (`stays serve`), at its public URL or the
   * request's origin. Unset (in-process): at the documentation shipped with the package.
   * STAYS_DOCS_URL overrides both.
   */
  ownDocs?: boolean;
  /** The host `stays serve` listens on: a non-loopback one needs STAYS_PUBLIC_URL for OAuth. */
  listenHost?: string;
}

/** What the requests of one app share: its services, options, rate limiters and caches. */
export interface Pipeline {
  services: Services;
  opts: AppOptions;
  routes: RouteDef[];
  keyLimiter: RateLimiter;
  anonLimiter: RateLimiter;
  /** Paths of Family S routes: their errors take `{ error, request_id }` even before a handler runs (413, 405). */
  /** Every Family S path and S_PREFIX in one expression: a single test per request, not one per route. */
  sPaths: RegExp;
  jsonCache: WeakMap<object, Buffer>;
}

/**
 * The pipeline of `routes`: the app's are every route (routes/index.ts); the in-process
 * transport's direct way starts with Family U's (Family S and its schemas load with the app, on
 * the first request that needs it: withRoutes).
 */
export function createPipeline(services: Services, routes: RouteDef[], opts: AppOptions = {}): Pipeline {
  return {
    services,
    opts,
    routes,
    keyLimiter: new RateLimiter(services.clock),
    anonLimiter: new RateLimiter(services.clock),
    sPaths: familyS(routes),
    jsonCache: new WeakMap<object, Buffer>(),
  };
}

/** The same pipeline (its limiters and caches) serving `routes`. */
export function withRoutes(p: Pipeline, routes: RouteDef[]): Pipeline {
  return { ...p, routes, sPaths: familyS(routes) };
}

function setRateHeaders(c: Context<Env>, d: RateDecision): void {
  c.set('rateSet', true);
  c.header('X-RateLimit-Limit', String(d.limit));
  c.header('X-RateLimit-Remaining', String(d.remaining));
  c.header('X-RateLimit-Reset', String(d.resetAt));
}

/**
 * Whether the client went away before its request was fully read (a body cut short, a reset): an
 * ordinary event on a network service, logged at info, not a server error.
 */
function clientGone(env: unknown, err: unknown): boolean {
  const incoming = (env as { incoming?: { complete?: boolean; destroyed?: boolean; errored?: unknown; socket?: { destroyed?: boolean } | null } } | undefined)?.incoming;
  if (!incoming || incoming.complete) return false;
  const code = (err as { code?: unknown } | null)?.code;
  return incoming.destroyed === true || incoming.socket?.destroyed === true || (incoming.errored ?? null) !== null || code === 'ECONNRESET' || code === 'ECONNABORTED';
}

/** A Hono path (`/v1/webhooks/:id`) as a regular expression matching the request paths it serves. */
export const pathPattern = (p: string) => new RegExp(`^${p.replace(/[.]/g, '\\.').replace(/:\w+/g, '[^/]+')}$`);

/**
 * A GET that may cost credits (it can become a job). Its HEAD is refused: an answer without a
 * body could not report what it charged, and a free HEAD could not say what the GET would answer.
 */
export const billedGet = (r: RouteDef) => r.method === 'get' && r.doc.async === true;

/** Paths only Family S has: an unknown path under them (a 404) takes the S envelope too. */
const S_PREFIX = /^\/v1\/(?:stays|listings|webhooks)(?:\/|$)/;

function familyS(routes: RouteDef[]): RegExp {
  const paths = routes.filter((r) => r.family === 'S').map((r) => pathPattern(honoPath(r.path)).source);
  return new RegExp([...paths, S_PREFIX.source].map((s) => `(?:${s})`).join('|'));
}

export function clientAddress(env: unknown): string {
  const incoming = (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? 'in-process';
}

/** Callers without a valid key share a per-address bucket (D23: every response has the headers). */
/** What a caller without a valid key is told past its address's limit. */
const ANONYMOUS_LIMITED = 'Too many unauthenticated requests';

/** A caller without valid credentials (the MCP, OAuth and docs endpoints): a token of its address's bucket, the rate headers, 429 past the limit. */
export function limitAnonymous(p: Pipeline, c: Context<Env>): void {
  const d = p.anonLimiter.take(clientAddress(c.env), p.services.config.anonymousRpm);
  setRateHeaders(c, d);
  refuseIfLimited(d, ANONYMOUS_LIMITED);
}

export function anonRate(p: Pipeline, c: Context<Env>): void {
  if (!c.get('rateSet')) setRateHeaders(c, p.anonLimiter.take(clientAddress(c.env), p.services.config.anonymousRpm));
}

/**
 * The start of every request: its variables and X-Request-Id. Variables are read with
 * c.get(name): Hono's c.var builds a fresh object of all of them at every read
 * (Object.fromEntries), ~5% of a sandbox search's CPU when every read went through it.
 */
export function beginRequest(p: Pipeline, c: Context<Env>): void {
  c.set('requestId', newRequestId(p.services.ids));
  c.set('services', p.services);
  c.set('jsonCache', p.jsonCache);
  c.set('ownDocs', p.opts.ownDocs === true);
  c.set('listenHost', p.opts.listenHost);
  // Before the body limit, authentication and the route, so every error on an S path takes its envelope.
  c.set('family', p.sPaths.test(c.req.path) ? 'S' : 'U');
  c.header('X-Request-Id', c.get('requestId'));
}

/** The request log line (`stays serve`). */
export function endRequest(p: Pipeline, c: Context<Env>, started: number): void {
  p.opts.logger?.info({ reqId: c.get('requestId'), method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round((performance.now() - started) * 10) / 10 }, 'request');
}

/** One route's handler: authentication, rate limit, scopes and Idempotency-Key around the route's own. */
export function routeHandler(p: Pipeline, route: RouteDef): (c: Context<Env>) => Promise<Response> {
  const { services, opts, anonLimiter, keyLimiter } = p;
  return async (c) => {
    let ctx: RequestContext;
    if (c.req.method === 'HEAD' && billedGet(route)) {
      anonRate(p, c);
      c.header('Allow', 'GET');
      throw new ServiceError('method_not_allowed', `HEAD is not allowed on ${route.path}: a billed call needs the body that reports its charge; use GET.`);
    }
    if (route.familyFor) c.set('family', await route.familyFor(c));
    // Past the database's queue, a new request is refused at once (503, retryable) rather than
    // queued into a timeout; requests already admitted finish.
    services.store.admit?.();
    const address = clientAddress(c.env);
    try {
      const who = await authenticate(services, requestHeader(c, 'authorization'));
      ctx = { ...who, requestId: c.get('requestId') };
    } catch (e) {
      // A caller whose key could not be read (the database overloaded or down) is not an anonymous
      // one: its error (503, retryable) goes out as it is, and takes nothing of its address's bucket.
      if (!isServiceError(e) || e.type !== 'authentication_error') {
        setRateHeaders(c, anonLimiter.peek(address, services.config.anonymousRpm));
        throw e;
      }
      const d = anonLimiter.take(address, services.config.anonymousRpm);
      setRateHeaders(c, d);
      refuseIfLimited(d, ANONYMOUS_LIMITED);
      throw e;
    }
    const shared = services.store.shared;
    const d = shared ? await takeShared(shared, services.clock, rateBucket(ctx), ctx.account.requestsPerMinute) : keyLimiter.take(rateBucket(ctx), ctx.account.requestsPerMinute);
    setRateHeaders(c, d);
    refuseIfLimited(d, `Rate limit of ${d.limit} requests per minute exceeded`);
    requireActiveAccount(ctx);
    const missing = route.scopes.find((x) => !ctx.key.scopes.includes(x));
    if (missing !== undefined) {
      // Refused before the handler reads the body: read it anyway (within the body limit), so
      // the answer does not leave an unread body on a kept-alive connection, which the server
      // would otherwise cut after a short drain.
      if (c.req.method === 'POST') await c.req.text().catch(() => undefined);
      requireScope(ctx, missing);
    }
    // Per account, so after authentication and the scope check; before the handler, so a replay executes nothing.
    return withIdempotency(c, ctx, () => route.handle(c, ctx), opts.logger);
  };
}

/** The answer to an error a handler threw: its typed envelope, or a 500 that names the request id. */
export function errorAnswer(p: Pipeline, err: Error, c: Context<Env>): Response {
  anonRate(p, c);
  if (isServiceError(err)) return renderError(c, err);
  if (clientGone(c.env, err)) {
    // Nobody reads this answer; the status only tells the request log what happened.
    p.opts.logger?.info({ reqId: c.get('requestId'), reason: err instanceof Error ? err.message.slice(0, 200) : String(err).slice(0, 200) }, 'client disconnected');
    return renderError(c, new ServiceError('invalid_parameter', 'The client closed the connection before the request was read.', { param: 'body' }));
  }
  p.opts.logger?.error({ reqId: c.get('requestId'), err }, 'unhandled error');
  return renderError(c, new ServiceError('internal_error', `An unexpected error occurred; quote ${c.get('requestId')} to support.`));
}
