// How `stays history …` runs (history.ts defines the commands): a read through runCall with the
// history tables' extras (the listings timeline, the summary lines), a calendar walked page by page
// (its data is an object, changes and the latest state), a chart of every page, and the export,
// which writes each page of observations as it arrives and never holds the store in memory.
import type { ApiCall } from '../src/client/http.js';
import type { Envelope } from '../src/client/types.js';
import { nextPageOf } from '../src/client/meta.js';
import type { GlobalOpts } from './_lib/flags/options.js';
import { type Point, lineChart, unicodeFor } from './_lib/output/chart.js';
import { DATA_COLUMNS, type HistoryKind, type Row } from './_lib/output/columns.js';
import { money } from './_lib/output/numbers.js';
import { jsonLines, rowLines } from './_lib/output/print.js';
import { kindView } from './_lib/output/view.js';
import { availablePoints, calendarSummary, pricePoints, priceSummary, withPresence } from './_lib/output/view-history.js';
import type { Ctx } from './_lib/runtime/context.js';
import { UsageError } from './_lib/runtime/errors.js';
import { io } from './_lib/runtime/io.js';
import { type TableExtras, runCall, show } from './_lib/runtime/run.js';

type Read = 'price' | 'calendar' | 'listings';
/** What each read prints: its Kind (columns.ts, view-history.ts). */
const KINDS = { price: 'price_history', calendar: 'calendar_change', listings: 'seen_listing' } as const satisfies Record<Read, HistoryKind>;
type Calendar = { changes: Row[]; latest: Row[] };

/** The width a chart may take: the terminal's on a TTY, else COLUMNS, else 80. */
function chartWidth(ctx: Ctx): number {
  const columns = ctx.term.outTTY ? io().stdout.columns : Number.parseInt(ctx.term.env.COLUMNS ?? '', 10);
  return columns !== undefined && columns > 0 ? columns : 80;
}

/** Every page of a read: its rows (a calendar's changes) and the last page's envelope. */
async function allPages(ctx: Ctx, call: ApiCall): Promise<{ rows: Row[]; last: Envelope<unknown> }> {
  const rows: Row[] = [];
  let cursor: string | null = null;
  for (;;) {
    const page: Envelope<unknown> = await ctx.client.run(cursor === null ? call : { ...call, query: { ...call.query, cursor } });
    const data = page.data as Row[] | Calendar;
    rows.push(...(Array.isArray(data) ? data : data.changes));
    const next = nextPageOf(page.meta);
    if (!next?.hasMore || !next.next) return { rows, last: page };
    cursor = next.next;
  }
}

/** A history read as the flags ask: one page, every page (--all), or a chart of every page (--chart). */
export async function runHistory(ctx: Ctx, call: ApiCall, opts: GlobalOpts & Record<string, unknown>, read: Read): Promise<void> {
  const unicode = unicodeFor(ctx.term);
  if (opts.chart === true) {
    if (ctx.format !== 'table' && ctx.format !== 'tsv') throw new UsageError(`--chart draws text; drop -o ${ctx.format} (or --chart).`, 'chart');
    if (ctx.fields !== null || ctx.jq !== null) throw new UsageError('--chart draws text; drop --json/--jq (or --chart).', 'chart');
    return chart(ctx, call, read, unicode);
  }
  const extras: TableExtras =
    read === 'listings'
      ? { table: (v) => withPresence(v, unicode) }
      : read === 'price'
        ? { summary: (d) => priceSummary(d as Row[], unicode) }
        : { summary: (d) => calendarSummary((d as Calendar).latest, unicode) };
  if (read === 'calendar' && opts.all === true) {
    // The calendar's pages share one latest state: the changes of every page under the last page's meta.
    const { rows, last } = await allPages(ctx, call);
    return show(ctx, { data: { changes: rows, latest: (last.data as Calendar).latest }, meta: last.meta }, KINDS.calendar, { paginates: true, extras, rows: true });
  }
  await runCall(ctx, call, KINDS[read], { paginates: true, all: opts.all === true, extras, rows: read === 'calendar' });
}

