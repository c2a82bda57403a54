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
export function renderOk<T>(c: Context<Env>, r: OpResult<T>): Response {
  const data = r.data as unknown;
  const reusable = typeof data === 'object' && data !== null && Object.isFrozen(data);
  let dataBytes = reusable ? c.get('jsonCache').get(data) : undefined;
  if (dataBytes === undefined) {
    dataBytes = Buffer.from(JSON.stringify(data));
    if (reusable) c.get('jsonCache').set(data, dataBytes);
  }
  const body = Buffer.concat([OPEN, dataBytes, MID, Buffer.from(JSON.stringify(withWarningDocs(c, r.meta))), CLOSE]);
  return c.body(body, 200, { 'Content-Type': 'application/json' });
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
