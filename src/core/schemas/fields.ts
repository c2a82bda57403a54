// Parameter field builders. Query strings arrive as strings (or arrays of strings for repeated
// keys); POST bodies arrive as JSON. Each builder accepts both and yields one typed value.
import { z } from 'zod';
import { isCurrencyCode, languageName, regionName } from '../intl.js';
import { textProblem } from '../validate.js';

/** A single value: a one-element array (repeated key given once) collapses; more stays an array and fails. */
function scalar(v: unknown): unknown {
  return Array.isArray(v) && v.length === 1 ? v[0] : v;
}

/** C0 control characters and DEL: never part of a place, name, id, URL or cursor. */
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/** Free text (a place, name, id, URL, cursor): at most 2,048 characters, no control characters. */
export function str(inner: z.ZodString = z.string()) {
  return z.preprocess(
    scalar,
    inner
      .max(2048)
      .refine((s) => !CONTROL_CHARS.test(s), { message: 'must not contain control characters' })
      .refine((s) => textProblem(s) === null, { message: 'must be valid Unicode text (it holds a lone UTF-16 surrogate)' }),
  );
}

/**
 * Bidirectional controls (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069): they reorder how the
 * text around them reads, so a label holding U+202E can show "gpj.exe" as "exe.jpg".
 */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * A label people read (a comp set's or a watch's name; issue 35, item 8): trimmed first, so the
 * length is the kept text's and a name of spaces is empty and refused; at most `max` characters;
 * no control characters, no bidirectional controls.
 */
export function label(max: number) {
  return z.preprocess(
    (raw) => {
      const v = scalar(raw);
      return typeof v === 'string' ? v.trim() : v;
    },
    z
      .string()
      .refine((s) => s.length > 0, { message: 'must not be empty or only spaces', abort: true })
      .min(1)
      .max(max)
      .refine((s) => !CONTROL_CHARS.test(s), { message: 'must not contain control characters' })
      .refine((s) => !BIDI_CONTROLS.test(s), { message: 'must not contain bidirectional control characters (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069)' })
      .refine((s) => textProblem(s) === null, { message: 'must be valid Unicode text (it holds a lone UTF-16 surrogate)' }),
  );
}

export function int(inner: z.ZodNumber = z.number()) {
  return z.preprocess((raw) => {
    const v = scalar(raw);
    return typeof v === 'string' && /^[+-]?\d{1,15}$/.test(v.trim()) ? Number(v) : v;
  }, inner.int());
}

export function num(inner: z.ZodNumber = z.number()) {
  return z.preprocess((raw) => {
    const v = scalar(raw);
    return typeof v === 'string' && /^[+-]?(\d{1,15}(\.\d*)?|\.\d+)$/.test(v.trim()) ? Number(v) : v;
  }, inner.finite());
}

export function bool() {
  return z.preprocess((raw) => {
    const v = scalar(raw);
    if (v === 'true' || v === '1') return true;
    if (v === 'false' || v === '0') return false;
    return v;
  }, z.boolean());
}

function isValidDate(s: string): boolean {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/**
 * The one range of dates the service takes, both ends included: every date parameter (check-in
 * and check-out, a window's start and end, a history read's instants) of every endpoint, tool and
 * watch. Beyond it dates were taken and broke later (a window's months past 9999 made no date: a
 * 500; years before 100 were read as 19xx), and no stay, quote or observation lies outside it.
 * docs/decisions.md, "One date type, one range".
 */
export const DATE_MIN = '2000-01-01';
export const DATE_MAX = '2099-12-31';
export const DATE_RANGE_MESSAGE = `must be a date from ${DATE_MIN} to ${DATE_MAX}`;

/** Whether a YYYY-MM-DD date (or the date of an ISO instant, its first ten characters) lies in the range. */
export const inDateRange = (s: string) => s.slice(0, 10) >= DATE_MIN && s.slice(0, 10) <= DATE_MAX;

/** A date parameter: YYYY-MM-DD, a calendar date, within DATE_MIN to DATE_MAX. */
export function date() {
  return z.preprocess(
    scalar,
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date in YYYY-MM-DD form' })
      .refine(isValidDate, { message: 'is not a calendar date' })
      .refine(inDateRange, { message: DATE_RANGE_MESSAGE }),
  );
}

/** Comma-separated values, repeated keys and `name[]` arrive alike as a list. */
export function list<T extends z.ZodType>(item: T) {
  return z.preprocess((raw) => {
    const parts: unknown[] = Array.isArray(raw) ? raw : [raw];
    if (!parts.every((p): p is string | number => typeof p === 'string' || typeof p === 'number')) return raw;
    return parts
      .flatMap((p: string | number): (string | number)[] => (typeof p === 'string' ? p.split(',') : [p]))
      .map((p) => (typeof p === 'string' ? p.trim() : p))
      .filter((p) => p !== '');
  }, z.array(item).max(100));
}

/** Enum values compared case-insensitively, so `Airbnb` and `PRICE_ASC` are understood. */
export function lowerEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.preprocess((raw) => {
    const v = scalar(raw);
    return typeof v === 'string' ? v.toLowerCase() : v;
  }, z.enum(values));
}

export function currency() {
  return z.preprocess(
    (raw) => {
      const v = scalar(raw);
      return typeof v === 'string' ? v.toUpperCase() : v;
    },
    z.string().refine((c) => /^[A-Z]{3}$/.test(c) && isCurrencyCode(c), { message: 'must be an ISO-4217 currency code' }),
  );
}

export function country() {
  return z.preprocess(
    (raw) => {
      const v = scalar(raw);
      return typeof v === 'string' ? v.toUpperCase() : v;
    },
    z.string().refine((c) => /^[A-Z]{2}$/.test(c) && regionName(c) !== undefined, {
      message: 'must be an ISO-3166 alpha-2 country code',
    }),
  );
}

function isIsoLanguage(code: string): boolean {
  return /^[a-z]{2}$/.test(code) && languageName(code) !== undefined;
}

export function language() {
  return z.preprocess(
    (raw) => {
      const v = scalar(raw);
      return typeof v === 'string' ? v.toLowerCase() : v;
    },
    z.string().refine(isIsoLanguage, { message: 'must be an ISO-639-1 language code' }),
  );
}
