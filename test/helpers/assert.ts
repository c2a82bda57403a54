// Shared assertions on the wire shapes.
import { expect } from 'vitest';
import { ErrorEnvelopeSchema, MetaSchema, REQUEST_ID_PATTERN } from '../../src/core/schemas/resources.js';

export interface ErrorJson {
  error: { type: string; code: string; message: string; param: string | null; requestId: string; creditsCharged: number; retryable: boolean; docUrl: string };
}

/**
 * Issue 15: a docUrl from a server names that server's own page for the code (whose every page
 * test/docs/serve-docs.test.ts shows answering 200), unless STAYS_DOCS_URL sent it to another site.
 */
export function expectOwnDocUrl(docUrl: string, responseUrl: string, code: string): void {
  if (!/^https?:/.test(responseUrl)) return; // in-process: a file: URL into the shipped reference
  const d = new URL(docUrl);
  if (!/^(?:127\.0\.0\.1|localhost|\[::1\])$/.test(d.hostname)) return;
  expect(d.origin, docUrl).toBe(new URL(responseUrl).origin);
  expect(d.pathname, docUrl).toBe(`/docs/errors/${code}`);
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
  expectOwnDocUrl(body.error.docUrl, res.url, code);
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
