// Turns raw input into typed parameters, or into the first typed invalid_request error with
// `param` naming the parameter. Field rules come from the zod schemas; the rules that relate
// several fields are the functions below, called by each operation in spec order.
import type { z } from 'zod';
import { type ErrorCode, ServiceError } from './errors.js';
import { ALL_PLATFORMS, ENABLED_PLATFORMS } from './platforms.js';
import { MAX_STAY_NIGHTS, MAX_WINDOW_DAYS } from './limits.js';
import { DAY_MS } from './clock.js';

/** Raw input as it arrives: query values (string | string[]) or a JSON body's values. */
export type RawInput = Record<string, unknown>;

/** Which invalid_request code a field's failures map to, by zod issue code. */
const FIELD_CODES: Record<string, Partial<Record<string, ErrorCode>>> = {
  limit: { too_small: 'limit_out_of_range', too_big: 'limit_out_of_range' },
  maxItems: { too_small: 'limit_out_of_range' },
  sort: { invalid_value: 'invalid_sort' },
  propertyType: { invalid_value: 'invalid_property_type' },
  amenities: { invalid_value: 'invalid_amenity' },
  language: { custom: 'invalid_language' },
  priceMin: { too_small: 'invalid_price_range' },
  priceMax: { too_small: 'invalid_price_range' },
};

/**
 * Normalises query or body input: `name[]` keys merge into `name`, blank strings and nulls count
 * as absent, so `cursor=` and `{"cursor": null}` mean "no cursor".
 */
export function normalizeInput(raw: Record<string, unknown>): RawInput {
  const out: RawInput = {};
  for (const [k0, v0] of Object.entries(raw)) {
    const k = k0.endsWith('[]') ? k0.slice(0, -2) : k0;
    // No parameter has this name, and assigning it would replace the object's prototype (whose
    // properties the schema would then read as parameters).
    if (k === '__proto__') continue;
    let v = v0;
    if (typeof v === 'string') v = v.trim();
    if (Array.isArray(v)) v = v.map((x) => (typeof x === 'string' ? x.trim() : x)).filter((x) => x !== '' && x !== null);
    if (v === '' || v === null || v === undefined || (Array.isArray(v) && v.length === 0)) continue;
    // A key given once arrives from the query as a one-element array.
    if (Array.isArray(v) && v.length === 1) v = v[0];
    const prev = out[k];
    if (prev === undefined) out[k] = v;
    else out[k] = [...(Array.isArray(prev) ? prev : [prev]), ...(Array.isArray(v) ? v : [v])];
  }
  return out;
}

/**
 * What no stored string may hold (docs/decisions.md, issue 21): a NUL, which PostgreSQL refuses in
 * text and jsonb (SQLite took it, so one store answered 201 and the other 500), and a lone UTF-16
 * surrogate, which is not Unicode text (jsonb refuses its escape; a text column would silently
 * store U+FFFD instead). One rule for every string that reaches a store, checked where requests are
 * parsed, so both stores answer the same typed 400.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `s` cannot be stored (a phrase after the parameter's name), or null. */
export function textProblem(s: string): string | null {
  if (s.includes('\u0000')) return 'must not contain control characters (it holds a NUL, U+0000)';
  if (LONE_SURROGATE.test(s)) return 'must be valid Unicode text (it holds a lone UTF-16 surrogate)';
  return null;
}

/** Throws invalid_parameter naming `param` when `s` cannot be stored (textProblem). */
function checkText(s: string, param: string): void {
  const problem = textProblem(s);
  if (problem) throw new ServiceError('invalid_parameter', `${param} ${problem}.`, { param });
}

/**
 * checkText over every string of raw input (query values, a list's items): the parameter named is
 * the top-level one. A name that itself cannot be stored is reported as `query`.
 */
export function checkInputText(raw: RawInput, where = 'query'): void {
  for (const [k, v] of Object.entries(raw)) {
    if (textProblem(k)) checkText(k, where);
    for (const x of Array.isArray(v) ? v : [v]) if (typeof x === 'string') checkText(x, k);
  }
}

/**
 * Bounds on a JSON body, checked before any schema sees it (docs/decisions.md). Far above what any
 * parameter set needs (at most ~25 fields, lists of 100, strings of 2,048), low enough that no
 * walk over the value, ours or a library's, can exhaust the stack or take long.
 */
const JSON_LIMITS = { depth: 32, values: 10_000, stringLength: 8_192 } as const;

/**
 * Refuses, as invalid_parameter naming `param`, a parsed JSON value nested deeper than
 * JSON_LIMITS.depth objects/arrays, holding more than JSON_LIMITS.values values (keys and items
 * included) or a string or key longer than JSON_LIMITS.stringLength. Iterative, so the check
 * itself cannot overflow the stack whatever JSON.parse built.
 */
