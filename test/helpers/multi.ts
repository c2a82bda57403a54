// Several `stays serve` instances on one PostgreSQL database (issue 14): each a child process of
// the built CLI on loopback, sharing STAYS_DATABASE_URL and STAYS_SECRET_KEY; accounts and keys
// made with `stays admin … --database-url`. Every instance started here is stopped by stopAll
// (SIGTERM, then SIGKILL), which a test file calls in afterAll even when a test failed.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { BIN, runCli } from './stays.js';

const SECRET_KEY = randomBytes(32).toString('hex');

export interface Instance {
  name: string;
  url: string;
  child: ChildProcess;
  /** What it wrote to stderr so far. */
  stderr(): string;
  /** What it wrote to stdout so far (its log, at STAYS_LOG_LEVEL, warn unless set). */
  stdout(): string;
  req(path: string, init?: RequestInit & { key?: string }): Promise<Response>;
  /** SIGTERM, then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

const started = new Set<Instance>();

/** Starts `stays serve --port 0` on the database; resolves with its URL once it listens. */
export async function startInstance(name: string, databaseUrl: string, env: NodeJS.ProcessEnv = {}): Promise<Instance> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--database-url', databaseUrl], {
    env: { ...process.env, STAYS_LOG_LEVEL: 'warn', STAYS_SECRET_KEY: SECRET_KEY, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  let out = '';
  child.stdout!.on('data', (d: Buffer) => {
    if (out.length < 4_000_000) out += d.toString();
  });
  const inst: Instance = {
    name,
    url: '',
    child,
    stderr: () => err,
    stdout: () => out,
    req(path, init = {}) {
      const { key, headers, ...rest } = init;
      const h = new Headers(headers);
      if (key !== undefined) h.set('authorization', `Bearer ${key}`);
      return fetch(inst.url + path, { ...rest, headers: h });
    },
    async stop(graceMs = 5000) {
      started.delete(inst);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(t);
    },
  };
  started.add(inst);
  inst.url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start: ${err}`)), 30_000);
    child.stderr!.on('data', (d: Buffer) => {
      if (err.length < 1_000_000) err += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m && !inst.url) {
        clearTimeout(timer);
        resolveUrl(m[1]!);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? signal}): ${err}`));
    });
  });
  return inst;
}

/** Stops every instance still running (SIGTERM, then SIGKILL). */
export async function stopAll(): Promise<void> {
  await Promise.all([...started].map((i) => i.stop()));
}

/** `stays admin …ARGS --database-url URL --json`, parsed. */
export async function admin<T = Record<string, unknown>>(databaseUrl: string, ...args: string[]): Promise<T> {
  const r = await runCli(['admin', ...args, '--database-url', databaseUrl, '--json']);
  if (r.code !== 0) throw new Error(`stays admin ${args.join(' ')} failed (${r.code}): ${r.stderr}${r.stdout}`);
  return JSON.parse(r.stdout) as T;
}

export interface PgAccount {
  id: string;
  liveKey: string;
  liveKeyId: string;
}

/** A pro account with one live key. */
export async function liveAccount(databaseUrl: string, o: { credits: number; rpm?: number }): Promise<PgAccount> {
  const acct = await admin<{ id: string }>(databaseUrl, 'account', 'create', '--plan', 'pro', '--credits', String(o.credits), '--rpm', String(o.rpm ?? 1_000_000));
  const k = await admin<{ id: string; key: string }>(databaseUrl, 'key', 'create', '--account', acct.id, '--env', 'live');
  return { id: acct.id, liveKey: k.key, liveKeyId: k.id };
}

interface Credits {
  balance: number;
  held: number;
}

export interface AccountShow {
  credits: Credits & { spent: number };
  ledgerRows: number;
  ledger: { id: number; kind: string; amount: number; balanceAfter: number; jobId: string | null }[];
}

/** The account's credits and ledger as `stays admin account show` reports them. */
export const accountShow = (databaseUrl: string, id: string) => admin<AccountShow>(databaseUrl, 'account', 'show', id);

/** One query on the database, on its own connection. */
export async function sql<R extends pg.QueryResultRow = Record<string, unknown>>(databaseUrl: string, text: string, params: unknown[] = []): Promise<R[]> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    return (await c.query<R>(text, params)).rows;
  } finally {
    await c.end();
  }
}

export interface Answer {
  status: number;
  headers: Headers;
  body: {
    data?: { jobId?: string; status?: string; result?: unknown; error?: { code: string; retryable: boolean } };
    meta?: { creditsCharged: number; cached?: boolean; requestId: string };
    error?: { type: string; code: string; creditsCharged?: number; retryable?: boolean };
  };
}

export async function call(i: Instance, key: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const res = await i.req(path, { ...init, key });
  const text = await res.text();
  let body: Answer['body'];
  try {
    body = JSON.parse(text) as Answer['body'];
  } catch {
    throw new Error(`${i.name} ${path}: ${res.status} not JSON: ${text.slice(0, 200)}`);
  }
  return { status: res.status, headers: res.headers, body };
}

/** Polls GET /v1/jobs/:id on `i` until the job is completed or failed. */
export async function pollUntilDone(i: Instance, key: string, jobId: string, timeoutMs = 60_000): Promise<Answer> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const a = await call(i, key, `/v1/jobs/${jobId}`);
    if (a.status !== 200) throw new Error(`${i.name} GET /v1/jobs/${jobId}: ${a.status} ${JSON.stringify(a.body)}`);
    const st = a.body.data?.status;
    if (st === 'completed' || st === 'failed') return a;
    if (Date.now() > until) throw new Error(`job ${jobId} still ${st} on ${i.name} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** today + n days, UTC, YYYY-MM-DD. */
export const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

/** The log lines at level error or fatal (pino: 50, 60) an instance wrote so far. */
export const errorLogs = (i: Instance) =>
  i
    .stdout()
    .split('\n')
    .filter((l) => /"level":(50|60)\b/.test(l));
