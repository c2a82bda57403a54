// `stays webhooks listen`: a receiver on 127.0.0.1 that registers a webhook pointing at itself
// (through the API, in-process or remote), verifies each delivery's signature, prints each event
// (a line on a terminal; one JSON line per event when piped or with --json), optionally forwards
// the raw body and its headers, and deletes its webhook on exit: Ctrl-C exits 130, SIGTERM 0,
// SIGHUP (the terminal closed) 129.
// It runs its own signal handling (not execute()'s), since the webhook must be deleted first.
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { operations } from '../src/client/operations.js';
import type { CreatedWebhook, Webhook } from '../src/core/schemas/webhooks.js';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, verifyWebhook } from '../src/webhooks/sign.js';
import { type Ctx, createContext } from './_lib/runtime/context.js';
import { UsageError, reportError } from './_lib/runtime/errors.js';
import { EXIT } from './_lib/runtime/io.js';
import type { GlobalOpts } from './_lib/flags/options.js';
import { chalkAt, makeTerm } from './_lib/runtime/term.js';

export interface ListenOpts extends GlobalOpts {
  port?: string;
  forwardTo?: string;
  events?: string;
}

const ALL_EVENTS = ['job.queued', 'job.running', 'job.succeeded', 'job.failed', 'stay.cached', 'watch.triggered'];
const MAX_BODY = 1024 * 1024;
const FORWARD_TIMEOUT_MS = 10_000;

function parsePort(v: string | undefined): number {
  if (v === undefined) return 0;
  if (!/^\d{1,5}$/.test(v) || Number(v) > 65_535) throw new UsageError(`--port must be a port number, 0-65535 (got ${JSON.stringify(v)}).`, 'port');
  return Number(v);
}

function parseForward(v: string | undefined): URL | null {
  if (v === undefined) return null;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new UsageError(`--forward-to must be an http(s) URL, e.g. http://localhost:3000/hooks (got ${JSON.stringify(v)}).`, 'forward-to');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`--forward-to must be an http(s) URL (got ${JSON.stringify(v)}).`, 'forward-to');
  return u;
}

function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        resolve(null);
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Whether a line has room for the event id (32 characters) beside the job id, status and
 * operation: not on an 80-column terminal, where it would wrap every line. --json keeps every id.
 */
const wide = () => !process.stdout.isTTY || (process.stdout.columns ?? 80) >= 110;

/** What an event is about, for the one-line view: the job, the listing, else nothing. */
function subject(data: Record<string, unknown> | undefined): string {
  if (!data) return '';
  const parts: string[] = [];
  for (const k of ['jobId', 'job_id', 'status', 'operation', 'platform', 'id', 'listingId']) {
    const v = data[k];
    if (typeof v === 'string' || typeof v === 'number') parts.push(String(v));
  }
  const err = data.error as { code?: string } | undefined;
  if (err?.code) parts.push(err.code);
  return parts.join(' ');
}

/** What a listen names its webhook: its process and machine, so a later listen can tell one left behind. */
const DESCRIPTION = (pid: number) => `stays webhooks listen (pid ${pid} on ${hostname()})`;
const LISTEN_DESCRIPTION = /^stays webhooks listen \(pid (\d+)(?: on (.+))?\)$/;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Webhooks a listen on this machine registered and did not delete (it was killed: SIGKILL, a
 * crash, the machine rebooted): active, pointing at 127.0.0.1, named for a process of this host
 * that no longer runs. Deleted before this listen registers its own. One of another machine (a
 * shared server) is never touched: its pid means nothing here.
 */
async function sweepStale(ctx: Ctx): Promise<void> {
  let hooks: Webhook[];
  try {
    hooks = (await ctx.client.run<Webhook[]>(operations.webhooks(), { timeoutMs: 5_000 })).data;
  } catch {
    return; // Registering will report what is wrong.
  }
  for (const w of hooks) {
    const m = LISTEN_DESCRIPTION.exec(w.description ?? '');
    if (!m || !w.active || !w.url.startsWith('http://127.0.0.1:')) continue;
    const pid = Number(m[1]);
    // Without a host (older listens), only in-process: the store is then this machine's.
    const here = m[2] === undefined ? ctx.inProcess !== null : m[2] === hostname();
    if (!here || pid === process.pid || alive(pid)) continue;
    try {
      await ctx.client.run(operations.webhookDelete(w.id), { timeoutMs: 5_000 });
      process.stderr.write(`stays: deleted webhook ${w.id}, left by a stays webhooks listen that is no longer running (pid ${pid})\n`);
    } catch {
      // Not worth failing this listen for.
    }
  }
}

