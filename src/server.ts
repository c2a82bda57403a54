// `stays serve`: the HTTP service on a socket, with a graceful shutdown. Several processes may
// share a data directory (a new server started before the old one stops, `stays admin`, the
// in-process CLI): each owns the jobs it runs through leases (src/jobs/leases.ts), so a server
// only ever fails jobs whose owner stopped renewing them.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { type ServerType, serve } from '@hono/node-server';
import pino, { type Logger } from 'pino';
import { ConfigError } from './config.js';
import { ServiceError, errorBody } from './core/errors.js';
import { newRequestId } from './core/ids.js';
import { createApp } from './app.js';
import { installClientErrorHandler } from './http/client-error.js';
import { serverDocsBase } from './http/docs/base.js';
import { capPerAddress, serverOptions } from './http/connections.js';
import { startSweeper } from './jobs/leases.js';
import { startCollectionRunner } from './jobs/collections.js';
import { type WatchRunner, startWatchRunner } from './jobs/watches.js';
import { type Runtime, createRuntime, type RuntimeOptions } from './runtime.js';
import { selfOrigin } from './http/public-url.js';
import { serverKey } from './secrets.js';

export interface ServeOptions extends RuntimeOptions {
  host?: string;
  port?: number;
  /** A second port serving only the MCP tool server and its OAuth endpoints (`--mcp-port`). */
  mcpPort?: number;
  logger?: Logger;
}

export interface RunningServer {
  url: string;
  port: number;
  /** The second address's root when `mcpPort` was given (its tool server at `${mcpUrl}/mcp`). */
  mcpUrl?: string;
  runtime: Runtime;
  /** Its watch runner (issue 26): what it runs on each tick, to be run now too (tests stepping a clock). */
  watches: WatchRunner;
  /**
   * Graceful shutdown: stop accepting, answer `Prefer: wait` callers with their job's 202 at once,
   * let running jobs finish within the grace period (STAYS_SHUTDOWN_GRACE_MS), then fail the rest
   * retryable, releasing their holds. Resolves with how many jobs were failed that way.
   */
  close(): Promise<{ abandoned: number }>;
}

/** A socket that cannot be had, in a sentence with the fix (`stays serve` prints it and exits 2). */
const listenError = (e: NodeJS.ErrnoException, host: string, port: number) => {
  if (e.code === 'EADDRINUSE') return new ConfigError(`port ${port} is in use on ${host}; pick another with --port or stop the other process`);
  if (e.code === 'EACCES') return new ConfigError(`no permission to listen on ${host}:${port}; pick a port above 1023 with --port`);
  if (e.code === 'EADDRNOTAVAIL') return new ConfigError(`${host} is not an address of this machine; pick another with --host (127.0.0.1, or 0.0.0.0 for every interface)`);
  return e;
};

export async function startServer(opts: ServeOptions = {}): Promise<RunningServer> {
  let logger: Logger | undefined = opts.logger;
  // Where it listens tells the webhook layer whether other hosts can reach it (SSRF guard, src/webhooks/targets.ts).
  const config = { ...opts.config, listenHost: opts.host ?? '127.0.0.1' };
  const runtime = createRuntime({ ...opts, config, role: 'server', onError: (err) => logger?.error({ err }, 'background work failed (lease renewal or webhook events)') });
  logger ??= pino({ level: runtime.config.logLevel, base: undefined });
  if (runtime.config.now !== undefined) logger.warn({ now: runtime.config.now }, 'STAYS_NOW: the clock starts at another time than now (demos and tests only)');
  try {
    return await listen(runtime, logger, opts);
  } catch (e) {
    await runtime.close();
    throw e;
  }
}

