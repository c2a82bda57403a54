// --json FIELDS and --jq EXPR: the JSON output narrowed to some fields of each row, or filtered
// by a jq expression, as gh does. Loaded only when one of the flags is used.
import { UsageError } from './errors.js';
import { jsonText } from './io.js';
import type { Term } from './term.js';

type Row = Record<string, unknown>;

/** Only `fields` of each row (of the rows of `data`, or of `data` itself when it is one object). */
export function pickFields(data: unknown, fields: string[]): unknown {
  const rows = Array.isArray(data) ? (data as Row[]) : [data as Row];
  const known = new Set(rows.flatMap((r) => (r && typeof r === 'object' ? Object.keys(r) : [])));
  const unknown = fields.filter((f) => !known.has(f));
  if (rows.length > 0 && unknown.length > 0) {
    throw new UsageError(`Unknown JSON field${unknown.length > 1 ? 's' : ''} ${unknown.map((f) => JSON.stringify(f)).join(', ')}; available: ${[...known].sort().join(', ')}.`, 'json');
  }
  const pick = (r: Row) => Object.fromEntries(fields.map((f) => [f, r?.[f] ?? null]));
  return Array.isArray(data) ? rows.map(pick) : pick(data as Row);
}

/** Prints the selection on stdout. */
export async function printSelected(envelope: { data: unknown }, sel: { fields: string[] | null; jq: string | null }, term: Term): Promise<void> {
  const value = sel.fields ? pickFields(envelope.data, sel.fields) : envelope;
  if (sel.jq !== null) throw new UsageError('--jq is not available in this build.', 'jq');
  process.stdout.write(jsonText(value, term.outTTY));
}
