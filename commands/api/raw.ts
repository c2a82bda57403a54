// Request building, sending and printing for `stays api`.
import { readFileSync } from 'node:fs';
import { text } from 'node:stream/consumers';
import type { ApiCall } from '../../src/client/http.js';
import { toApiError } from '../../src/client/http.js';
import { nextPageOf } from '../../src/client/meta.js';
import type { RawResponse } from '../../src/client/types.js';
import type { Ctx } from '../_lib/runtime/context.js';
import { UsageError } from '../_lib/runtime/errors.js';
import { jsonText, io } from '../_lib/runtime/io.js';
import type { Term } from '../_lib/runtime/term.js';

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
class RequestTimeout extends Error {
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
function apiPath(p: string): string {
  const withSlash = p.startsWith('/') ? p : `/${p}`;
  return withSlash === '/v1' || withSlash.startsWith('/v1/') || withSlash.startsWith('/v1?') ? withSlash : `/v1${withSlash}`;
}

export async function buildRequest(
  path: string,
  o: { method?: string; field: string[]; rawField: string[]; header: string[]; input?: string },
  stdin: { term: Pick<Term, 'inTTY' | 'ci'>; noInput: boolean },
): Promise<ApiCall> {
  const params: [string, Value][] = [
    ...o.rawField.map((f) => split(f)),
    ...o.field.map((f) => {
      const [k, v] = split(f);
      return [k, typed(v)] as [string, Value];
    }),
  ];
  let body: string | undefined;
  if (o.input === '-' && stdin.term.inTTY && (stdin.noInput || stdin.term.ci)) {
    // Reading a terminal would wait for someone to type the body, which --no-input (and CI) rule out.
    throw new UsageError(
      '--input - reads the body from stdin, which is a terminal, and --no-input (or CI) says not to wait for typing: pipe the body in (echo \'{"location":"Porto"}\' | stays api search --input -) or name a file (--input body.json).',
      'input',
    );
  }
  if (o.input !== undefined) body = o.input === '-' ? await text(io().stdin) : readFileSync(o.input, 'utf8');
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

function parseBody(res: RawResponse): unknown {
  try {
    return JSON.parse(res.body) as unknown;
  } catch {
    return undefined;
  }
}

export async function printResponse(res: RawResponse, ctx: Ctx, o: { include: boolean; format: RawFormat }): Promise<void> {
  if (o.include) {
    io().stdout.write(
      `HTTP ${res.status}\n${Object.entries(res.headers)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n')}\n\n`,
    );
  }
  const parsed = parseBody(res);
  const ok = res.status < 400 && parsed !== undefined && parsed !== null && typeof parsed === 'object';
  if (ok && (ctx.fields !== null || ctx.jq !== null)) {
    const { printSelected } = await import('../_lib/output/select.js');
    await printSelected(parsed as { data: unknown }, { fields: ctx.fields, jq: ctx.jq }, ctx.term);
  } else if (ok && o.format === 'jsonl') {
    const data = 'data' in (parsed as object) ? (parsed as { data: unknown }).data : parsed;
    const rows = Array.isArray(data) ? data : [data];
    io().stdout.write(rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
  } else {
    let out = res.body;
    if (ctx.term.outTTY && parsed !== undefined) out = JSON.stringify(parsed, null, 2);
    io().stdout.write(out.endsWith('\n') ? out : `${out}\n`);
  }
  // Like gh: the body is the output either way; the exit code says whether it was an error.
  if (res.status >= 400) throw toApiError(res, 'The service');
}

/** --paginate stopped before the last page: a page ran as a job, or the service repeated its token. Exit 1, like an --all walk that cannot go on. */
class PaginateStopped extends Error {
  override readonly name = 'PaginateStopped';
}

/** --paginate and --slurp together with the other output flags: what cannot be combined (exit 2). */
export function checkPaginate(o: { paginate: boolean; slurp: boolean; include: boolean; format: RawFormat; fields: boolean }): void {
  if (o.slurp && !o.paginate) throw new UsageError('--slurp gathers the pages of --paginate into one array: add --paginate.', 'slurp');
  if (!o.slurp) return;
  if (o.include) throw new UsageError("--slurp prints one array of every page's body; -i would put each page's headers inside it: drop one of them.", 'slurp');
  if (o.format === 'jsonl')
    throw new UsageError('--slurp prints one array of the pages, -o jsonl one data row a line: give one of them (-o jsonl with --paginate already prints every row of every page).', 'slurp');
  if (o.fields)
    throw new UsageError(
      "--slurp gathers whole pages, --json FIELDS picks fields of one page's data: drop --slurp (each page's fields are printed in turn), or pick with --jq, e.g. --jq '[.[].data[] | {id}]'.",
      'slurp',
    );
}

/**
 * The call for the page after `page`, as the route pages: Family S (meta.next_page_token) with
 * nextPageToken, Family U (meta.pagination.nextCursor) with cursor; in the JSON body when the call
 * has one (POST /v1/search, the presets), else in the query.
 */
function nextCall(call: ApiCall, family: 's' | 'u', token: string): ApiCall {
  const key = family === 's' ? 'nextPageToken' : 'cursor';
  if (call.body === undefined) return { ...call, query: { ...call.query, [key]: [token] } };
  let body: unknown;
  try {
    body = JSON.parse(String(call.body));
  } catch {
    body = undefined;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new UsageError(`--paginate resends the request body with ${key} for the next page, so the body must be a JSON object.`, 'paginate');
  }
  return { ...call, body: JSON.stringify({ ...body, [key]: token }) };
}

/**
 * `stays api --paginate`, as `gh api --paginate`: the request, then each next page while the page
 * says there are more (Family U meta.pagination.nextCursor, Family S meta.next_page_token),
 * each page printed as it comes (each body, or with -o jsonl each row; --jq and --json FIELDS
 * apply per page). --slurp prints one JSON array of the page bodies at the end instead (--jq then
 * filters that array). A body without pagination (a single resource) is the only page. An error
 * page ends the walk after what came before, with the error's exit code; a 202 (a page that runs
 * as a job, which stays api does not wait for) ends it with exit 1 and says how to go on.
 */
export async function printPages(ctx: Ctx, call: ApiCall, o: { include: boolean; format: RawFormat; slurp: boolean }): Promise<void> {
  const slurped: unknown[] = [];
  const seen = new Set<string>();
  let next = call;
  try {
    for (let n = 1; ; n++) {
      const res = await sendRaw(ctx, next);
      const parsed = parseBody(res) as { data?: unknown; meta?: unknown } | undefined;
      if (!o.slurp) await printResponse(res, ctx, o);
      else if (res.status >= 400 || parsed === undefined) throw toApiError(res, 'The service');
      else slurped.push(parsed);
      if (res.status === 202) {
        const job = (parsed?.data as { jobId?: string } | undefined)?.jobId ?? '';
        throw new PaginateStopped(
          `Page ${n} was accepted as job ${job} (202), and stays api does not wait for jobs, so --paginate stopped there. Wait for it with: stays jobs wait ${job}; then page on from its meta. Or use the command for the route, which waits for each page (stays search … --all).`,
        );
      }
      const page = nextPageOf(parsed?.meta);
      if (page === null || !page.hasMore) return;
      if (page.next === null || seen.has(page.next)) {
        throw new PaginateStopped(
          `Page ${n} says more pages follow but ${page.next === null ? 'gives no token for the next one' : 'repeats a token already followed'}; --paginate stopped after ${n} page${n === 1 ? '' : 's'}.`,
        );
      }
      seen.add(page.next);
      next = nextCall(call, parsed?.meta && typeof parsed.meta === 'object' && 'next_page_token' in parsed.meta ? 's' : 'u', page.next);
    }
  } finally {
    if (o.slurp && slurped.length > 0) await printSlurped(ctx, slurped);
  }
}

async function printSlurped(ctx: Ctx, pages: unknown[]): Promise<void> {
  if (ctx.jq === null) return void io().stdout.write(jsonText(pages, ctx.term.outTTY));
  const { printSelected } = await import('../_lib/output/select.js');
  await printSelected(pages as unknown as { data: unknown }, { fields: null, jq: ctx.jq }, ctx.term);
}
