// `stays jobs list`: the key's jobs, newest first (GET /v1/jobs). JSON output (--json, -o json,
// -o jsonl, --json FIELDS, --jq) goes through runCall as every command's does; a table, tsv and
// csv have the columns a person scanning jobs wants: id (never cut), status, operation, age, credits.
import type { ApiCall } from '../src/client/http.js';
import type { Envelope } from '../src/client/types.js';
import type { JobSummary } from '../src/core/schemas/jobs.js';
import type { Ctx } from './_lib/runtime/context.js';
import { chalkAt } from './_lib/runtime/term.js';
import { io } from './_lib/runtime/io.js';

type Cell = string | number | null;

/** How long ago, in the unit a person reads at a glance: 42 s, 3 min, 5 h, 2 d. */
function age(iso: string, now = Date.now()): string {
  const s = Math.max(0, Math.floor((now - Date.parse(iso)) / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 48 * 3600) return `${Math.floor(s / 3600)} h`;
  return `${Math.floor(s / 86_400)} d`;
}

const finished = (j: JobSummary) => j.status === 'completed' || j.status === 'failed';

/**
 * Table columns. On a narrow terminal the lowest `drop` goes first (ERROR, then OPERATION, then
 * AGE, then CREDITS); the id and the status always stay, and the id is never cut.
 */
const TABLE: { header: string; value: (j: JobSummary) => Cell; right?: boolean; drop?: number }[] = [
  { header: 'JOB ID', value: (j) => j.jobId },
  { header: 'STATUS', value: (j) => j.status },
  { header: 'OPERATION', value: (j) => j.operation, drop: 2 },
  { header: 'AGE', value: (j) => age(j.createdAt), right: true, drop: 3 },
  // Unknown until the job ends (what it may charge is held, not spent).
  { header: 'CREDITS', value: (j) => (finished(j) ? j.creditsCharged : '-'), right: true, drop: 4 },
  { header: 'ERROR', value: (j) => j.error?.code ?? null, drop: 1 },
];

/** tsv and csv are data: ISO times, numbers as numbers, an unknown value an empty cell; csv headers snake_case. */
const LINES: { key: string; value: (j: JobSummary) => Cell }[] = [
  { key: 'job_id', value: (j) => j.jobId },
  { key: 'status', value: (j) => j.status },
  { key: 'operation', value: (j) => j.operation },
  { key: 'platforms', value: (j) => j.platforms.join(',') },
  { key: 'created_at', value: (j) => j.createdAt },
  { key: 'finished_at', value: (j) => j.finishedAt },
  { key: 'credits_charged', value: (j) => (finished(j) ? j.creditsCharged : null) },
  { key: 'error_code', value: (j) => j.error?.code ?? null },
];

const text = (v: Cell) => (v === null ? '' : String(v).replace(/[\t\r\n]+/g, ' '));
const csvCell = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

function lines(jobs: JobSummary[], format: 'tsv' | 'csv', header: boolean): string {
  const out: string[] = [];
  if (format === 'csv' && header) out.push(LINES.map((c) => c.key).join(','));
  for (const j of jobs) {
    const cells = LINES.map((c) => text(c.value(j)));
    out.push(format === 'csv' ? cells.map(csvCell).join(',') : cells.join('\t'));
  }
  return out.length ? `${out.join('\n')}\n` : '';
}

/** The width a table may take: the terminal's (80 if it says none); piped, COLUMNS if set, else no limit. */
function tableWidth(ctx: Ctx): number {
  if (ctx.term.outTTY) return (io().stdout.columns ?? 0) || 80;
  return Number(ctx.term.env.COLUMNS) || Infinity;
}

/** gh style, as the other lists: upper-case bold header, columns two spaces apart, no box. */
async function table(ctx: Ctx, jobs: JobSummary[]): Promise<string> {
  const c = await chalkAt(ctx.term.outColor);
  let cols = TABLE.map((col) => {
    const cells = jobs.map((j) => text(col.value(j)));
    return { ...col, cells, width: Math.max(col.header.length, ...cells.map((x) => x.length)) };
  }).filter((col) => col.cells.some((x) => x !== ''));
  const max = tableWidth(ctx);
  const total = () => cols.reduce((n, col) => n + col.width, 0) + 2 * (cols.length - 1);
  while (total() > max && cols.some((col) => col.drop !== undefined)) {
    const least = cols.filter((col) => col.drop !== undefined).reduce((x, y) => (y.drop! < x.drop! ? y : x));
    cols = cols.filter((col) => col !== least);
  }
  const tint: Record<string, (s: string) => string> = { completed: c.green, failed: c.red, running: c.yellow, pending: c.yellow };
  const pad = (s: string, col: (typeof cols)[number], style: (s: string) => string = String) => {
    const space = ' '.repeat(col.width - s.length);
    return col.right ? space + style(s) : style(s) + space;
  };
  const line = (cell: (col: (typeof cols)[number]) => string) => cols.map(cell).join('  ').trimEnd();
  const lines = [line((col) => pad(col.header, col, c.bold))];
  jobs.forEach((_, i) => lines.push(line((col) => pad(col.cells[i]!, col, col.header === 'STATUS' ? (tint[col.cells[i]!] ?? String) : String))));
  return `${lines.join('\n')}\n`;
}

function sayEmpty(ctx: Ctx): void {
  const why = ctx.keyEnv === 'sandbox' ? ' Sandbox calls answer at once and never start one; a live call that has to fetch from a platform does (202).' : '';
  io().stderr.write(`No jobs in the last 24 hours.${why}\n`);
}

/** Lists one page, or every page with --all, in the chosen format. */
export async function listJobs(ctx: Ctx, call: ApiCall, all: boolean): Promise<void> {
  const { runCall } = await import('./_lib/runtime/run.js');
  if (ctx.fields !== null || ctx.jq !== null || ctx.format === 'json' || ctx.format === 'jsonl') return runCall(ctx, call, null, { paginates: true, all });

  const format = ctx.format as 'table' | 'tsv' | 'csv';
  const jobs: JobSummary[] = [];
  let last: Envelope<JobSummary[]> | undefined;
  let stopped: unknown = null;
  try {
    const pages = all
      ? ctx.client.pages<JobSummary>(call)
      : (async function* () {
          yield await ctx.client.run<JobSummary[]>(call);
        })();
    for await (const page of pages) {
      // tsv and csv stream page by page; a table needs every row to size its columns.
      if (format !== 'table') io().stdout.write(lines(page.data, format, last === undefined));
      else jobs.push(...page.data);
      last = page;
    }
  } catch (e) {
    if (last === undefined) throw e;
    stopped = e;
  }
  ctx.ui.stop();
  if (format === 'table') {
    if (jobs.length === 0) sayEmpty(ctx);
    else io().stdout.write(await table(ctx, jobs));
    const more = last?.meta.pagination;
    if (stopped === null && more?.hasMore && more.nextCursor) {
      const c = await chalkAt(ctx.term.errColor);
      // The token on a line of its own, as under the other tables (output.ts printFooter).
      io().stderr.write(`${c.dim('more jobs (--all for every one); the next:')}\n--cursor ${more.nextCursor}\n`);
    }
  }
  if (stopped !== null) throw stopped;
}
