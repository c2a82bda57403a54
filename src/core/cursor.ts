// Opaque cursors (D16): base64url of a small JSON holding offsets and a fingerprint of the
// query, so a cursor replayed against a different query is refused instead of paging wrongly.
import { createHash } from 'node:crypto';
import { ServiceError } from './errors.js';

export interface CursorState {
  /** Offsets: per platform for search, a single "_" entry for reviews. */
  o: Record<string, number>;
}

export function fingerprint(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 12);
}

export function encodeCursor(state: CursorState, fp: string): string {
  return Buffer.from(JSON.stringify({ v: 1, f: fp, o: state.o }), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | undefined, fp: string, as: { param: string; from: string } = { param: 'cursor', from: 'meta.pagination.nextCursor' }): CursorState | null {
  if (cursor === undefined) return null;
  const bad = (why: string) => new ServiceError('invalid_cursor', `The ${as.param} ${why}; pass ${as.from} from the previous page unchanged.`, { param: as.param });
  if (!/^[A-Za-z0-9_\-+/]+={0,2}$/.test(cursor) || cursor.length > 4096) throw bad('is not base64');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor.replace(/\+/g, '-').replace(/\//g, '_'), 'base64url').toString('utf8'));
  } catch {
    throw bad('is malformed');
  }
  if (typeof parsed !== 'object' || parsed === null) throw bad('is malformed');
  const { v, f, o } = parsed as { v?: unknown; f?: unknown; o?: unknown };
  if (v !== 1 || typeof o !== 'object' || o === null || Array.isArray(o)) throw bad('is malformed');
  const offsets: Record<string, number> = {};
  for (const [k, n] of Object.entries(o)) {
    if (!Number.isSafeInteger(n) || (n as number) < 0) throw bad('is malformed');
    offsets[k] = n as number;
  }
  if (f !== fp) throw bad('belongs to a different query');
  return { o: offsets };
}

/** A position in a list ordered by a time and an id (watches, their events): opaque like the others, bound to the query by `fp`. */
export function encodePositionCursor(at: { t: number; id: string }, fp: string): string {
  return Buffer.from(JSON.stringify({ v: 1, f: fp, t: at.t, j: at.id }), 'utf8').toString('base64url');
}

/** The position a cursor of encodePositionCursor holds, or invalid_cursor; `id` checks the id's form. */
export function decodePositionCursor(cursor: string | undefined, fp: string, id: RegExp): { t: number; id: string } | null {
  if (cursor === undefined) return null;
  const bad = (why: string) => new ServiceError('invalid_cursor', `The cursor ${why}; pass meta.pagination.nextCursor from the previous page unchanged.`, { param: 'cursor' });
  if (!/^[A-Za-z0-9_-]+$/.test(cursor) || cursor.length > 512) throw bad('is not base64url');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad('is malformed');
  }
  const { v, f, t, j } = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  if (v !== 1 || typeof f !== 'string' || !Number.isSafeInteger(t) || (t as number) < 0 || typeof j !== 'string' || !id.test(j)) throw bad('is malformed');
  if (f !== fp) throw bad('belongs to a different query');
  return { t: t as number, id: j };
}
