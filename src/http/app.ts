// The Hono app: one instance serves `stays serve`, tests and the in-process CLI transport (whose
// plain GETs run the same pipeline without it: pipeline.ts, direct.ts).
import pkg from '../../package.json' with { type: 'json' };
import { upstreamReport } from '../sources/upstream-report.js';
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Services } from '../core/context.js';
import { ServiceError } from '../core/errors.js';
import { buildOpenApi } from './openapi.js';
import { type AppOptions, type Pipeline, anonRate, beginRequest, billedGet, clientAddress, createPipeline, endRequest, errorAnswer, limitAnonymous, pathPattern, routeHandler } from './pipeline.js';
import { renderError } from './render.js';
import { API_ROUTES } from './routes/index.js';
import { type Env, type RouteDef, honoPath } from './route.js';

const MAX_BODY_BYTES = 1024 * 1024;

export type { AppOptions } from './pipeline.js';

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
    return [pathPattern(p), ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'].filter((x) => m.has(x)).join(', ')];
  });
}

/**
 * The app. `pipeline` shares the rate limiters and caches with the in-process transport's
 * direct calls (direct.ts), which answer without it.
 */
/** What is mounted beside the API is given these. */
interface MountContext {
  /** The app itself, for what calls it in-process (the MCP tools). */
  fetch: (req: Request) => Response | Promise<Response>;
  /** A token of the caller's per-address bucket with the rate headers; 429 past the limit. */
  limitAnonymous: (c: Context<Env>) => void;
  /** The caller's address (the socket's peer; `in-process` without one). */
  address: (c: Context<Env>) => string;
}

export type Mount = (app: Hono<Env>, ctx: MountContext) => void;

export function createApiApp(services: Services, opts: AppOptions = {}, pipeline: Pipeline = createPipeline(services, API_ROUTES, opts), mount?: Mount) {
  const app = new Hono<Env>();
  const p = pipeline;
  const routes = p.routes;
  const allow = allowTable(routes);
  let openapi: unknown;

  // Headers are set before the handler builds its response, and nothing reads the request through
  // the Fetch API objects unless it must: with @hono/node-server either would turn the light
  // request/response wrappers into full undici objects on every call (docs/benchmarks.md).
  app.use('*', async (c, next) => {
    const started = performance.now();
    beginRequest(p, c);
    await next();
    endRequest(p, c, started);
  });

  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => {
      // The rest of the body is never read, so the connection cannot be reused.
      c.header('Connection', 'close');
      anonRate(p, c);
      return renderError(c, new ServiceError('payload_too_large'));
    },
  });
  app.use('*', (c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limitBody(c, next)));

  // Liveness, the server's version and what serves each platform's live data (no secrets), for
  // `stays doctor` against a server; computed once, the settings do not change while it runs.
  let health: Promise<object> | undefined;
  app.get('/v1/health', async (c) => {
    anonRate(p, c);
    health ??= upstreamReport(services.config).then((upstream) => ({ status: 'ok', version: pkg.version, upstream }));
    return c.json(await health, 200);
  });
  app.get('/v1/openapi.json', (c) => {
    anonRate(p, c);
    openapi ??= buildOpenApi(routes);
    return c.json(openapi as object, 200);
  });

  // What the composition root mounts beside the API (src/app.ts: the MCP tool server, its OAuth
  // server, the docs), with the app's own rate limit for callers without valid credentials.
  mount?.(app, { fetch: (r) => app.fetch(r), limitAnonymous: (c) => limitAnonymous(p, c), address: (c) => clientAddress(c.env) });

  for (const route of routes) app.on(route.method.toUpperCase(), honoPath(route.path), routeHandler(p, route));

  app.notFound((c) => {
    anonRate(p, c);
    const path = c.req.path;
    const allowed = allow.find(([re]) => re.test(path))?.[1];
    if (allowed !== undefined) {
      c.header('Allow', allowed);
      return renderError(c, new ServiceError('method_not_allowed', `${c.req.method} is not allowed on ${path.slice(0, 200)}; use ${allowed}.`));
    }
    return renderError(c, new ServiceError('route_not_found', `No route ${c.req.method} ${path.slice(0, 200)}. See GET /v1/openapi.json.`));
  });

  app.onError((err, c) => errorAnswer(p, err, c));

  return app;
}
