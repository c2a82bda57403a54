// Transports: how one HTTP exchange reaches the API. Remote goes over the network with node:http(s)
// (keep-alive agent, a timeout on each silence); in-process calls the very same Hono app through
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

/** The code of a failed connection: on the error, its cause, or (several addresses) each of an AggregateError's errors. */
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
  const base = `${root.origin}${prefix}`;
  // node:http(s), not undici: Node's own parser is native, where undici's is WebAssembly that V8
  // compiles and optimises at every start (a remote call spent ~70 ms idle waiting for it, plus
  // ~20 ms loading undici; docs/benchmarks.md). The agent keeps connections alive between the
  // calls of one command (a job's polls) and is made on first send.
  let agent: import('node:http').Agent | undefined;
  const lib = root.protocol === 'https:' ? 'node:https' : 'node:http';

  return {
    kind: 'remote',
    base,
    send(req) {
      const http = process.getBuiltinModule(lib) as typeof import('node:https');
      agent ??= new http.Agent({ keepAlive: true, keepAliveMsecs: 10_000 });
      return new Promise<RawResponse>((resolve, reject) => {
        let settled = false;
        const fail = (e: unknown) => {
          if (settled) return;
          settled = true;
          if (req.signal?.aborted) reject(req.signal.reason ?? e);
          else reject(e instanceof StaysConnectionError ? e : new StaysConnectionError(unreachable(base, e as NodeJS.ErrnoException), e));
        };
        const headers: Record<string, string> = { ...req.headers };
        if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
        const r = http.request(
          { protocol: root.protocol, hostname: root.hostname, port: root.port || undefined, path: prefix + req.path, method: req.method, headers, agent, signal: req.signal },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              if (settled) return;
              settled = true;
              resolve({ status: res.statusCode ?? 0, headers: flattenHeaders(res.headers), body: Buffer.concat(chunks).toString('utf8') });
            });
            res.on('error', fail);
            res.on('aborted', () => fail(Object.assign(new Error('the connection closed before the whole answer came'), { code: 'ECONNRESET' })));
          },
        );
        // Connect, headers and body each get `timeout` ms of silence at most (the socket's idle timer).
        r.setTimeout(timeout, () => r.destroy(Object.assign(new Error(`no answer within ${Math.round(timeout / 1000)} s`), { code: 'ETIMEDOUT' })));
        r.on('error', fail);
        r.end(req.body);
      });
    },
    async close() {
      agent?.destroy();
    },
  };
}
