// `stays serve`: the HTTP service on a socket, with graceful shutdown.
import { type ServerType, serve } from '@hono/node-server';
import pino, { type Logger } from 'pino';
import { createApp } from './http/app.js';
import { type Runtime, createRuntime, type RuntimeOptions } from './runtime.js';

export interface ServeOptions extends RuntimeOptions {
  host?: string;
  port?: number;
  logger?: Logger;
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
      }).then(() => runtime.close())),
  };
}