async function chart(ctx: Ctx, call: ApiCall, read: Read, unicode: boolean): Promise<void> {
  if (read === 'listings') throw new UsageError('--chart is for history price and history calendar.', 'chart');
  const { rows, last } = await allPages(ctx, call);
  ctx.ui.stop();
  let points: Point[];
  let title: string;
  let label: ((v: number) => string) | undefined;
  let end: number | undefined;
  if (read === 'price') {
    points = pricePoints(rows);
    const currency = typeof rows[0]?.currency === 'string' ? rows[0].currency : null;
    label = (v) => money(v, currency) ?? String(v);
    title = `nightly price${currency ? ` (${currency})` : ''}, ${points.length} value${points.length === 1 ? '' : 's'}`;
    end = rows.length > 0 ? Date.parse(String(rows.at(-1)!.lastSeen)) : undefined;
  } else {
    points = availablePoints(rows);
    const nights = (last.data as Calendar).latest.length;
    title = `nights available of ${nights} observed, ${rows.length} change${rows.length === 1 ? '' : 's'}`;
  }
  if (points.length === 0) {
    io().stderr.write('No results.\n');
    return;
  }
  io().stdout.write(`${title}\n${lineChart(points, { width: chartWidth(ctx), unicode, label, end })}`);
}

/** Writes to stdout and waits while its buffer is full: a slow reader slows the export instead of it piling up in memory. */
async function write(s: string): Promise<void> {
  const out = io().stdout;
  if (!out.write(s)) await new Promise((resolve) => out.once('drain', resolve));
}

const EXPORT_FORMATS = ['jsonl', 'csv', 'tsv', 'parquet'] as const;

/**
 * `stays history export`: every observation since --since, page after page, each written before
 * the next is asked for; a failed page stops the export with its error after what was written.
 * Parquet goes to --out (a file, renamed into place at the end: a failed export leaves none).
 */
export async function exportObservations(ctx: Ctx, opts: GlobalOpts & Record<string, unknown>): Promise<void> {
  if (opts.json !== undefined || opts.jq !== undefined) throw new UsageError('history export streams rows: use -o jsonl (the default) or -o csv, and jq on the lines.', 'json');
  const format = opts.output ?? 'jsonl';
  if (!(EXPORT_FORMATS as readonly string[]).includes(format))
    throw new UsageError(`history export writes -o jsonl, csv, tsv or parquet (got -o ${format}): a table or one JSON document would hold every row at once.`, 'output');
  const out = opts.out as string | undefined;
  if (format === 'parquet' && (out === undefined || out === ''))
    throw new UsageError('-o parquet writes a file, not a stream of lines: give it with --out FILE (e.g. --out observations.parquet; --out - for a pipe).', 'out');
  if (format !== 'parquet' && out !== undefined) throw new UsageError(`--out is for -o parquet; -o ${format} is written to stdout: redirect it (> observations.${format}).`, 'out');
  const [{ ask }, { operations }] = await Promise.all([import('./_lib/runtime/prompt.js'), import('../src/client/operations.js')]);
  const since = await ask(ctx.term, opts.since as string | undefined, { name: '--since', message: 'Since (YYYY-MM-DD)?', usage: 'stays history export --since DATE -o csv|jsonl' });
  const collection = opts.collection as string | undefined;
  const call = operations.historyObservations({ since, limit: opts.limit as string | undefined, ...(collection !== undefined ? { collection } : {}) });
  const count = format === 'parquet' ? await toParquet(ctx, call, out!) : await toLines(ctx, call, format as 'jsonl' | 'csv' | 'tsv');
  if (ctx.term.errTTY) io().stderr.write(`stays: ${count} observation${count === 1 ? '' : 's'} exported${format === 'parquet' && out !== '-' ? ` to ${out}` : ''}\n`);
}

async function toLines(ctx: Ctx, call: ApiCall, format: 'jsonl' | 'csv' | 'tsv'): Promise<number> {
  let first = true;
  let count = 0;
  for await (const page of ctx.client.pages<Row>(call)) {
    ctx.ui.stop();
    const out = format === 'jsonl' ? jsonLines(page.data) : rowLines(kindView('observation', page.data), format, first);
    if (out !== '') {
      await write(out);
      first = false;
    }
    count += page.data.length;
  }
  // No rows: a CSV still says its columns, so a reader (DuckDB, pandas) gets an empty table.
  if (first && format === 'csv') await write(`${DATA_COLUMNS.observation.map((c) => c.key).join(',')}\n`);
  return count;
}

/** The target is opened before the first request, so a path that cannot be written fails first. */
async function toParquet(ctx: Ctx, call: ApiCall, out: string): Promise<number> {
  const { openParquet, observationColumns } = await import('./_lib/output/parquet.js');
  const file = await openParquet(out, observationColumns(), ctx.term.outTTY);
  let count = 0;
  try {
    for await (const page of ctx.client.pages<Row>(call)) {
      ctx.ui.stop();
      await file.add(page.data);
      count += page.data.length;
    }
    await file.close();
  } catch (e) {
    file.abort();
    throw e;
  }
  return count;
}
