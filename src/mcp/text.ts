// Pieces of the text summaries: money, ratings, credits, per-platform counts, pages, warnings.
// A summary says what came back and what it cost in a few lines, with the ids an agent needs
// for the next call; the full answer is the structured content.
import type { Meta } from '../core/schemas/resources.js';
import { addDays } from '../core/clock.js';

const num = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2).replace(/\.?0+$/, ''));

export const money = (n: number | null | undefined, currency: string) => (n === null || n === undefined ? 'n/a' : `${n.toLocaleString('en-US', { maximumFractionDigits: 2 })} ${currency}`);

export const rating = (r: number | null | undefined, scale: number | null | undefined) => (r === null || r === undefined ? null : scale ? `${num(r)}/${scale}` : num(r));

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function clip(s: string, max: number): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** "37 credits charged", or why nothing was. */
export function creditsText(meta: Partial<Meta> | undefined): string {
  if (!meta) return '';
  const c = meta.creditsCharged ?? 0;
  if (meta.sandbox || meta.environment === 'test') return 'no credits charged (sandbox key)';
  return `${plural(c, 'credit')} charged${meta.cached && c === 0 ? ' (cached)' : ''}`;
}

/** "airbnb 10, booking 10, vrbo failed (all_actors_failed), google skipped (requires_dates)". */
export function platformsText(meta: Partial<Meta> | undefined): string {
  return (meta?.platformResults ?? [])
    .map((r) => {
      if (r.status === 'ok') return `${r.platform} ${r.count}${r.cached ? ' cached' : ''}`;
      if (r.status === 'skipped') return `${r.platform} skipped${r.reason ? ` (${r.reason})` : ''}`;
      return `${r.platform} failed${r.error ? ` (${r.error.code})` : ''}`;
    })
    .join(', ');
}

/** The lines every summary ends with: partial results, warnings, the next page. */
export function tailLines(meta: Partial<Meta> | undefined, tool: string, paged = false): string[] {
  const lines: string[] = [];
  if (!meta) return lines;
  if (meta.partial) lines.push('Partial: some platforms failed (see meta.platformResults); the others are complete.');
  for (const w of meta.warnings ?? []) lines.push(`Warning (${w.code}): ${w.message}`);
  const p = meta.pagination;
  if (p?.hasMore && p.nextCursor) lines.push(`More results: call ${tool} again with the same arguments and cursor "${p.nextCursor}".`);
  else if (paged && p === null) lines.push(`Pages: this answer ran as a job and carries no cursor; call ${tool} again with the same arguments (now cached) to get the next-page cursor.`);
  return lines;
}

/** Runs of consecutive dates as "2027-03-01..2027-03-04, 2027-03-09". */
export function dateRuns(dates: string[]): string {
  const runs: [string, string][] = [];
  const next = (d: string) => addDays(d, 1);
  for (const d of dates) {
    const last = runs[runs.length - 1];
    if (last && next(last[1]) === d) last[1] = d;
    else runs.push([d, d]);
  }
  return runs.map(([a, b]) => (a === b ? a : `${a}..${b}`)).join(', ');
}