export function checkJsonBounds(value: unknown, param = 'body'): void {
  const what = param === 'body' ? 'The request body' : param;
  const fail = (why: string, field: string | undefined): never => {
    const at = field === undefined ? '' : ` (in ${preview(field)})`;
    throw new ServiceError('invalid_parameter', `${what} ${why}${at}.`, { param });
  };
  // [value, depth of the value, top-level field it sits in]
  const stack: [unknown, number, string | undefined][] = [[value, 0, undefined]];
  let count = 1;
  while (stack.length > 0) {
    const [v, depth, field] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.length > JSON_LIMITS.stringLength) fail(`holds a string longer than ${JSON_LIMITS.stringLength} characters`, field);
      if (textProblem(v)) checkText(v, field ?? param);
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= JSON_LIMITS.depth) fail(`nests objects and lists deeper than ${JSON_LIMITS.depth} levels`, field);
    if (Array.isArray(v)) {
      count += v.length;
      if (count > JSON_LIMITS.values) fail(`holds more than ${JSON_LIMITS.values} values`, field);
      for (const x of v) stack.push([x, depth + 1, field]);
      continue;
    }
    const keys = Object.keys(v);
    count += 2 * keys.length; // a key counts as a value
    if (count > JSON_LIMITS.values) fail(`holds more than ${JSON_LIMITS.values} values`, field);
    for (const k of keys) {
      if (k.length > JSON_LIMITS.stringLength) fail(`has a key longer than ${JSON_LIMITS.stringLength} characters`, field);
      if (textProblem(k)) checkText(k, field ?? param);
      stack.push([(v as Record<string, unknown>)[k], depth + 1, field ?? k]);
    }
  }
}

/**
 * The values a message offers for an enum: for platforms only the enabled ones (D12), since the
 * others are accepted but never searched, so naming them would suggest values that cannot be used.
 */
function offered(values: readonly unknown[]): string {
  const isPlatformEnum = values.length === ALL_PLATFORMS.length && ALL_PLATFORMS.every((p) => values.includes(p));
  return (isPlatformEnum ? ENABLED_PLATFORMS : values).map(String).join(', ');
}

function describeIssue(param: string, issue: z.core.$ZodIssue, input: unknown, item: boolean): string {
  switch (issue.code) {
    case 'invalid_value':
      // A list item: name the item, as the list's raw value ("hotel,flat") is not what failed.
      if (item) return `${param} ${preview(input)} is not one of ${offered(issue.values)}.`;
      return `${param} must be one of ${offered(issue.values)} (got ${preview(input)}).`;
    case 'too_small':
      return `${param} must be ${issue.inclusive === false ? 'greater than' : 'at least'} ${String(issue.minimum)}${got(input)}.`;
    case 'too_big':
      return issue.origin === 'array' ? `${param} has too many values (at most ${String(issue.maximum)}).` : `${param} must be at most ${String(issue.maximum)}${got(input)}.`;
    case 'invalid_type':
      if (Array.isArray(input)) return `${param} was given more than once; pass a single value.`;
      return `${param} must be ${article(issue.expected)}${got(input)}.`;
    default:
      return `${param} ${issue.message}${got(input)}.`;
  }
}

function article(expected: string): string {
  const map: Record<string, string> = { number: 'a number', int: 'an integer', string: 'a string', boolean: 'true or false', array: 'a list' };
  return map[expected] ?? expected;
}

/**
 * User input as an error message may quote it: at most ~60 characters, and never the contents of
 * an object or list (a hostile value can be nested thousands deep or megabytes long).
 */
export function preview(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  if (Array.isArray(v)) return `a list of ${v.length}`;
  if (typeof v === 'object') return 'an object';
  return typeof v;
}

function got(input: unknown): string {
  if (input === undefined || typeof input === 'object') return '';
  return ` (got ${preview(input)})`;
}

