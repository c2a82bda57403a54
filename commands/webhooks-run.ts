// What the `stays webhooks` subcommands do once parsed. JSON output (--json, -o json, -o jsonl,
// --json FIELDS, --jq) prints the API's `{ data, request_id }` through `show`, as every command
// does; a table, tsv and csv have the columns a person scanning webhooks wants.
import { readFileSync } from 'node:fs';
import type { ApiCall } from '../src/client/http.js';
import { operations } from '../src/client/operations.js';
import type { CreatedWebhook, Delivery, Webhook } from '../src/core/schemas/webhooks.js';
import { StaysApiError } from '../src/client/errors.js';
import { type VerifyResult, verifyWebhook } from '../src/webhooks/sign.js';
import type { Ctx } from './_lib/runtime/context.js';
import { UsageError } from './_lib/runtime/errors.js';
import { EXIT, io } from './_lib/runtime/io.js';
import { show } from './_lib/runtime/run.js';
import { chalkAt } from './_lib/runtime/term.js';

type Cell = string | number | boolean | null;
interface Col<T> {
  key: string;
  header: string;
  value: (r: T) => Cell;
  /** Table only: dropped first (lowest) when the terminal is narrow; undefined stays. */
  drop?: number;
  /** Table only: cut to this many characters. */
  max?: number;
}

const jsonish = (ctx: Ctx) => ctx.fields !== null || ctx.jq !== null || ctx.format === 'json' || ctx.format === 'jsonl';
const text = (v: Cell) => (v === null ? '' : typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v).replace(/[\t\r\n]+/g, ' '));
const dataText = (v: Cell) => (v === null ? '' : String(v).replace(/[\t\r\n]+/g, ' '));
const csvCell = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
const cutTo = (s: string, n: number | undefined) => (n !== undefined && s.length > n ? `${s.slice(0, n - 1)}…` : s);

function lines<T>(cols: Col<T>[], rows: T[], format: 'tsv' | 'csv'): string {
  const out: string[] = [];
  if (format === 'csv') out.push(cols.map((c) => c.key).join(','));
  for (const r of rows) {
    const cells = cols.map((c) => dataText(c.value(r)));
    out.push(format === 'csv' ? cells.map(csvCell).join(',') : cells.join('\t'));
  }
  return out.length ? `${out.join('\n')}\n` : '';
}

function width(ctx: Ctx): number {
  if (ctx.term.outTTY) return (io().stdout.columns ?? 0) || 80;
  return Number(ctx.term.env.COLUMNS) || Infinity;
}

/** gh style, as the other lists: upper-case bold header, columns two spaces apart, no box. */
async function table<T>(ctx: Ctx, all: Col<T>[], rows: T[]): Promise<string> {
  const c = await chalkAt(ctx.term.outColor);
  let cols = all.map((col) => {
    const cells = rows.map((r) => cutTo(text(col.value(r)), col.max));
    return { ...col, cells, width: Math.max(col.header.length, ...cells.map((x) => x.length)) };
  });
  const total = () => cols.reduce((n, col) => n + col.width, 0) + 2 * (cols.length - 1);
  while (total() > width(ctx) && cols.some((col) => col.drop !== undefined)) {
    const least = cols.filter((col) => col.drop !== undefined).reduce((x, y) => (y.drop! < x.drop! ? y : x));
    cols = cols.filter((col) => col !== least);
  }
  const line = (cell: (col: (typeof cols)[number]) => string) => cols.map(cell).join('  ').trimEnd();
  const out = [line((col) => c.bold(col.header) + ' '.repeat(col.width - col.header.length))];
  rows.forEach((_, i) => out.push(line((col) => col.cells[i]! + ' '.repeat(col.width - col.cells[i]!.length))));
  return `${out.join('\n')}\n`;
}

