// The in-process transport's short way to the API for the plain calls a CLI command makes (a GET
// of a Family U route without path parameters: search, reviews, price, account…): the request
// runs through the same pipeline and route handler as in the Hono app (pipeline.ts), with a
// stand-in for Hono's Context that keeps headers and the body as plain values. Building the Hono
// app and Node's Fetch API classes (which Hono's Request, Headers and Response need) was ~15 ms of
// a ~125 ms in-process search (docs/benchmarks.md). Anything else (other methods, paths with
// parameters, a body, a header the Fetch API would refuse) answers undefined, and the caller goes
// through the app. test/http/direct.test.ts holds the two ways to the same answers.
import type { Context } from 'hono';
import { getPath, getQueryParams } from 'hono/utils/url';
import type { RawResponse } from '../client/types.js';
import { type Pipeline, beginRequest, errorAnswer, routeHandler } from './pipeline.js';
import type { Env, RouteDef } from './route.js';

export interface DirectRequest {
  method: string;
  /** Path and query from the API root. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

/** What a handler returns in place of a Response: the parts the transport reads. */
interface Answer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A header value the Fetch API takes as it is (no surrounding whitespace to trim, no control characters). */
const PLAIN_VALUE = /^(?:[\x21-\x7e\x80-\xff](?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)?$/;

/** The stand-in for Hono's Context: what the pipeline, the route handlers and the renderers use. */
class DirectContext {
  readonly env = undefined;
  readonly req: { method: string; url: string; path: string; header(name: string): string | undefined; queries(): Record<string, string[]>; param(): Record<string, string> };
  #vars = new Map<string, unknown>();
  #headers = new Map<string, string>();
  #res: Answer | undefined;

  constructor(url: string, method: string, headers: Map<string, string>) {
    this.req = {
      method,
      url,
      path: getPath({ url } as Request),
      header: (name) => headers.get(name.toLowerCase()),
      queries: () => getQueryParams(url) as Record<string, string[]>,
      param: () => ({}),
    };
  }

  get = (key: string) => this.#vars.get(key);
  set = (key: string, value: unknown) => {
    this.#vars.set(key, value);
  };
  header = (name: string, value: string | undefined) => {
    if (value === undefined) this.#headers.delete(name.toLowerCase());
    else this.#headers.set(name.toLowerCase(), value);
  };
  get res(): Answer {
    return (this.#res ??= { status: 200, headers: this.#headers, body: '' });
  }

  /** As Hono's: the headers set so far, then these (over them), then the body's default type. */
  body = (data: string | Uint8Array | null, status?: number, headers?: Record<string, string>): Answer => {
    const h = new Map(this.#headers);
    for (const [k, v] of Object.entries(headers ?? {})) h.set(k.toLowerCase(), v);
    // What the Fetch API's Response adds to a text body without a type.
    if (typeof data === 'string' && !h.has('content-type')) h.set('content-type', 'text/plain;charset=UTF-8');
    return { status: status ?? 200, headers: h, body: data === null ? '' : typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8') };
  };
  json = (object: unknown, status?: number, headers?: Record<string, string>): Answer => this.body(JSON.stringify(object), status, { 'Content-Type': 'application/json', ...headers });
}

export interface Direct {
  /** The answer, or undefined when this request must go through the app. */
  send(req: DirectRequest): Promise<RawResponse> | undefined;
}

export function createDirect(p: Pipeline): Direct {
  const handlers = new Map<string, (c: Context<Env>) => Promise<Response>>();
  const direct = new Map<string, RouteDef>(p.routes.filter((r) => r.method === 'get' && r.family !== 'S' && !r.path.includes('{')).map((r) => [r.path, r]));
  return {
    send(req) {
      if (req.method !== 'GET' || req.body !== undefined || req.signal?.aborted) return undefined;
      let url: string;
      try {
        url = new URL(`http://in-process${req.path}`).href;
      } catch {
        return undefined;
      }
      const headers = new Map<string, string>();
      for (const [k, v] of Object.entries(req.headers)) {
        if (!TOKEN.test(k) || !PLAIN_VALUE.test(v)) return undefined;
        const key = k.toLowerCase();
        headers.set(key, headers.has(key) ? `${headers.get(key)}, ${v}` : v);
      }
      const c = new DirectContext(url, 'GET', headers);
      const route = direct.get(c.req.path);
      if (route === undefined) return undefined;
      let handle = handlers.get(route.path);
      if (handle === undefined) handlers.set(route.path, (handle = routeHandler(p, route)));
      const hc = c as unknown as Context<Env>;
      return (async () => {
        beginRequest(p, hc);
        let res: Answer;
        try {
          res = (await handle(hc)) as unknown as Answer;
        } catch (e) {
          // Hono hands a thrown Error to the app's error handler and lets anything else through.
          if (!(e instanceof Error)) throw e;
          res = errorAnswer(p, e, hc) as unknown as Answer;
        }
        // Header names in the Fetch API's order (sorted), as the transport reads them from a Response.
        const out: Record<string, string> = {};
        for (const k of [...res.headers.keys()].sort()) out[k] = res.headers.get(k)!;
        return { status: res.status, headers: out, body: res.body };
      })();
    },
  };
}
