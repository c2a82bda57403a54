// Printing results on stdout: table (TTY default), tsv (piped default: no header, no colour, no
// truncation, as gh does), json (the API envelope as returned), jsonl (one data row a line) and
// csv. The footer (credits, cache, more pages) is talk, so it goes to stderr, for tables only;
// warnings and partial results go to stderr in every format (notices.ts).
import { type Column, type View, cellText, viewOf } from './view.js';
import { jsonText } from './io.js';
import { type Term, chalkAt } from './term.js';

export const FORMATS = ['table', 'tsv', 'json', 'jsonl', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

const out = (s: string) => process.stdout.write(s);

const clip = (s: string, max?: number) => (max !== undefined && s.length > max ? `${s.slice(0, max - 1)}…` : s);
const oneLine = (s: string) => s.replace(/[\t\r\n]+/g, ' ');
const csvCell = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/** Rows as text lines (tsv, csv); used for whole results and for pages as they arrive (--all). */
export function rowLines(view: View, format: 'tsv' | 'csv', header: boolean): string {
  const cells = (r: Record<string, unknown>) => view.columns.map((c) => oneLine(cellText(c.value(r))));
  const lines: string[] = [];
  if (format === 'csv') {
    if (header) lines.push(view.columns.map((c) => csvCell(c.header)).join(','));
    for (const r of view.rows) lines.push(cells(r).map(csvCell).join(','));
  } else {
    for (const r of view.rows) lines.push(cells(r).join('\t'));
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

export function jsonLines(data: unknown): string {
  const rows = Array.isArray(data) ? data : [data];
  return rows.map((r) => `${JSON.stringify(r)}\n`).join('');
}

async function table(view: View, term: Term): Promise<string> {
  const [{ default: Table }, c] = await Promise.all([import('cli-table3'), chalkAt(term.outColor)]);
  // cli-table3 would colour with its own library; styles are off and chalk decides instead.
  const style = { head: [], border: [] };
  // No rule between rows: denser, like gh's tables.
  const chars = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };
  if (view.single) {
    const t = new Table({ style });
    const r = view.rows[0] ?? {};
    for (const col of view.columns) t.push({ [c.bold(col.header)]: cellText(col.value(r)) });
    return `${t.toString()}\n`;
  }
  const cols: Column[] = view.columns.filter((col) => !col.wide);
  const t = new Table({ head: cols.map((col) => c.bold(col.header)), style, chars });
  for (const r of view.rows) t.push(cols.map((col) => clip(oneLine(cellText(col.value(r))), col.max)));
  return `${t.toString()}\n`;
}

/** Prints a result envelope in the chosen format. */
export async function printResult(envelope: { data: unknown }, format: Format, term: Term): Promise<void> {
  switch (format) {
    case 'json':
      return void out(jsonText(envelope, term.outTTY));
    case 'jsonl':
      return void out(jsonLines(envelope.data));
    case 'tsv':
    case 'csv':
      return void out(rowLines(viewOf(envelope.data), format, true));
    case 'table': {
      const view = viewOf(envelope.data);
      if (view.rows.length === 0) return void process.stderr.write('No results.\n');
      return void out(await table(view, term));
    }
  }
}

interface MetaLike {
  creditsCharged?: number;
  cached?: boolean;
  partial?: boolean;
  sandbox?: boolean;
  pagination?: { hasMore?: boolean; nextCursor?: string | null } | null;
  platformResults?: { platform: string; status: string; error?: { code: string } }[];
  warnings?: { code: string; message: string }[];
}

/** The stderr footer under a table: credits, cache, more pages. */
export async function printFooter(envelope: { data: unknown; meta?: MetaLike }, term: Term, paginates: boolean): Promise<void> {
  const m = envelope.meta;
  const c = await chalkAt(term.errColor);
  const parts: string[] = [];
  const d = envelope.data as { property?: string; min?: number | null; median?: number | null; currency?: string };
  if (d && typeof d === 'object' && 'offers' in d) parts.push(`${d.property}: min ${d.min ?? '-'} ${d.currency}, median ${d.median ?? '-'} ${d.currency}`);
  if (m) {
    parts.push(`${m.creditsCharged ?? 0} credits charged${m.sandbox ? ' (sandbox)' : ''}`, m.cached ? 'cached' : 'not cached');
    if (paginates && m.pagination) parts.push(m.pagination.hasMore ? `more pages: --cursor ${m.pagination.nextCursor} (or --all)` : 'last page');
  }
  if (parts.length) process.stderr.write(`${c.dim(parts.join(' · '))}\n`);
  // Partial legs and warnings are printed for every format by notices.ts.
}
