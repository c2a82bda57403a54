// Request building and printing for `stays api`.
import { readFileSync } from 'node:fs';
import { text } from 'node:stream/consumers';
import type { ApiCall } from '../../src/client/http.js';
import { toApiError } from '../../src/client/http.js';
import type { RawResponse } from '../../src/client/types.js';
import type { Ctx } from './context.js';
import { UsageError } from './errors.js';

type Value = string | number | boolean | null;

function typed(v: string): Value {
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (v === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  return v;
}

function split(pair: string): [string, string] {
  const i = pair.indexOf('=');
  if (i <= 0) throw new UsageError(`Fields are key=value (got ${JSON.stringify(pair)}).`, 'field');
  return [pair.slice(0, i), pair.slice(i + 1)];
}

/** /v1/x, v1/x, /x and x all mean /v1/x. */
export function apiPath(p: string): string {
  const withSlash = p.startsWith('/') ? p : `/${p}`;
  return withSlash === '/v1' || withSlash.startsWith('/v1/') || withSlash.startsWith('/v1?') ? withSlash : `/v1${withSlash}`;
}

export async function buildRequest(
  path: string,
  o: { method?: string; field: string[]; rawField: string[]; header: string[]; input?: string | boolean },
): Promise<ApiCall> {
  const params: [string, Value][] = [...o.rawField.map((f) => split(f)), ...o.field.map((f) => { const [k, v] = split(f); return [k, typed(v)] as [string, Value]; })];
  let body: string | undefined;
  if (typeof o.input === 'string') body = o.input === '-' ? await text(process.stdin) : readFileSync(o.input, 'utf8');
  // GET unless told otherwise: every read route takes its parameters in the query; a body means POST.
  const method = (o.method ?? (body !== undefined ? 'POST' : 'GET')).toUpperCase() as ApiCall['method'];
  const [p, qs] = apiPath(path).split('?', 2) as [string, string | undefined];
  const query: Record<string, string[]> = {};
  for (const [k, v] of new URLSearchParams(qs ?? '')) (query[k] ??= []).push(v);
  const headers: Record<string, string> = {};
  for (const h of o.header) {
    const i = h.indexOf(':');
    if (i <= 0) throw new UsageError(`Headers are name:value (got ${JSON.stringify(h)}).`, 'header');
    headers[h.slice(0, i).trim().toLowerCase()] = h.slice(i + 1).trim();
  }
  if (method === 'GET' || body !== undefined) {
    for (const [k, v] of params) (query[k] ??= []).push(String(v));
  } else if (params.length) {
    const obj: Record<string, Value | Value[]> = {};
    for (const [k, v] of params) obj[k] = k in obj ? [...([] as Value[]).concat(obj[k] as Value), v] : v;
    body = JSON.stringify(obj);
  }
  return { method, path: p, query, body, headers };
}

export async function printResponse(res: RawResponse, ctx: Ctx, include: boolean): Promise<void> {
  if (include) {
    process.stdout.write(`HTTP ${res.status}\n${Object.entries(res.headers).map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n`);
  }
  let out = res.body;
  if (ctx.term.outTTY) {
    try {
      out = JSON.stringify(JSON.parse(res.body), null, 2);
    } catch {
      // Not JSON: print as received.
    }
  }
  process.stdout.write(out.endsWith('\n') ? out : `${out}\n`);
  // Like gh: the body is the output either way; the exit code says whether it was an error.
  if (res.status >= 400) throw toApiError(res, 'The service');
}