const HOOK_COLS: Col<Webhook>[] = [
  { key: 'id', header: 'ID', value: (w) => w.id },
  { key: 'url', header: 'URL', value: (w) => w.url, max: 60 },
  { key: 'events', header: 'EVENTS', value: (w) => w.events.join(','), drop: 2 },
  { key: 'active', header: 'ACTIVE', value: (w) => w.active },
  { key: 'description', header: 'DESCRIPTION', value: (w) => w.description, drop: 1, max: 40 },
  { key: 'created_at', header: 'CREATED', value: (w) => w.created_at, drop: 3 },
  // Issue 21, last so that tsv/csv columns before them keep their places.
  { key: 'status', header: 'STATUS', value: (w) => w.status, drop: 4 },
  { key: 'consecutive_failures', header: 'FAILURES', value: (w) => w.consecutive_failures, drop: 0 },
  { key: 'disabled_reason', header: 'DISABLED BECAUSE', value: (w) => w.disabled_reason, drop: -1, max: 60 },
];

const DELIVERY_COLS: Col<Delivery>[] = [
  { key: 'attempted_at', header: 'ATTEMPTED', value: (d) => d.attempted_at },
  { key: 'event', header: 'EVENT', value: (d) => d.event },
  { key: 'event_id', header: 'EVENT ID', value: (d) => d.event_id, drop: 2 },
  { key: 'attempt', header: 'ATTEMPT', value: (d) => d.attempt },
  { key: 'status_code', header: 'STATUS', value: (d) => d.status_code ?? '-' },
  { key: 'delivered', header: 'DELIVERED', value: (d) => d.delivered },
  { key: 'response_preview', header: 'RESPONSE', value: (d) => d.response_preview, drop: 1, max: 40 },
];

/** One resource as `label  value` lines (tables), or a one-row tsv/csv. */
async function fields<T>(ctx: Ctx, cols: Col<T>[], row: T): Promise<void> {
  if (ctx.format === 'tsv' || ctx.format === 'csv') return void io().stdout.write(lines(cols, [row], ctx.format));
  const c = await chalkAt(ctx.term.outColor);
  const pad = Math.max(...cols.map((col) => col.header.length));
  const out = cols.map((col) => `${c.bold(col.header.toLowerCase().padEnd(pad))}  ${text(col.value(row)) || '-'}`);
  io().stdout.write(`${out.join('\n')}\n`);
}

async function list<T>(ctx: Ctx, call: ApiCall, cols: Col<T>[], empty: string, keep?: (row: T) => boolean): Promise<void> {
  const got = await ctx.client.run<T[]>(call);
  // A filter the API does not have (webhooks list --active) applies to every format, JSON too.
  const env = keep ? { ...got, data: got.data.filter(keep) } : got;
  if (jsonish(ctx)) return show(ctx, env, null);
  ctx.ui.stop();
  if (ctx.format === 'table') {
    if (env.data.length === 0) io().stderr.write(`${empty}\n`);
    else io().stdout.write(await table(ctx, cols, env.data));
  } else io().stdout.write(lines(cols, env.data, ctx.format as 'tsv' | 'csv'));
}

export async function createHook(ctx: Ctx, o: { url: string; events: string; description?: string }): Promise<void> {
  const events = o.events
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const env = await ctx.client.run<CreatedWebhook>(operations.webhookCreate({ url: o.url, events, ...(o.description === undefined ? {} : { description: o.description }) }));
  if (jsonish(ctx)) return show(ctx, env, null);
  ctx.ui.stop();
  const secret: Col<CreatedWebhook> = { key: 'signing_secret', header: 'SIGNING SECRET', value: (w) => w.signing_secret };
  const cols = [...(HOOK_COLS as Col<CreatedWebhook>[]), secret];
  if (ctx.format !== 'table') {
    await fields(ctx, cols, env.data);
  } else {
    await fields(ctx, HOOK_COLS as Col<CreatedWebhook>[], env.data);
    const c = await chalkAt(ctx.term.outColor);
    io().stdout.write(`\n${c.bold('signing secret')}  ${c.yellow.bold(env.data.signing_secret)}\n`);
  }
  const e = await chalkAt(ctx.term.errColor);
  io().stderr.write(`${e.yellow('!')} Save the signing secret now: it will not be shown again. To replace it, delete this webhook and create another.\n`);
}

