// The `fields` projection of the Family S search forms: comma-separated dotted paths of Stay
// (`id,title,pricing.price`). Paths are checked against the Stay schema, so a typo is a typed
// invalid_parameter naming the path instead of a silently missing column.
import { z } from 'zod';
import { ServiceError } from '../errors.js';
import { StaySchema } from '../schemas/stays.js';

/** Every path of the Stay schema: objects by their keys, arrays of objects by their items' keys. */
function pathsOf(schema: z.ZodType, prefix: string, out: Set<string>): void {
  let s: z.ZodType = schema;
  while (s instanceof z.ZodNullable || s instanceof z.ZodOptional) s = s.unwrap() as z.ZodType;
  if (s instanceof z.ZodArray) s = s.element as z.ZodType;
  while (s instanceof z.ZodNullable || s instanceof z.ZodOptional) s = s.unwrap() as z.ZodType;
  if (!(s instanceof z.ZodObject)) return;
  for (const [k, v] of Object.entries(s.shape as Record<string, z.ZodType>)) {
    const p = prefix ? `${prefix}.${k}` : k;
    out.add(p);
    pathsOf(v, p, out);
  }
}

export const STAY_FIELD_PATHS: ReadonlySet<string> = (() => {
  const out = new Set<string>();
  pathsOf(StaySchema, '', out);
  return out;
})();

export type Projection = string[][];

/** Parses and checks a fields string; undefined means every field. */
export function parseFields(fields: string | undefined, param = 'fields'): Projection | undefined {
  if (fields === undefined) return undefined;
  const paths = [
    ...new Set(
      fields
        .split(',')
        .map((f) => f.trim())
        .filter((f) => f !== ''),
    ),
  ];
  if (paths.length === 0) throw new ServiceError('invalid_parameter', `${param} is empty; give comma-separated Stay paths such as id,title,pricing.price.`, { param });
  for (const p of paths) {
    if (!STAY_FIELD_PATHS.has(p)) {
      throw new ServiceError(
        'invalid_parameter',
        `${param}: unknown field path ${JSON.stringify(p.length > 60 ? `${p.slice(0, 57)}...` : p)}; top-level fields are ${[...STAY_FIELD_PATHS].filter((x) => !x.includes('.')).join(', ')}.`,
        { param },
      );
    }
  }
  // A path under one already asked for whole adds nothing.
  const kept = paths.filter((p) => !paths.some((q) => q !== p && p.startsWith(`${q}.`)));
  return kept.map((p) => p.split('.'));
}

function pick(value: unknown, paths: string[][]): unknown {
  if (Array.isArray(value)) return value.map((v) => pick(v, paths));
  if (value === null || typeof value !== 'object') return value;
  const src = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const groups = new Map<string, string[][]>();
  for (const [head, ...rest] of paths) {
    if (!(head! in src)) continue;
    const g = groups.get(head!) ?? [];
    if (rest.length > 0) g.push(rest);
    groups.set(head!, g);
  }
  for (const [head, rest] of groups) out[head] = rest.length === 0 ? src[head] : pick(src[head], rest);
  return out;
}

/** The rows with only the asked paths, in the order they were asked. */
export function project<T>(rows: T[], projection: Projection | undefined): unknown[] {
  if (!projection) return rows;
  return rows.map((r) => pick(r, projection));
}
