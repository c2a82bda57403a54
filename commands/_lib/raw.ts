// Request building, sending and printing for `stays api`.
import { readFileSync } from 'node:fs';
import { text } from 'node:stream/consumers';
import type { ApiCall } from '../../src/client/http.js';
import { toApiError } from '../../src/client/http.js';
import type { RawResponse } from '../../src/client/types.js';
import type { Ctx } from './context.js';
import { UsageError } from './errors.js';
import type { Term } from './term.js';

/** What `stays api` prints: the body as sent (json), or its data one row a line (jsonl). */
export type RawFormat = 'json' | 'jsonl';

/**
 * -o for `stays api`: json (the body as sent; the default, whatever the config's output) or jsonl.
 * Tables, TSV and CSV need to know the rows' columns, which the data commands do and a raw path
 * does not, so they are refused rather than ignored.
 */
export function rawFormat(output: string | undefined): RawFormat {
  if (output === undefined || output === 'json' || output === 'jsonl') return output ?? 'json';
  if (!['table', 'tsv', 'csv'].includes(output)) throw new UsageError(`stays api takes -o json or -o jsonl (got ${JSON.stringify(output)}).`, 'output');
  throw new UsageError(
    `stays api prints the response body as JSON: -o json (the default) or -o jsonl (one data row a line). For -o ${output}, use the command for that route (stays search … -o ${output}), or pick fields with --json FIELDS or --jq.`,
    'output',
  );
}

/** The request outlived --timeout: told apart by name in errors.ts (exit 8). */
export class RequestTimeout extends Error {
  override readonly name = 'RequestTimeout';
}

/**
 * One raw exchange within --timeout (the client's own bound covers only its retry pauses): past
 * it the request is aborted, and the in-process one, which cannot be, is no longer waited for.
 */
export async function sendRaw(ctx: Ctx, call: ApiCall): Promise<RawResponse> {
  const signal = AbortSignal.timeout(ctx.timeoutMs);
  const timedOut = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
  try {
    return await Promise.race([ctx.client.raw(call, { signal, timeoutMs: ctx.timeoutMs }), timedOut]);
  } catch (e) {
    if (!signal.aborted) throw e;
    const secs = ctx.timeoutMs / 1000;
    const where = ctx.inProcess ? 'the in-process service' : ctx.base;
    throw new RequestTimeout(`No answer from ${where} within ${secs} s (--timeout ${secs}s); the request may still complete there. Allow longer with --timeout, e.g. --timeout 2m.`);
  } finally {
    // The race's loser must not become an unhandled rejection when the answer came first.
    timedOut.catch(() => undefined);
  }
}

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
  o: { method?: string; field: string[]; rawField: string[]; header: string[]; input?: string },
  stdin: { term: Pick<Term, 'inTTY' | 'ci'>; noInput: boolean },
): Promise<ApiCall> {
  const params: [string, Value][] = [...o.rawField.map((f) => split(f)), ...o.field.map((f) => { const [k, v] = split(f); return [k, typed(v)] as [string, Value]; })];
  let body: string | undefined;
  if (o.input === '-' && stdin.term.inTTY && (stdin.noInput || stdin.term.ci)) {
    // Reading a terminal would wait for someone to type the body, which --no-input (and CI) rule out.
    throw new UsageError('--input - reads the body from stdin, which is a terminal, and --no-input (or CI) says not to wait for typing: pipe the body in (echo \'{"location":"Porto"}\' | stays api search --input -) or name a file (--input body.json).', 'input');
  }
  if (o.input !== undefined) body = o.input === '-' ? await text(process.stdin) : readFileSync(o.input, 'utf8');
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

export async function printResponse(res: RawResponse, ctx: Ctx, o: { include: boolean; format: RawFormat }): Promise<void> {
  if (o.include) {
    process.stdout.write(`HTTP ${res.status}\n${Object.entries(res.headers).map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.body);
  } catch {
    parsed = undefined;
  }
  const ok = res.status < 400 && parsed !== undefined && parsed !== null && typeof parsed === 'object';
  if (ok && (ctx.fields !== null || ctx.jq !== null)) {
    const { printSelected } = await import('./select.js');
    await printSelected(parsed as { data: unknown }, { fields: ctx.fields, jq: ctx.jq }, ctx.term);
  } else if (ok && o.format === 'jsonl') {
    const data = 'data' in (parsed as object) ? (parsed as { data: unknown }).data : parsed;
    const rows = Array.isArray(data) ? data : [data];
    process.stdout.write(rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
  } else {
    let out = res.body;
    if (ctx.term.outTTY && parsed !== undefined) out = JSON.stringify(parsed, null, 2);
    process.stdout.write(out.endsWith('\n') ? out : `${out}\n`);
  }
  // Like gh: the body is the output either way; the exit code says whether it was an error.
  if (res.status >= 400) throw toApiError(res, 'The service');
}