export const listHooks = (ctx: Ctx, activeOnly = false) =>
  list(
    ctx,
    operations.webhooks(),
    HOOK_COLS,
    `No ${activeOnly ? 'active ' : ''}webhooks. Create one: stays webhooks create --url URL --events job.succeeded`,
    activeOnly ? (w: Webhook) => w.active : undefined,
  );

export async function getHook(ctx: Ctx, id: string): Promise<void> {
  const env = await ctx.client.run<Webhook>(operations.webhook(id));
  if (jsonish(ctx)) return show(ctx, env, null);
  ctx.ui.stop();
  await fields(ctx, HOOK_COLS, env.data);
}

const REVOKED_COLS: Col<{ id: string }>[] = [
  { key: 'id', header: 'ID', value: (d) => d.id },
  { key: 'revoked', header: 'REVOKED', value: () => true },
];

export async function deleteHook(ctx: Ctx, id: string): Promise<void> {
  // The API answers a second delete as the first (idempotent): read it first to say which it was.
  const before = await ctx.client.run<Webhook>(operations.webhook(id));
  if (before.data.status === 'deleted') {
    ctx.ui.stop();
    io().stderr.write(`Webhook ${before.data.id} was already deleted; nothing changed.\n`);
    if (jsonish(ctx)) return show(ctx, { data: { id: before.data.id, revoked: true, already_deleted: true }, request_id: (before as { request_id?: string }).request_id } as never, null);
    if (ctx.format !== 'table') io().stdout.write(lines(REVOKED_COLS, [before.data], ctx.format as 'tsv' | 'csv'));
    return;
  }
  const env = await ctx.client.run<{ id: string; revoked: true }>(operations.webhookDelete(id));
  if (jsonish(ctx)) return show(ctx, env, null);
  ctx.ui.stop();
  if (ctx.format === 'table') io().stdout.write(`Deleted webhook ${env.data.id}: no more deliveries; its record stays (active no).\n`);
  else io().stdout.write(lines(REVOKED_COLS, [env.data], ctx.format as 'tsv' | 'csv'));
}

export const listDeliveries = (ctx: Ctx, id: string) => list(ctx, operations.webhookDeliveries(id), DELIVERY_COLS, 'No delivery attempts yet.');

const REASONS: Record<Exclude<VerifyResult, { ok: true }>['reason'], string> = {
  malformed: 'the header is not t=<unix>,v1=<64 hex digits>',
  stale: 'the signature is older than the tolerance (a replay, or a clock far behind)',
  future: 'the signature is dated in the future beyond the tolerance (check the clocks)',
  mismatch: 'the signature does not match this body and secret (another secret, or the body changed)',
};

/** `stays webhooks verify`: exit 0 valid, 1 with the reason otherwise, 2 for a usage mistake. */
export async function verifyCmd(o: { secretFile: string; header: string; tolerance?: string }): Promise<void> {
  const { reportError } = await import('./_lib/runtime/errors.js');
  const { makeTerm } = await import('./_lib/runtime/term.js');
  const term = makeTerm({});
  try {
    let secret: string;
    try {
      secret = readFileSync(o.secretFile, 'utf8').trim();
    } catch (e) {
      throw new UsageError(`--secret-file ${o.secretFile} cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.`, 'secret-file');
    }
    if (secret === '') throw new UsageError(`--secret-file ${o.secretFile} is empty; it must hold the signing secret (whsec_…).`, 'secret-file');
    if (o.tolerance !== undefined && !/^\d{1,9}$/.test(o.tolerance)) throw new UsageError(`--tolerance must be a whole number of seconds (got ${JSON.stringify(o.tolerance)}).`, 'tolerance');
    if (term.inTTY) throw new UsageError('verify reads the raw delivery body on stdin: stays webhooks verify --secret-file F --header H < body.json', null);
    const chunks: Buffer[] = [];
    for await (const chunk of io().stdin) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const r = verifyWebhook(body, o.header, secret, o.tolerance === undefined ? {} : { toleranceSeconds: Number(o.tolerance) });
    if (r.ok) {
      io().stdout.write(`valid: signed at ${new Date(r.timestamp * 1000).toISOString()}\n`);
      return;
    }
    const c = await chalkAt(term.errColor);
    io().stderr.write(`${c.red('invalid:')} ${r.reason}: ${REASONS[r.reason]}\n`);
    io().exitCode = EXIT.internal;
  } catch (e) {
    io().exitCode = await reportError(e, term, false);
  }
}