export async function listen(opts: ListenOpts): Promise<void> {
  let ctx: Ctx | undefined;
  let server: ReturnType<typeof createServer> | undefined;
  let hookId: string | null = null;
  let closing = false;

  const cleanup = async (): Promise<void> => {
    server?.close();
    server?.closeAllConnections();
    if (hookId !== null && ctx) {
      const id = hookId;
      hookId = null;
      try {
        await ctx.client.run(operations.webhookDelete(id), { timeoutMs: 5_000 });
        process.stderr.write(`stays: deleted webhook ${id}\n`);
      } catch (e) {
        process.stderr.write(`stays: could not delete webhook ${id} (${(e as Error).message}); delete it with: stays webhooks delete ${id}\n`);
      }
    }
    await ctx?.close();
  };

  const stop = (code: number) => {
    if (closing) return;
    closing = true;
    if (code === EXIT.interrupted) process.stderr.write('\n');
    const bound = setTimeout(() => {
      if (hookId !== null) process.stderr.write(`stays: gave up deleting webhook ${hookId} after 8 s; delete it with: stays webhooks delete ${hookId}\n`);
      process.exit(code);
    }, 8_000);
    bound.unref();
    void cleanup().finally(() => process.exit(code));
  };
  // The reader went away (`| head -1`, a jq that exited): stop as on SIGTERM, deleting the
  // webhook, instead of the CLI's usual quiet exit on EPIPE, which would leave it registered.
  process.stdout.removeAllListeners('error');
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') stop(EXIT.ok);
  });
  process.on('SIGINT', () => stop(EXIT.interrupted));
  process.on('SIGTERM', () => stop(EXIT.ok));
  // The terminal closed (a tmux window killed, an ssh session dropped): still delete the webhook.
  process.on('SIGHUP', () => stop(EXIT.hangup));

  try {
    const port = parsePort(opts.port);
    const forward = parseForward(opts.forwardTo);
    const events =
      opts.events === undefined
        ? ALL_EVENTS
        : opts.events
            .split(',')
            .map((e) => e.trim())
            .filter(Boolean);
    if (events.length === 0) throw new UsageError('--events needs at least one event, e.g. --events job.succeeded,job.failed', 'events');

    ctx = await createContext(opts);
    const c = ctx;
    const asJson = opts.json !== undefined || c.format === 'json' || c.format === 'jsonl' || !c.term.outTTY;
    const out = await chalkAt(c.term.outColor);
    const err = await chalkAt(c.term.errColor);
    let secret = '';
    const seen = new Set<string>();

    const handle = async (req: IncomingMessage, res: ServerResponse) => {
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain' }).end('stays webhooks listen: POST deliveries here\n');
        return;
      }
      const raw = await readBody(req);
      if (raw === null) {
        res.writeHead(413).end();
        return;
      }
      const header = req.headers[SIGNATURE_HEADER];
      const v = verifyWebhook(raw, Array.isArray(header) ? header[0] : header, secret);
      if (!v.ok) {
        process.stderr.write(`${err.red('rejected')} a delivery: signature ${v.reason}\n`);
        res.writeHead(400, { 'content-type': 'text/plain' }).end(`signature ${v.reason}\n`);
        return;
      }
      let body: { id?: string; event?: string; created_at?: string; data?: Record<string, unknown> };
      try {
        body = JSON.parse(raw.toString('utf8')) as typeof body;
      } catch {
        process.stderr.write(`${err.red('rejected')} a delivery: signed but not JSON\n`);
        res.writeHead(400).end();
        return;
      }
      const eventId = String(req.headers[EVENT_ID_HEADER] ?? body.id ?? '');
      const again = eventId !== '' && seen.has(eventId);
      seen.add(eventId);
      if (asJson) process.stdout.write(`${JSON.stringify(body)}\n`);
      else {
        const time = new Date().toISOString().slice(11, 19);
        const ev = String(body.event ?? '?');
        const tint = ev.endsWith('.failed') ? out.red : ev.endsWith('.succeeded') ? out.green : ev === 'stay.cached' ? out.cyan : out.yellow;
        process.stdout.write(`${out.dim(time)}  ${tint(ev)}${' '.repeat(Math.max(0, 13 - ev.length))}  ${wide() ? `${eventId}  ` : ''}${subject(body.data)}${again ? out.dim('  (again)') : ''}\n`);
      }
      if (!forward) {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
        return;
      }
      // The receiver's answer is passed back, so the service retries what it refused.
      const headers: Record<string, string> = { 'content-type': req.headers['content-type'] ?? 'application/json' };
      for (const h of [SIGNATURE_HEADER, EVENT_ID_HEADER, 'user-agent']) {
        const x = req.headers[h];
        if (typeof x === 'string') headers[h] = x;
      }
      try {
        const r = await fetch(forward, { method: 'POST', headers, body: new Uint8Array(raw), signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS) });
        const text = await r.text();
        process.stderr.write(`${err.dim(`  → ${forward.href} ${r.status}`)}\n`);
        res.writeHead(r.status, { 'content-type': 'text/plain' }).end(text.slice(0, 500));
      } catch (e) {
        process.stderr.write(`${err.red(`  → ${forward.href} failed: ${(e as Error).message}`)}\n`);
        res.writeHead(502, { 'content-type': 'text/plain' }).end('forward failed\n');
      }
    };

    server = createServer((req, res) => {
      handle(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
    const srv = server;
    await new Promise<void>((resolve, reject) => {
      srv.once('error', (e: NodeJS.ErrnoException) =>
        reject(e.code === 'EADDRINUSE' ? new UsageError(`--port ${port}: 127.0.0.1:${port} is already in use; pick another port or leave --port out.`, 'port') : e),
      );
      srv.listen(port, '127.0.0.1', () => resolve());
    });
    const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/`;
    await sweepStale(c);
    const created = await c.client.run<CreatedWebhook>(operations.webhookCreate({ url, events, description: DESCRIPTION(process.pid) }));
    secret = created.data.signing_secret;
    hookId = created.data.id;
    if (closing) return;
    process.stderr.write(
      `Listening on ${url} for ${created.data.events.join(', ')} (webhook ${hookId}).\n` +
        `Signing secret ${secret} (for --forward-to receivers; it ends with this webhook).\n` +
        (forward ? `Forwarding verified deliveries to ${forward.href}.\n` : '') +
        'Ctrl-C to stop; the webhook is deleted on exit.\n',
    );
    if (!asJson && c.term.outTTY) process.stdout.write(`${out.bold(`TIME      EVENT          ${wide() ? 'EVENT ID                        ' : ''}SUBJECT`)}\n`);
    // Runs until a signal: the server keeps the process alive.
  } catch (e) {
    const code = await reportError(e, ctx?.term ?? makeTerm(opts), ctx?.jsonErrors ?? opts.json !== undefined);
    closing = true;
    await cleanup();
    process.exit(code);
  }
}
