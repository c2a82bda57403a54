// The Hono app: one instance serves `stays serve`, the in-process CLI transport and tests.
import pkg from '../../package.json' with { type: 'json' };
import { upstreamReport } from '../sources/upstream-report.js';
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Logger } from 'pino';
import { authenticate, rateBucket, requireActiveAccount, requireScope } from '../core/auth.js';
import type { RequestContext, Services } from '../core/context.js';
import { ServiceError, isServiceError } from '../core/errors.js';
import { newRequestId } from '../core/ids.js';
import { RateLimiter, type RateDecision, takeShared } from '../core/ratelimit.js';
import { mountMcp } from '../mcp/mount.js';
import { mountOAuth } from '../oauth/routes.js';
import { mountDocs } from './docs/routes.js';
import { withIdempotency } from './idempotency.js';
import { buildOpenApi } from './openapi.js';
import { renderError } from './render.js';
import { type Env, type RouteDef, honoPath, requestHeader } from './route.js';
import { FAMILY_S_ROUTES } from './routes/s/index.js';
import { FAMILY_U_ROUTES } from './routes/u/index.js';

export const MAX_BODY_BYTES = 1024 * 1024;

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
const pathPattern = (p: string) => new RegExp(`^${p.replace(/[.]/g, '\\.').replace(/:\w+/g, '[^/]+')}$`);

/** `Allow` for each path the app serves: a path it knows with another method is a 405 (RFC 9110 §15.5.6). */
function allowTable(routes: RouteDef[]): [RegExp, string][] {
  const billedPaths = new Set(routes.filter(billedGet).map((r) => honoPath(r.path)));
  const methods = new Map<string, Set<string>>([
    ['/v1/health', new Set(['GET'])],
    ['/v1/openapi.json', new Set(['GET'])],
  ]);
  for (const r of routes) {
    const p = honoPath(r.path);
    methods.set(p, (methods.get(p) ?? new Set()).add(r.method.toUpperCase()));
  }
  return [...methods].map(([p, m]) => {
    if (m.has('GET') && !billedPaths.has(p)) m.add('HEAD'); // Hono answers HEAD with the GET handler
    return [pathPattern(p), ['GET', 'HEAD', 'POST', 'DELETE'].filter((x) => m.has(x)).join(', ')];
  });
}

/**
 * A GET that may cost credits (it can become a job). Its HEAD is refused: an answer without a
 * body could not report what it charged, and a free HEAD could not say what the GET would answer.
 */
const billedGet = (r: RouteDef) => r.method === 'get' && r.doc.async === true;

/** Paths of Family S routes: their errors take `{ error, request_id }` even before a handler runs (413, 405). */
/** Paths only Family S has: an unknown path under them (a 404) takes the S envelope too. */
const S_PREFIX = /^\/v1\/(?:stays|listings|webhooks)(?:\/|$)/;

/** One expression for every Family S path and S_PREFIX: a single test per request, not one per route. */
function familyS(routes: RouteDef[]): RegExp {
  const paths = routes.filter((r) => r.family === 'S').map((r) => pathPattern(honoPath(r.path)).source);
  return new RegExp([...paths, S_PREFIX.source].map((s) => `(?:${s})`).join('|'));
}