function valueAt(raw: RawInput, path: PropertyKey[]): unknown {
  let v: unknown = raw;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

export function parseParams<S extends z.ZodType>(schema: S, raw: RawInput): z.infer<S> {
  // reportInput: a list item's value as the schema saw it (a comma list is split in preprocess,
  // so the raw input has no element at the issue's path).
  const result = schema.safeParse(raw, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    // A field the request does not take (a strict body): named as the param, with the ones it takes.
    const name = [...issue.path, issue.keys[0]!].map(String).join('.');
    const top = (schema as { shape?: unknown }).shape;
    const shape = issue.path.length === 0 && typeof top === 'object' && top !== null ? Object.keys(top) : [];
    throw new ServiceError('invalid_parameter', `${preview(name)} is not a field of this request${shape.length > 0 ? `; it takes ${shape.join(', ')}` : ''}.`, {
      param: String(issue.path[0] ?? issue.keys[0]!),
    });
  }
  const param = String(issue.path[0] ?? '');
  const item = issue.path.length > 1;
  const input = item && issue.input !== undefined ? issue.input : valueAt(raw, issue.path);
  if (input === undefined && issue.path.length === 1) {
    throw new ServiceError('missing_parameter', `${param} is required.`, { param });
  }
  if (Array.isArray(input) && issue.path.length === 1 && issue.code !== 'too_big') {
    throw new ServiceError('invalid_parameter', `${param} was given more than once; pass a single value.`, { param });
  }
  const code = FIELD_CODES[param]?.[issue.code] ?? 'invalid_parameter';
  // A list item's own failure reports the item; the param is still the list's name.
  throw new ServiceError(code, describeIssue(param, issue, input, item), { param: param || null });
}

// ---- Rules across fields -------------------------------------------------------------------

export { MAX_WINDOW_DAYS };

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** Start/end pair rules: both or neither (when optional), not in the past, strictly ordered, bounded. */
export function checkDatePair(
  p: { start?: string | undefined; end?: string | undefined },
  names: { start: string; end: string },
  today: string,
  limit: { max: number; code: 'stay_too_long' | 'window_too_long' },
): void {
  if (p.start === undefined && p.end === undefined) return;
  if (p.start === undefined) throw new ServiceError('missing_parameter', `${names.start} is required when ${names.end} is given.`, { param: names.start });
  if (p.end === undefined) throw new ServiceError('missing_parameter', `${names.end} is required when ${names.start} is given.`, { param: names.end });
  if (p.start < today) throw new ServiceError('date_in_past', `${names.start} ${p.start} is in the past (today is ${today} UTC).`, { param: names.start });
  if (p.end <= p.start) throw new ServiceError('invalid_date_range', `${names.end} must be after ${names.start}.`, { param: names.end });
  const days = daysBetween(p.start, p.end);
  if (days > limit.max) {
    const what = limit.code === 'stay_too_long' ? `The stay is ${days} nights; the maximum is ${limit.max}` : `The window is ${days} days; the maximum is ${limit.max}`;
    throw new ServiceError(limit.code, `${what}.`, { param: names.end });
  }
}

export function checkStay(p: { checkIn?: string | undefined; checkOut?: string | undefined }, today: string): void {
  checkDatePair({ start: p.checkIn, end: p.checkOut }, { start: 'checkIn', end: 'checkOut' }, today, { max: MAX_STAY_NIGHTS, code: 'stay_too_long' });
}

export function checkChildAges(p: { children: number; childAges?: number[] | undefined }): number[] {
  const ages = p.childAges ?? [];
  if (ages.length !== p.children) {
    throw new ServiceError('child_ages_mismatch', `children is ${p.children} but childAges has ${ages.length} value${ages.length === 1 ? '' : 's'}.`, {
      param: 'childAges',
    });
  }
  return ages;
}

export function checkPriceRange(p: { priceMin?: number | undefined; priceMax?: number | undefined }): void {
  if (p.priceMin !== undefined && p.priceMax !== undefined && p.priceMax < p.priceMin) {
    throw new ServiceError('invalid_price_range', `priceMax (${p.priceMax}) is below priceMin (${p.priceMin}).`, { param: 'priceMax' });
  }
}

/** Exactly one of the named identification forms. */
export function exactlyOne(p: Record<string, unknown>, names: string[], what: string): string {
  const given = names.filter((n) => p[n] !== undefined);
  if (given.length === 0) throw new ServiceError('missing_parameter', `Give one of ${names.join(', ')} to identify the ${what}.`, { param: names[0]! });
  if (given.length > 1) {
    throw new ServiceError('mutually_exclusive_params', `${given.join(' and ')} are mutually exclusive; give only one.`, { param: given[1]! });
  }
  return given[0]!;
}

/** minLng,minLat,maxLng,maxLat. */
export function parseBbox(s: string): { minLng: number; minLat: number; maxLng: number; maxLat: number } {
  const parts = s.split(',').map((x) => (x.trim() === '' ? Number.NaN : Number(x)));
  const bad = (why: string) => new ServiceError('invalid_parameter', `bbox ${why}: give minLng,minLat,maxLng,maxLat in degrees (-9.2,38.7,-9.1,38.8).`, { param: 'bbox' });
  if (parts.length !== 4 || parts.some((x) => !Number.isFinite(x))) throw bad('must be four numbers');
  const [minLng, minLat, maxLng, maxLat] = parts as [number, number, number, number];
  if (minLat < -90 || maxLat > 90 || minLng < -180 || maxLng > 180) throw bad('is outside the globe');
  if (minLat > maxLat || minLng > maxLng) throw bad('has a minimum above its maximum');
  return { minLng, minLat, maxLng, maxLat };
}
