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
