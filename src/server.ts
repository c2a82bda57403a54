// `stays serve`: the HTTP service on a socket, with graceful shutdown.
import { type ServerType, serve } from '@hono/node-server';
import pino, { type Logger } from 'pino';
import { createApp } from './http/app.js';
import { type Runtime, createRuntime, type RuntimeOptions } from './runtime.js';

export interface ServeOptions extends RuntimeOptions {
  host?: string;
  port?: number;
  logger?: Logger;
  /** How long a graceful shutdown waits for running jobs. */
  drainMs?: number;
}

export interface RunningServer {
  url: string;
  port: number;
  runtime: Runtime;
  close(): Promise<void>;
}

export async function startServer(opts: ServeOptions = {}): Promise<RunningServer> {
  const runtime = createRuntime(opts);
  const logger = opts.logger ?? pino({ level: runtime.config.logLevel, base: undefined });
  // Jobs a previous process left pending or running can never finish: fail them (retryable) and
  // release their holds, so nothing is charged for them.
  const now = runtime.clock.now();
  const orphans = await runtime.store.failOrphanJobs(
    { type: 'upstream_unavailable', code: 'upstream_degraded', message: 'The server stopped while this job ran; nothing was charged. Retry the request.', retryable: true },
    now,
    now + 24 * 3_600_000,
  );
  if (orphans.length > 0) logger.warn({ jobs: orphans.length }, 'failed jobs orphaned by a previous server process');
  const app = createApp(runtime, { logger });
  const host = opts.host ?? '127.0.0.1';
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port: opts.port ?? 8787 }, () => resolve(s));
    s.once('error', reject);
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : (opts.port ?? 8787);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    runtime,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Idle keep-alive sockets would hold close() open.
        (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
      })
        .then(() => runtime.jobs.drain(opts.drainMs ?? 5_000))
        .then(() => runtime.close())),
  };
}
