// Transports: how one HTTP exchange reaches the API. Remote goes over the network with undici
// (keep-alive pool, connect/header/body timeouts); in-process calls the very same Hono app through
// its fetch handler (in-process.ts). The client above them is identical, so both modes share
// one code path and give identical output.
import { StaysConnectionError } from './errors.js';
import type { RawResponse } from './types.js';

export interface TransportRequest {
  method: string;
  /** Path and query from the API root, always starting with /v1/. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export interface Transport {
  readonly kind: 'remote' | 'in-process' | 'custom';
  /** Where requests go, for messages and `--debug` (the origin plus any path prefix). */
  readonly base: string;
  send(req: TransportRequest): Promise<RawResponse>;
  close(): Promise<void>;
}

/**
 * The service root of a base URL: trailing slashes and a trailing `/v1` are dropped, so
 * `http://host:8787`, `http://host:8787/` and `http://host:8787/v1` all mean the same service,
 * and a hosted service under a path prefix (`https://example.com/stays`) keeps its prefix.
 */
export function serviceRoot(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new StaysConnectionError(`Invalid base URL ${JSON.stringify(baseUrl)}: expected http(s)://host[:port][/prefix].`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new StaysConnectionError(`Invalid base URL ${JSON.stringify(baseUrl)}: only http and https are supported.`);
  }
  url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  url.search = '';
  url.hash = '';
  return url;
}

/** The code of a failed connection: undici puts it on the error, its cause, or (several addresses) each of an AggregateError's errors. */
function errorCode(e: NodeJS.ErrnoException & { errors?: unknown[] }): string | undefined {
  const nested = e.errors?.[0] as NodeJS.ErrnoException | undefined;
  return e.code ?? (e.cause as NodeJS.ErrnoException | undefined)?.code ?? nested?.code;
}

/**
 * A failed connection in a sentence with the fix. The two a user meets most, a server that is not
 * running and a host name that does not resolve, say what to do; others keep the system's words.
 */
function unreachable(base: string, e: NodeJS.ErrnoException): string {
  const code = errorCode(e);
  if (code === 'ECONNREFUSED') return `Could not connect to ${base}: nothing is listening; start it with stays serve, or check --base-url / STAYS_BASE_URL.`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `Could not connect to ${base}: the host name does not resolve (${code}); check --base-url / STAYS_BASE_URL.`;
  return `Could not reach ${base}: ${code ? `${code} ` : ''}${e.message}`;
}

export interface RemoteOptions {
  baseUrl: string;
  /** Connect timeout and the longest silence while waiting for headers or body, in ms. */
  requestTimeoutMs?: number;
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

export function remoteTransport(opts: RemoteOptions): Transport {
  const root = serviceRoot(opts.baseUrl);
  const prefix = root.pathname === '/' ? '' : root.pathname;
  const timeout = opts.requestTimeoutMs ?? 60_000;
  // undici costs tens of milliseconds to load; commands that never send pay nothing.
  let agent: Promise<import('undici').Agent> | undefined;
  const getAgent = () =>
    (agent ??= import('undici').then(({ Agent }) => new Agent({ keepAliveTimeout: 10_000, connect: { timeout }, headersTimeout: timeout, bodyTimeout: timeout })));

  return {
    kind: 'remote',
    base: `${root.origin}${prefix}`,
    async send(req) {
      const a = await getAgent();
      try {
        const res = await a.request({
          origin: root.origin,
          path: prefix + req.path,
          method: req.method as 'GET',
          headers: req.headers,
          body: req.body,
          signal: req.signal,
        });
        const body = await res.body.text();
        return { status: res.statusCode, headers: flattenHeaders(res.headers), body };
      } catch (e) {
        if (req.signal?.aborted) throw req.signal.reason ?? e;
        throw new StaysConnectionError(unreachable(`${root.origin}${prefix}`, e as NodeJS.ErrnoException), e);
      }
    },
    async close() {
      if (agent) await (await agent).close();
    },
  };
}