async function listen(runtime: Runtime, logger: Logger, opts: ServeOptions): Promise<RunningServer> {
  // Connected and migrated (PostgreSQL: under an advisory lock, whichever instance starts first),
  // or the reason why not, before anything listens.
  await runtime.store.ready();
  // Several instances on one database must open each other's webhook secrets: the key is a setting.
  if (runtime.config.databaseUrl) serverKey(runtime.config);
  // Work left by processes that died (their leases expired): fail it, retryable, charging nothing.
  // Jobs another live process owns are left alone.
  const recovered = await runtime.recover();
  if (recovered.jobs > 0 || recovered.holds > 0) logger.warn(recovered, 'failed jobs and released holds of a process that stopped');
  const sweeper = startSweeper(runtime, {
    onError: (err) => logger.error({ err }, 'expiry sweep failed'),
    onSwept: (r, p) => {
      if (r.jobs.length > 0 || r.holds > 0) logger.warn({ jobs: r.jobs.length, holds: r.holds }, 'failed jobs and released holds whose lease expired');
      if (p.jobs > 0 || p.cache > 0) logger.info({ jobs: p.jobs, cache: p.cache }, 'deleted expired jobs and cache rows');
    },
  });

  const host = opts.host ?? '127.0.0.1';
  const app = createApp(runtime, { logger, ownDocs: true, listenHost: host });
  const wanted = opts.port ?? 8787;
  let closing = false;
  const limits = { headersTimeoutMs: runtime.config.headersTimeoutMs, maxPerAddress: runtime.config.maxConnectionsPerAddress };
  const cap = capPerAddress(limits.maxPerAddress, (address, refused) => {
    // The first refusal and every thousandth: a flood must not become a flood of log lines.
    if (refused % 1000 === 1) logger.warn({ address, refused, cap: limits.maxPerAddress }, 'closed connections past STAYS_MAX_CONNECTIONS_PER_ADDRESS');
  });
  const listenOn = (fetch: typeof app.fetch, port: number) =>
    new Promise<ServerType>((resolve, reject) => {
      const s = serve({ fetch, hostname: host, port, serverOptions: serverOptions(limits) }, () => resolve(s));
      cap.watch(s as Server);
      s.once('error', (e: NodeJS.ErrnoException) => reject(listenError(e, host, port)));
    });
  const servers: ServerType[] = [];
  try {
    servers.push(await listenOn(app.fetch, wanted));
    if (opts.mcpPort !== undefined) servers.push(await listenOn(mcpOnly(app.fetch, runtime), opts.mcpPort));
  } catch (e) {
    sweeper.stop();
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    throw e;
  }
  // During a shutdown every answer closes its connection, so keep-alive clients move on: those
  // already in progress when it starts, and any that still arrives on an open connection.
  const unanswered = new Set<ServerResponse>();
  const portOf = (s: ServerType, fallback: number) => {
    const addr = s.address();
    return typeof addr === 'object' && addr ? addr.port : fallback;
  };
  const urlOf = (p: number) => `http://${host.includes(':') ? `[${host}]` : host}:${p}`;
  const port = portOf(servers[0]!, wanted);
  const url = urlOf(port);
  // Answers without a request the app saw point at the main address's /docs (or STAYS_DOCS_URL).
  const docsUrl = serverDocsBase(runtime.config, url);
  for (const server of servers) {
    // Malformed HTTP that never reaches the app still gets the JSON envelope (after serve(): it wraps its listeners).
    installClientErrorHandler(server as Server, { logger, newRequestId: () => newRequestId(runtime.ids), docsUrl });
    server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
      if (closing) res.setHeader('Connection', 'close');
      unanswered.add(res);
      res.once('close', () => unanswered.delete(res));
    });
  }
  // Webhook deliveries: queued ones (a previous run's retries included) go out from now on.
  runtime.dispatcher.start();
  // Watches (issue 26): due runs are made on a tick, as their keys, billed as by hand.
  const watches = startWatchRunner(runtime, {
    onError: (err) => logger.error({ err }, 'watch runs failed'),
    onRuns: (reports) => {
      const events = reports.reduce((n, r) => n + r.events.length, 0);
      logger.info({ runs: reports.length, events, credits: reports.reduce((n, r) => n + r.creditsCharged, 0) }, 'ran due watches');
    },
  });
  // Collections (issue 38): their passes' items, claimed with any instance on the same database.
  const collections = startCollectionRunner(runtime, {
    onError: (err) => logger.error({ err }, 'collection items failed'),
    onItems: (reports) => logger.info({ items: reports.length, credits: reports.reduce((n, r) => n + r.charged, 0) }, 'ran due collection items'),
  });
  const mcpUrl = servers[1] ? urlOf(portOf(servers[1], opts.mcpPort!)) : undefined;

  let shutdown: Promise<{ abandoned: number }> | undefined;
  const close = async (): Promise<{ abandoned: number }> => {
    closing = true;
    for (const res of unanswered) if (!res.headersSent) res.setHeader('Connection', 'close');
    sweeper.stop();
    const watchesStopped = Promise.all([watches.stop(), collections.stop()]);
    const stopped = Promise.all(servers.map((server) => new Promise<void>((r) => server.close(() => r()))));
    for (const server of servers) (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
    runtime.jobs.stopWaiting();
    const grace = runtime.config.shutdownGraceMs;
    const running = runtime.jobs.size;
    if (running > 0) logger.info({ jobs: running, graceMs: grace }, 'waiting for running jobs');
    // Delivery attempts in flight get the same grace; no new ones start. Undelivered events
    // (those of jobs finishing now included) stay queued for the next start.
    const deliveries = runtime.dispatcher.active;
    if (deliveries > 0) logger.info({ deliveries, graceMs: grace }, 'waiting for webhook deliveries');
    // A watch run under way waits on its call (stopWaiting above ended the wait): it records its outcome first.
    const watchesDone = Promise.race([watchesStopped, new Promise((r) => setTimeout(r, grace).unref())]);
    const [drained] = await Promise.all([runtime.jobs.drain(grace), runtime.dispatcher.stop(grace), watchesDone]);
    const left = runtime.jobs.size;
    // Fails what is still running (retryable, holds released) and closes the store.
    await runtime.close();
    if (!drained) logger.warn({ jobs: left }, 'failed jobs still running at the end of the grace period; nothing was charged for them');
    // Answers in flight have had the grace period; a connection still open now (a client that never
    // finishes its request) is cut.
    await Promise.race([stopped, new Promise((r) => setTimeout(r, 1_000).unref())]);
    for (const server of servers) (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    await stopped;
    return { abandoned: drained ? 0 : left };
  };
  return { url, port, ...(mcpUrl ? { mcpUrl } : {}), runtime, watches, close: () => (shutdown ??= close()) };
}

/**
 * What the MCP address serves: the tool server, its OAuth endpoints and their metadata, and the
 * documentation its answers' docUrls and metadata name; nothing of /v1.
 */
const MCP_ONLY = /^\/(mcp|docs(\/|$)|oauth\/|\.well-known\/oauth-)/;

function mcpOnly(fetch: (req: Request, env?: unknown) => Response | Promise<Response>, runtime: Runtime) {
  return (req: Request, env?: unknown) => {
    const path = new URL(req.url).pathname;
    if (MCP_ONLY.test(path)) return fetch(req, env);
    const requestId = newRequestId(runtime.ids);
    const err = new ServiceError('route_not_found', 'This address serves only the MCP tool server (/mcp) and its OAuth endpoints; the /v1 API is on the main port.');
    const { config } = runtime;
    const socket = (env as { incoming?: { socket?: { localAddress?: string; localPort?: number } } } | undefined)?.incoming?.socket ?? undefined;
    const docs = serverDocsBase(config, selfOrigin(socket, req.headers.get('host') ?? undefined, req.url));
    return new Response(JSON.stringify({ error: errorBody(err, requestId, docs) }), { status: 404, headers: { 'content-type': 'application/json', 'x-request-id': requestId } });
  };
}
