// Envelopes: { data, meta } for Family U results, { error } for every failure.
import type { Context } from 'hono';
import type { OpResult } from '../core/context.js';
import type { ExecResult } from '../core/execute.js';
import type { Meta } from '../core/schemas/resources.js';
import { type ServiceError, errorBody } from '../core/errors.js';
import { docsBase, withWarningDocs } from './docs/base.js';
import type { Env } from './route.js';

const OPEN = Buffer.from('{"data":');
const MID = Buffer.from(',"meta":');
const CLOSE = Buffer.from('}');

/**
 * Frozen data (memoised sandbox pages) is immutable, so its JSON bytes are computed once and
 * reused; only meta, which carries the request id, is serialised per request.
 */
export function renderOk<T>(c: Context<Env>, r: OpResult<T> & { metaTemplate?: Meta }): Response {
  const data = r.data as unknown;
  const reusable = typeof data === 'object' && data !== null && Object.isFrozen(data);
  if (reusable && r.metaTemplate !== undefined) {
    const t = templateBytes(c, data, r.metaTemplate);
    if (t !== undefined) {
      const id = Buffer.from(JSON.stringify(r.meta.requestId));
      return writeDirect(c, [t.head, id, t.tail]) ?? c.body(Buffer.concat([t.head, id, t.tail]), 200, { 'Content-Type': 'application/json' });
    }
  }
  let dataBytes = reusable ? c.get('jsonCache').get(data) : undefined;
  if (dataBytes === undefined) {
    dataBytes = Buffer.from(JSON.stringify(data));
    if (reusable) c.get('jsonCache').set(data, dataBytes);
  }
  const body = Buffer.concat([OPEN, dataBytes, MID, Buffer.from(JSON.stringify(withWarningDocs(c, r.meta))), CLOSE]);
  return c.body(body, 200, { 'Content-Type': 'application/json' });
}

/**
 * What @hono/node-server takes for an answer the handler wrote to the Node response itself (its
 * x-hono-already-sent contract): it writes nothing more. A plain object, not a Response: with
 * @hono/node-server, a Response made after it replaced the global class would be written again.
 * Frozen and shared; Hono copies it before changing anything.
 */
const ALREADY_SENT = Object.freeze({ status: 200, statusText: '', body: null, headers: Object.freeze({ 'x-hono-already-sent': 'true' }) }) as unknown as Response;

/**
 * A 200 JSON answer of several parts written to the Node response as they are (`stays serve`),
 * instead of copied into one buffer first: for a 28 KB sandbox page, allocating and filling that
 * buffer on every request cost more than the rest of the rendering (issue 23). The bytes on the
 * wire are those c.body() would send: the headers set so far, Content-Type and Content-Length.
 * Undefined (the caller answers as usual) in-process, for anything but a GET, or when a
 * Set-Cookie is among the headers.
 */
function writeDirect(c: Context<Env>, parts: Buffer[]): Response | undefined {
  const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
  // Only `stays serve` hands the app a Node response, so node:http is loaded by then; in-process
  // there is none, and this module must not load node:http for it (~4 ms of a CLI start).
  if (outgoing === undefined || !(outgoing instanceof process.getBuiltinModule('node:http').ServerResponse)) return undefined;
  if (outgoing.headersSent || c.req.method !== 'GET' || c.finalized) return undefined;
  // The headers set so far (the request id, the rate limit): Hono keeps them for the response it
  // has yet to make, which c.res makes now; it is dropped below, unsent.
  const headers = c.res.headers;
  if (headers.has('set-cookie')) return undefined;
  // In the order c.body() would give them: Headers iterate sorted by name, Content-Type among
  // them (set in its place here rather than on the Headers, which would sort them again).
  const record: Record<string, string | number> = {};
  let typed = false;
  for (const [k, v] of headers) {
    if (!typed && k >= 'content-type') {
      record['content-type'] = 'application/json';
      typed = true;
      if (k === 'content-type') continue;
    }
    record[k] = v;
  }
  if (!typed) record['content-type'] = 'application/json';
  record['Content-Length'] = parts.reduce((n, p) => n + p.length, 0);
  c.res = undefined;
  outgoing.writeHead(200, record);
  // Written in one system call: Node corks the socket for the rest of this tick.
  for (let i = 0; i < parts.length - 1; i++) outgoing.write(parts[i]);
  outgoing.end(parts[parts.length - 1]);
  c.res = ALREADY_SENT;
  return ALREADY_SENT;
}

