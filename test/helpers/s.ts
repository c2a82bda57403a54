// Family S wire helpers (D9, D11): every body carries request_id equal to X-Request-Id; errors are
// exactly `{ error, request_id }` with the shared Error object.
import { expect } from 'vitest';
import { expectOwnDocUrl } from './assert.js';
import { ErrorSchema, REQUEST_ID_PATTERN } from '../../src/core/schemas/resources.js';
import { StaySchema } from '../../src/core/schemas/stays.js';
import type { Api as Stays } from './stays.js';

export interface SError {
  type: string;
  code: string;
  message: string;
  param: string | null;
  requestId: string;
  creditsCharged: number;
  retryable: boolean;
  docUrl: string;
}

interface SBody {
  data?: unknown;
  meta?: Record<string, unknown> & { warnings?: { code: string; message: string }[] };
  error?: SError;
  request_id?: string;
}

export interface SResult<B = SBody> {
  /** The URL answered (for the docUrl check). */
  url: string;
  status: number;
  body: B;
  headers: Headers;
  text: string;
}

export type SInit = RequestInit & { key?: string; json?: unknown };

/** One request; the body parsed (not checked: see expectS*). */
export async function sCall(s: Stays, path: string, init: SInit = {}): Promise<SResult> {
  const { json, ...rest } = init;
  const req =
    json === undefined
      ? rest
      : { ...rest, method: rest.method ?? 'POST', body: JSON.stringify(json), headers: { 'content-type': 'application/json', ...(rest.headers as Record<string, string> | undefined) } };
  const res = await s.req(path, req);
  const text = await res.text();
  let body: SBody;
  try {
    body = JSON.parse(text) as SBody;
  } catch {
    throw new Error(`${path}: not JSON (${res.status}): ${text.slice(0, 300)}`);
  }
  return { url: res.url, status: res.status, body, headers: res.headers, text };
}

/** request_id present, well formed and equal to X-Request-Id (D11). */
export function expectRequestId(r: SResult): string {
  const id = r.body.request_id;
  expect(id, r.text.slice(0, 300)).toMatch(REQUEST_ID_PATTERN);
  expect(r.headers.get('x-request-id')).toBe(id);
  return id!;
}

/** A Family S error: exactly { error, request_id }, the shared Error object, free, ids agreeing. */
export function expectSError(r: SResult, status: number, code: string, param?: string | null): SError {
  expect(r.status, r.text.slice(0, 500)).toBe(status);
  expect(r.headers.get('content-type')).toMatch(/application\/json/);
  expect(Object.keys(r.body).sort(), r.text.slice(0, 300)).toEqual(['error', 'request_id']);
  const e = ErrorSchema.strict().parse(r.body.error);
  expect(e.code, r.text.slice(0, 500)).toBe(code);
  expect(e.creditsCharged).toBe(0);
  expect(e.docUrl).toMatch(new RegExp(`/errors/${code}$`));
  expectOwnDocUrl(e.docUrl, r.url, code);
  expect(e.requestId).toBe(expectRequestId(r));
  if (param !== undefined) expect(e.param, r.text.slice(0, 500)).toBe(param);
  return r.body.error!;
}

/** A Family S success: `{ data, meta?, request_id }` and nothing else. */
export function expectSOk<D = unknown>(r: SResult, status = 200): { data: D; meta: Record<string, unknown> & { warnings: { code: string; message: string }[] } } {
  expect(r.status, r.text.slice(0, 500)).toBe(status);
  const keys = Object.keys(r.body).sort();
  expect(
    keys.filter((k) => k !== 'meta'),
    r.text.slice(0, 300),
  ).toEqual(['data', 'request_id']);
  expectRequestId(r);
  return { data: r.body.data as D, meta: (r.body.meta ?? { warnings: [] }) as never };
}

/** Every key of the Stay schema present and nothing more, recursively (spec "Stay (Family S)"). */
const StrictStay = StaySchema.extend({
  location: StaySchema.shape.location.strict(),
  host: StaySchema.shape.host.strict(),
  pricing: StaySchema.shape.pricing.strict(),
  rating_breakdown: StaySchema.shape.rating_breakdown.strict(),
}).strict();

/** The spec table's top-level Stay keys, sorted. */
const STAY_KEYS = [
  'amenities',
  'availability',
  'description',
  'host',
  'id',
  'location',
  'person_capacity',
  'photos',
  'pricing',
  'property_type',
  'rating_breakdown',
  'reviews',
  'reviews_count',
  'room_type',
  'star_rating',
  'title',
  'url',
];

export type StayJson = ReturnType<typeof StrictStay.parse>;

/** A Stay exactly as the spec's table: every field present, no extra keys, nested objects and array items too. */
export function expectStay(v: unknown): StayJson {
  expect(Object.keys(v as object).sort()).toEqual(STAY_KEYS);
  const st = StrictStay.parse(v);
  for (const p of st.photos) expect(Object.keys(p).sort()).toEqual(['caption', 'url']);
  for (const r of st.reviews) expect(Object.keys(r).sort()).toEqual(['author_name', 'created_at', 'id', 'rating', 'text']);
  for (const a of st.amenities) expect(Object.keys(a).sort()).toEqual(['category', 'items']);
  for (const d of st.availability) expect(Object.keys(d).sort()).toEqual(['available', 'date', 'min_nights', 'price']);
  for (const b of st.pricing.breakdown ?? []) expect(Object.keys(b).sort()).toEqual(['amount', 'label']);
  return st;
}

/** Account credits (Family U's account route). */
export async function credits(s: Stays, key: string): Promise<{ balance: number; held: number; available: number }> {
  const res = await s.req('/v1/account', { key });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { credits: { balance: number; held: number; available: number } } }).data.credits;
}
