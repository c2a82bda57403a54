// Shared assertions on the wire shapes.
import { expect } from 'vitest';
import { ErrorEnvelopeSchema, MetaSchema, REQUEST_ID_PATTERN } from '../../src/core/schemas/resources.js';

export interface ErrorJson {
  error: { type: string; code: string; message: string; param: string | null; requestId: string; creditsCharged: number; retryable: boolean; docUrl: string };
}

/** A typed error: the Error schema, creditsCharged 0, X-Request-Id equal to error.requestId. */
export async function expectError(res: Response, status: number, code: string, param?: string | null): Promise<ErrorJson> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  const body = JSON.parse(text) as ErrorJson;
  ErrorEnvelopeSchema.parse(body);
  expect(body.error.code, text).toBe(code);
  expect(body.error.creditsCharged).toBe(0);
  expect(body.error.docUrl).toMatch(new RegExp(`/errors/${code}$`));
  expect(res.headers.get('x-request-id')).toBe(body.error.requestId);
  if (param !== undefined) expect(body.error.param, text).toBe(param);
  return body;
}

export async function expectOk<T = unknown>(res: Response): Promise<{ data: T; meta: ReturnType<typeof MetaSchema.parse> }> {
  const text = await res.text();
  expect(res.status, text).toBe(200);
  const body = JSON.parse(text) as { data: T; meta: unknown };
  const meta = MetaSchema.parse(body.meta);
  expect(res.headers.get('x-request-id')).toBe(meta.requestId);
  expect(meta.requestId).toMatch(REQUEST_ID_PATTERN);
  return { data: body.data, meta };
}