/** `{"requestId":""` and what follows it in a template's JSON. */
const EMPTY_ID = '{"requestId":"",';
const META_ID = Buffer.from(',"meta":{"requestId":');

interface TemplateBytes {
  data: object;
  /** The docs base the warnings' docUrls were written with; undefined when there are no warnings. */
  docs: string | undefined;
  /** `{"data":…,"meta":{"requestId":` */
  head: Buffer;
  /** `,…rest of meta}}` */
  tail: Buffer;
}

/**
 * Answers whose data and meta are the same for every request but for meta.requestId (memoised
 * sandbox pages, ExecResult.metaTemplate) are kept as bytes on either side of the id, so a
 * request serialises only its id (issue 23). The page's JSON is kept here and not also in
 * jsonCache. The bytes are those renderOk writes otherwise: the template's keys in its order,
 * requestId first.
 */
const templates = new WeakMap<Meta, TemplateBytes>();

function templateBytes(c: Context<Env>, data: object, template: Meta): TemplateBytes | undefined {
  const docs = template.warnings.length === 0 ? undefined : docsBase(c);
  const kept = templates.get(template);
  if (kept !== undefined && kept.data === data && kept.docs === docs) return kept;
  const meta = JSON.stringify(withWarningDocs(c, template));
  if (!meta.startsWith(EMPTY_ID)) return undefined;
  const made = { data, docs, head: Buffer.concat([OPEN, Buffer.from(JSON.stringify(data)), META_ID]), tail: Buffer.from(`,${meta.slice(EMPTY_ID.length)}}`) };
  templates.set(template, made);
  return made;
}

export function renderError(c: Context<Env>, err: ServiceError): Response {
  if (err.retryAfter !== undefined) c.header('Retry-After', String(err.retryAfter));
  const error = errorBody(err, c.get('requestId'), docsBase(c));
  // D9: a Family S route's errors carry request_id beside the error, whatever raised them.
  const body = c.get('family') === 'S' ? { error, request_id: c.get('requestId') } : { error };
  return c.json(body, err.status as 400);
}

/** Family S success: `{ data, meta?, request_id }` (meta may be omitted on single objects). */
export function renderS(c: Context<Env>, data: unknown, meta?: Record<string, unknown>, status: 200 | 201 = 200): Response {
  return c.json(meta === undefined ? { data, request_id: c.get('requestId') } : { data, meta, request_id: c.get('requestId') }, status);
}

/** A sync answer renders as { data, meta }; an accepted job as 202 with Retry-After (D17, D18). */
export function renderExec<T>(c: Context<Env>, r: ExecResult<T>): Response {
  if (r.kind === 'sync') return renderOk(c, r);
  c.header('Retry-After', String(r.retryAfter));
  return c.json(r.body, 202);
}

/** Family S meta of a single object (the spec allows omitting it; it carries what a client reconciles credits with). */
export function objectMetaS(meta: Meta): Record<string, unknown> {
  return {
    credits_charged: meta.creditsCharged,
    environment: meta.environment,
    cached: meta.cached,
    warnings: meta.warnings.map((w) => ({ code: w.code, message: w.message })),
  };
}

/** Family S list meta: `{ count, limit, has_more, next_page_token }` first, as the spec orders them. */
export function listMetaS(count: number, meta: Meta): Record<string, unknown> {
  const p = meta.pagination;
  return { count, limit: p?.limit ?? count, has_more: p?.hasMore ?? false, next_page_token: p?.nextCursor ?? null, ...objectMetaS(meta) };
}

/**
 * A Family S answer from the shared executor: sync results through `shape` (data and S meta), an
 * accepted job as 202 with D18's job shape plus request_id (D10).
 */
export function renderExecS<T>(c: Context<Env>, r: ExecResult<T>, shape: (data: T, meta: Meta) => { data: unknown; meta: Record<string, unknown> }): Response {
  if (r.kind === 'accepted') {
    c.header('Retry-After', String(r.retryAfter));
    return c.json({ ...r.body, request_id: c.get('requestId') }, 202);
  }
  const s = shape(r.data, r.meta);
  return renderS(c, s.data, s.meta);
}
