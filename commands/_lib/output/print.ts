// Printing results on stdout: table (TTY default), tsv (piped default: no header, no colour, no
// truncation, as gh does), json (the API envelope as returned), jsonl (one data row a line) and
// csv. The footer (credits, cache, more pages) is talk, so it goes to stderr, for tables only;
// warnings and partial results go to stderr in every format (notices.ts).
import { dataText, money, viewOf, type View, type ViewSpec } from './view.js';
import { jsonText, io } from '../runtime/io.js';
import { type Term, chalkAt } from '../runtime/term.js';

export const FORMATS = ['table', 'tsv', 'json', 'jsonl', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

const out = (s: string) => io().stdout.write(s);

const oneLine = (s: string) => s.replace(/[\t\r\n]+/g, ' ');
const csvCell = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/**
 * Rows as text lines (tsv, csv), with the data columns of columns.ts; used for whole results and
 * for pages as they arrive (--all). No rows, no lines: an empty page cannot say which header it has.
 */
export function rowLines(view: View, format: 'tsv' | 'csv', header: boolean): string {
  if (view.rows.length === 0) return '';
  const cells = (r: Record<string, unknown>) => view.data.map((c) => oneLine(dataText(c.value(r))));
  const lines: string[] = [];
  if (format === 'csv') {
    if (header) lines.push(view.data.map((c) => csvCell(c.key)).join(','));
    for (const r of view.rows) lines.push(cells(r).map(csvCell).join(','));
  } else {
    for (const r of view.rows) lines.push(cells(r).join('\t'));
  }
  return `${lines.join('\n')}\n`;
}

export function jsonLines(data: unknown): string {
  const rows = Array.isArray(data) ? data : [data];
  return rows.map((r) => `${JSON.stringify(r)}\n`).join('');
}

/**
 * How wide a table may be: the terminal's width on a TTY (80 when it does not say); otherwise
 * COLUMNS when set (`-o table | less`), else no limit (`-o table > file`).
 */
function tableWidth(term: Term): number {
  if (term.outTTY) return (io().stdout.columns ?? 0) || 80;
  const columns = Number.parseInt(term.env.COLUMNS ?? '', 10);
  return columns > 0 ? columns : Number.POSITIVE_INFINITY;
}

async function table(view: View, term: Term): Promise<string> {
  const [{ renderFields, renderTable }, c] = await Promise.all([import('./table.js'), chalkAt(term.outColor)]);
  const bold = (s: string) => c.bold(s);
  return view.single ? renderFields(view, tableWidth(term), bold) : renderTable(view, tableWidth(term), bold);
}

/**
 * Prints a result envelope in the chosen format with the view its command named (view.ts; null
 * where the command prints only JSON); `paths`: Family S --fields, the columns to print;
 * `adjust`: what a table adds to its view from all its rows (the history listings' timeline).
 */
export async function printResult(envelope: { data: unknown }, format: Format, term: Term, view: ViewSpec | null, paths: string[] | null = null, adjust?: (v: View) => View): Promise<void> {
  switch (format) {
    case 'json':
      return void out(jsonText(envelope, term.outTTY));
    case 'jsonl':
      return void out(jsonLines(envelope.data));
    case 'tsv':
    case 'csv':
      return void out(rowLines(viewOf(envelope.data, view, paths), format, true));
    case 'table': {
      const shown = viewOf(envelope.data, view, paths);
      const v = adjust ? adjust(shown) : shown;
      if (v.rows.length === 0) return void io().stderr.write('No results.\n');
      return void out(await table(v, term));
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
  // Family S (snake_case).
  credits_charged?: number;
  environment?: string;
  has_more?: boolean;
  next_page_token?: string | null;
  default_dates?: { check_in: string; check_out: string };
}

interface Compared {
  property?: string;
  min?: number | null;
  median?: number | null;
  comparable?: { min: number | null; median: number | null; offers: number };
  currency?: string;
  offers: { ota?: string; platform?: string; listingId?: string; totalPrice?: number }[];
}

/** compare's summary: the minimum and who holds it (platform and listing id, or the seller), the median. */
function comparedLine(d: Compared): string {
  const cheapest = typeof d.min === 'number' ? d.offers.find((o) => o.totalPrice === d.min) : undefined;
  const holder = cheapest ? (cheapest.platform && cheapest.listingId ? `${cheapest.platform} ${cheapest.listingId}` : cheapest.ota) : undefined;
  const min = `min ${money(d.min, d.currency) ?? '-'}${holder ? ` (${holder})` : ''}`;
  const like = d.comparable ? `; like for like (${d.comparable.offers} ranked first): min ${money(d.comparable.min, d.currency) ?? '-'}, median ${money(d.comparable.median, d.currency) ?? '-'}` : '';
  return `${d.property ?? 'compared'}: ${min}, median ${money(d.median, d.currency) ?? '-'}${like}`;
}

/**
 * The stderr footer under a table: credits, cache, more pages. `paginates: 'token'`: a Family S
 * body call, whose next page is asked for with --next-page-token, even when the page ran as a job
 * and came back with Family U meta.
 */
export async function printFooter(envelope: { data: unknown; meta?: MetaLike }, term: Term, paginates: boolean | 'token'): Promise<void> {
  const m = envelope.meta;
  const c = await chalkAt(term.errColor);
  const parts: string[] = [];
  /** The flag and token of the next page; null on the last page; undefined when the call does not page. */
  let next: string | null | undefined;
  const d = envelope.data as Compared | null;
  if (d && typeof d === 'object' && Array.isArray(d.offers)) parts.push(comparedLine(d));
  if (m) {
    const sandbox = m.sandbox ?? m.environment === 'test';
    // Family S without dates prices a default stay: say which (issue 22, item 13).
    if (m.default_dates) parts.push(`prices for ${m.default_dates.check_in} to ${m.default_dates.check_out} (default dates; set --check-in/--check-out)`);
    parts.push(`${m.creditsCharged ?? m.credits_charged ?? 0} credits charged${sandbox ? ' (sandbox)' : ''}`, m.cached ? 'cached' : 'not cached');
    const flag = paginates === 'token' ? '--next-page-token' : '--cursor';
    if (paginates && m.pagination) next = m.pagination.hasMore ? `${flag} ${m.pagination.nextCursor}` : null;
    else if (paginates && 'next_page_token' in m) next = m.next_page_token ? `--next-page-token ${m.next_page_token}` : null;
    if (next !== undefined) parts.push(next === null ? 'last page' : 'more pages (--all for every one); the next:');
  }
  if (parts.length) io().stderr.write(`${c.dim(parts.join(' · '))}\n`);
  // The token on a line of its own, never cut or wrapped by us: a terminal's triple-click (or a
  // shell's copy of the line) takes it whole, even where the window soft-wraps it.
  if (next) io().stderr.write(`${next}\n`);
  // Partial legs and warnings are printed for every format by notices.ts.
}
