// Envelopes: { data, meta } for Family U results, { error } for every failure.
import type { Context } from 'hono';
import type { OpResult } from '../core/context.js';
import { type ServiceError, errorBody } from '../core/errors.js';
import type { Env } from './route.js';

export function renderOk<T>(c: Context<Env>, r: OpResult<T>): Response {
  return c.json({ data: r.data, meta: r.meta }, 200);
}

export function renderError(c: Context<Env>, err: ServiceError): Response {
  if (err.retryAfter !== undefined) c.header('Retry-After', String(err.retryAfter));
  const body = { error: errorBody(err, c.var.requestId, c.var.services.config.docsUrl) };
  return c.json(body, err.status as 400);
}