interface Triggered {
  event: string;
  job_id: string | null;
  poll_url: string | null;
  events: string[];
  webhooks: number;
}

const TRIGGERED_COLS: Col<Triggered>[] = [
  { key: 'event', header: 'EVENT', value: (x) => x.event },
  { key: 'job_id', header: 'JOB', value: (x) => x.job_id },
  { key: 'events', header: 'EVENTS', value: (x) => x.events.join(',') },
  { key: 'webhooks', header: 'WEBHOOKS', value: (x) => x.webhooks },
];

const RESENT_COLS: Col<{ id: string; webhook_id: string; status: string }>[] = [
  { key: 'id', header: 'ID', value: (d) => d.id },
  { key: 'webhook_id', header: 'WEBHOOK', value: (d) => d.webhook_id },
  { key: 'status', header: 'STATUS', value: (d) => d.status },
];

/** `stays webhooks trigger EVENT`: a sandbox job and its events (or a stay.cached), free. */
export async function triggerHook(ctx: Ctx, event: string): Promise<void> {
  const env = await ctx.client.run<Triggered>(operations.webhookTrigger(event));
  if (jsonish(ctx)) return show(ctx, env, null);
  ctx.ui.stop();
  const t = env.data;
  if (ctx.format !== 'table') {
    io().stdout.write(lines(TRIGGERED_COLS, [t], ctx.format as 'tsv' | 'csv'));
    return;
  }
  io().stdout.write(`Triggered ${t.event}${t.job_id ? ` with sandbox job ${t.job_id}` : ''}: queued ${t.events.join(', ')} for ${t.webhooks} webhook${t.webhooks === 1 ? '' : 's'}.\n`);
  if (t.webhooks === 0) io().stderr.write('No active sandbox webhook is subscribed to these events: start a receiver with stays webhooks listen, or create one with a stay_test_ key.\n');
  else if (t.job_id) io().stderr.write(`See the job: stays jobs get ${t.job_id}\n`);
}

/** `stays webhooks resend EVENT_ID [--webhook ID]`: queues one delivery again (found in the webhooks' attempt logs when --webhook is not given). */
export async function resendHook(ctx: Ctx, deliveryId: string, webhookId?: string): Promise<void> {
  let hook = webhookId;
  if (hook === undefined) {
    const hooks = (await ctx.client.run<Webhook[]>(operations.webhooks())).data.filter((w) => w.active);
    for (const w of hooks) {
      const log = (await ctx.client.run<Delivery[]>(operations.webhookDeliveries(w.id))).data;
      if (log.some((d) => d.event_id === deliveryId)) {
        hook = w.id;
        break;
      }
    }
    if (hook === undefined) {
      throw new StaysApiError(
        {
          type: 'not_found',
          code: 'delivery_not_found',
          message: `No active webhook of this key has a delivery ${deliveryId} in its attempt log (stays webhooks deliveries ID lists them); pass --webhook ID if it was never attempted.`,
        },
        404,
        null,
      );
    }
  }
  const env = await ctx.client.run<{ id: string; webhook_id: string; status: string }>(operations.webhookResend(hook, deliveryId));
  if (jsonish(ctx)) return show(ctx, env, null);
  ctx.ui.stop();
  if (ctx.format === 'table') io().stdout.write(`Queued delivery ${env.data.id} of webhook ${env.data.webhook_id} again: 3 fresh attempts, the same event id.\n`);
  else io().stdout.write(lines(RESENT_COLS, [env.data], ctx.format as 'tsv' | 'csv'));
}