function clientAddress(env: unknown): string {
  const incoming = (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? 'in-process';
}

export function createApp(services: Services, opts: AppOptions = {}) {
  const app = new Hono<Env>();
  const keyLimiter = new RateLimiter(services.clock);
  const anonLimiter = new RateLimiter(services.clock);
  const routes: RouteDef[] = [...FAMILY_U_ROUTES, ...FAMILY_S_ROUTES];
  const allow = allowTable(routes);
  const sPaths = familyS(routes);
  let openapi: unknown;
  const jsonCache = new WeakMap<object, Buffer>();

  // Headers are set before the handler builds its response, and nothing reads the request through
  // the Fetch API objects unless it must: with @hono/node-server either would turn the light
  // request/response wrappers into full undici objects on every call (docs/benchmarks.md).
  const anonRate = (c: Context<Env>) => {
    // Callers without a valid key share a per-address bucket (D23: every response has the headers).
    if (!c.get('rateSet')) setRateHeaders(c, anonLimiter.take(clientAddress(c.env), services.config.anonymousRpm));
  };

  // Variables are read with c.get(name): Hono's c.var builds a fresh object of all of them at every
  // read (Object.fromEntries), ~5% of a sandbox search's CPU when every read went through it.
  app.use('*', async (c, next) => {
    const started = performance.now();
    c.set('requestId', newRequestId(services.ids));
    c.set('services', services);
    c.set('jsonCache', jsonCache);
    c.set('ownDocs', opts.ownDocs === true);
    c.set('listenHost', opts.listenHost);
    // Before the body limit, authentication and the route, so every error on an S path takes its envelope.
    c.set('family', sPaths.test(c.req.path) ? 'S' : 'U');
    c.header('X-Request-Id', c.get('requestId'));
    await next();
    opts.logger?.info(
      { reqId: c.get('requestId'), method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round((performance.now() - started) * 10) / 10 },
      'request',
    );
  });

  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => {
      // The rest of the body is never read, so the connection cannot be reused.
      c.header('Connection', 'close');
      anonRate(c);
      return renderError(c, new ServiceError('payload_too_large'));
    },
  });
  app.use('*', (c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limitBody(c, next)));

  // Liveness, the server's version and what serves each platform's live data (no secrets), for
  // `stays doctor` against a server; computed once, the settings do not change while it runs.
  let health: Promise<object> | undefined;
  app.get('/v1/health', async (c) => {
    anonRate(c);
    health ??= upstreamReport(services.config).then((upstream) => ({ status: 'ok', version: pkg.version, upstream }));
    return c.json(await health, 200);
  });
  app.get('/v1/openapi.json', (c) => {
    anonRate(c);
    openapi ??= buildOpenApi(routes);
    return c.json(openapi as object, 200);
  });

  // The MCP tool server (Streamable HTTP); its tools call this app in-process with the caller's credential.
  const anonymous = (c: Context<Env>) => {
    const d = anonLimiter.take(clientAddress(c.env), services.config.anonymousRpm);
    setRateHeaders(c, d);
    return d;
  };
  mountMcp(app, { fetch: (r) => app.fetch(r), anonymous });
  // Its OAuth 2.1 authorization server (discovery, registration, the consent page, tokens).
  mountOAuth(app, { anonymous, address: (c) => clientAddress(c.env) });
  // The API reference and the error and warning pages every docUrl names.
  mountDocs(app, { anonymous });

  for (const route of routes) {
    app.on(route.method.toUpperCase(), honoPath(route.path), async (c) => {
      let ctx: RequestContext;
      if (c.req.method === 'HEAD' && billedGet(route)) {
        anonRate(c);
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
        const d = anonLimiter.take(address, services.config.anonymousRpm);
        setRateHeaders(c, d);
        if (!d.allowed) throw new ServiceError('rate_limit_exceeded', `Too many unauthenticated requests; retry in ${d.retryAfter} s.`, { retryAfter: d.retryAfter });
        throw e;
      }
      const shared = services.store.shared;
      const d = shared ? await takeShared(shared, services.clock, rateBucket(ctx), ctx.account.requestsPerMinute) : keyLimiter.take(rateBucket(ctx), ctx.account.requestsPerMinute);
      setRateHeaders(c, d);
      if (!d.allowed) {
        throw new ServiceError('rate_limit_exceeded', `Rate limit of ${d.limit} requests per minute exceeded; retry in ${d.retryAfter} s.`, { retryAfter: d.retryAfter });
      }
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
    });
  }

  app.notFound((c) => {
    anonRate(c);
    const path = c.req.path;
    const allowed = allow.find(([re]) => re.test(path))?.[1];
    if (allowed !== undefined) {
      c.header('Allow', allowed);
      return renderError(c, new ServiceError('method_not_allowed', `${c.req.method} is not allowed on ${path.slice(0, 200)}; use ${allowed}.`));
    }
    return renderError(c, new ServiceError('route_not_found', `No route ${c.req.method} ${path.slice(0, 200)}. See GET /v1/openapi.json.`));
  });

  app.onError((err, c) => {
    anonRate(c);
    if (isServiceError(err)) return renderError(c, err);
    if (clientGone(c.env, err)) {
      // Nobody reads this answer; the status only tells the request log what happened.
      opts.logger?.info({ reqId: c.get('requestId'), reason: err instanceof Error ? err.message.slice(0, 200) : String(err).slice(0, 200) }, 'client disconnected');
      return renderError(c, new ServiceError('invalid_parameter', 'The client closed the connection before the request was read.', { param: 'body' }));
    }
    opts.logger?.error({ reqId: c.get('requestId'), err }, 'unhandled error');
    return renderError(c, new ServiceError('internal_error', `An unexpected error occurred; quote ${c.get('requestId')} to support.`));
  });

  return app;
}

export type StaysApp = ReturnType<typeof createApp>;
