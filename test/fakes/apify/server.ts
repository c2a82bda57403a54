// A local fake of the scraping platform's API v2 (shared/research/upstream-actors.md §1, §4), on
// loopback, for contract tests: both /v2/acts and /v2/actors prefixes, Bearer or ?token=, the sync
// run endpoint (201 + a bare array + X-Apify-Pagination-* headers, 408 past its limit, 400
// run-failed), async runs with waitForFinish long-polls, datasets, abort, actor and build objects
// (for `stays doctor`), and gzip/brotli request bodies as apify-client sends them. Each actor
// answers by a script the test sets: items (rows in recorded shapes), an empty dataset, a failed
// or timed-out run, a 429, a 402, a 404, invalid input.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

type Script =
  | { kind: 'items'; items: unknown[] | ((input: Record<string, unknown>) => unknown[]); runMs?: number; costUsd?: number }
  | { kind: 'empty'; statusMessage?: string }
  | { kind: 'failed'; statusMessage?: string; exitCode?: number }
  | { kind: 'timed-out' }
  /** The run outlasts the sync endpoint's limit (408 there); an async run stays RUNNING this long. */
  | { kind: 'slow'; runMs: number; items?: unknown[] }
  | { kind: 'rate-limit' }
  | { kind: 'payment' }
  | { kind: 'invalid-input'; message?: string };

interface FakeCall {
  method: string;
  path: string;
  query: Record<string, string>;
  actor?: string;
  input?: unknown;
  auth: 'bearer' | 'query' | 'none';
  encoding?: string;
}

interface FakeActor {
  /** owner~name (the fake also answers to its 17-character id). */
  name: string;
  id: string;
  buildNumber: string;
  /** The input schema of its latest build (doctor checks our mapping against it). */
  inputSchema?: { required?: string[]; properties: Record<string, unknown> };
}

interface Run {
  id: string;
  actId: string;
  actor: string;
  startedAt: number;
  finishAt: number;
  status: 'SUCCEEDED' | 'FAILED' | 'TIMED-OUT' | 'ABORTED';
  statusMessage: string | null;
  exitCode: number | null;
  datasetId: string;
  costUsd: number;
  aborted?: boolean;
}

export interface ApifyFake {
  url: string;
  token: string;
  calls: FakeCall[];
  /** What an actor answers from now on (default: 404 actor-not-found for an unknown actor; [] otherwise). */
  script(actor: string, s: Script): void;
  actor(a: FakeActor): void;
  /** The sync endpoint's limit, in ms (the platform's is 300 s). */
  syncLimitMs: number;
  close(): Promise<void>;
}

const SUCCEEDED_MSG = (n: number) => `Finished! Total ${n} requests: ${n} succeeded, 0 failed.`;
const BLOCKED_MSG = 'Finished! Total 1 requests: 0 succeeded, 1 failed.';
let seq = 0;
const id17 = (prefix: string) => `${prefix}${String(++seq).padStart(17 - prefix.length, '0')}`.slice(0, 17);

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}
const error = (res: ServerResponse, status: number, type: string, message: string) => send(res, status, { error: { type, message } });

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks);
  const enc = String(req.headers['content-encoding'] ?? '').toLowerCase();
  if (enc === 'br') return brotliDecompressSync(raw);
  if (enc === 'gzip') return gunzipSync(raw);
  return raw;
}

export async function startApifyFake(opts: { token?: string; syncLimitMs?: number } = {}): Promise<ApifyFake> {
  const token = opts.token ?? 'apify_api_test_token';
  const calls: FakeCall[] = [];
  const scripts = new Map<string, Script>();
  const actors = new Map<string, FakeActor>();
  const runs = new Map<string, Run>();
  const datasets = new Map<string, unknown[]>();
  const timers = new Set<NodeJS.Timeout>();
  const fake: ApifyFake = {
    url: '',
    token,
    calls,
    syncLimitMs: opts.syncLimitMs ?? 2_000,
    script: (a, s) => void scripts.set(a.replace('/', '~'), s),
    actor: (a) => {
      actors.set(a.name, a);
      actors.set(a.id, a);
    },
    close: () =>
      new Promise((r) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => r());
      }),
  };

  const sleep = (ms: number) =>
    new Promise<void>((r) => {
      const t = setTimeout(() => (timers.delete(t), r()), ms);
      timers.add(t);
    });
  const nameOf = (actorId: string) => actors.get(actorId)?.name ?? actorId;
  const statusOf = (run: Run, now = Date.now()) => (run.aborted ? 'ABORTED' : now < run.finishAt ? 'RUNNING' : run.status);
  const runObject = (run: Run) => {
    const status = statusOf(run);
    const done = status !== 'RUNNING';
    return {
      id: run.id,
      actId: run.actId,
      userId: 'fakeUser000000001',
      actorTaskId: null,
      startedAt: new Date(run.startedAt).toISOString(),
      finishedAt: done ? new Date(Math.min(Date.now(), run.finishAt)).toISOString() : null,
      status,
      statusMessage: done ? run.statusMessage : 'Crawling…',
      isStatusMessageTerminal: done ? true : null,
      meta: { origin: 'API' },
      stats: { inputBodyLen: 0, restartCount: 0, resurrectCount: 0, computeUnits: 0 },
      options: { build: 'latest', timeoutSecs: 3600, memoryMbytes: 4096, diskMbytes: 8192 },
      buildId: 'fakeBuild00000001',
      buildNumber: actors.get(run.actor)?.buildNumber ?? '0.0.1',
      exitCode: done ? run.exitCode : null,
      generalAccess: 'RESTRICTED',
      defaultKeyValueStoreId: 'fakeKvs0000000001',
      defaultDatasetId: run.datasetId,
      defaultRequestQueueId: 'fakeRq00000000001',
      usageTotalUsd: done ? run.costUsd : 0,
    };
  };

  /** Starts a run by the actor's script; null when the script refuses to start (the response is sent). */
  const start = (res: ServerResponse, actor: string, input: Record<string, unknown>): Run | null => {
    const s = scripts.get(actor);
    if (!s && !actors.has(actor)) {
      error(res, 404, 'actor-not-found', 'Actor was not found');
      return null;
    }
    const script: Script = s ?? { kind: 'items', items: [] };
    if (script.kind === 'rate-limit') return (error(res, 429, 'rate-limit-exceeded', 'You have exceeded the rate limit of 400 requests per second'), null);
    if (script.kind === 'payment') {
      error(
        res,
        402,
        'actor-memory-limit-exceeded',
        'By launching this job you will exceed the memory limit of 8192MB for all your Actor runs and builds (currently used: 4096MB, requested: 8192MB).',
      );
      return null;
    }
    if (script.kind === 'invalid-input') return (error(res, 400, 'invalid-input', script.message ?? 'Input is not valid: Field input.location is required'), null);
    const now = Date.now();
    const datasetId = id17('ds');
    let items: unknown[] = [];
    let status: Run['status'] = 'SUCCEEDED';
    let statusMessage: string | null = null;
    let exitCode: number | null = 0;
    let runMs = 0;
    switch (script.kind) {
      case 'items':
        items = typeof script.items === 'function' ? script.items(input) : script.items;
        statusMessage = SUCCEEDED_MSG(Math.max(1, items.length));
        runMs = script.runMs ?? 0;
        break;
      case 'empty':
        statusMessage = script.statusMessage ?? BLOCKED_MSG;
        break;
      case 'failed':
        status = 'FAILED';
        exitCode = script.exitCode ?? 91;
        statusMessage = script.statusMessage ?? `Actor finished with exit code ${exitCode}`;
        break;
      case 'timed-out':
        status = 'TIMED-OUT';
        exitCode = null;
        statusMessage = 'Actor timed out.';
        break;
      case 'slow':
        items = script.items ?? [];
        runMs = script.runMs;
        statusMessage = SUCCEEDED_MSG(Math.max(1, items.length));
        break;
    }
    datasets.set(datasetId, items);
    const run: Run = {
      id: id17('run'),
      actId: actors.get(actor)?.id ?? 'fakeActor00000001',
      actor,
      startedAt: now,
      finishAt: now + runMs,
      status,
      statusMessage,
      exitCode,
      datasetId,
      costUsd: script.kind === 'items' ? (script.costUsd ?? 0.01) : 0.002,
    };
    runs.set(run.id, run);
    return run;
  };

  const waitFor = async (run: Run, secs: number) => {
    const until = Date.now() + Math.min(60, Math.max(0, secs)) * 1000;
    while (statusOf(run) === 'RUNNING' && Date.now() < until) await sleep(Math.min(25, until - Date.now()));
  };

  const items = (res: ServerResponse, datasetId: string, q: Record<string, string>) => {
    const all = datasets.get(datasetId);
    if (!all) return error(res, 404, 'record-not-found', 'Dataset was not found');
    const offset = Number(q.offset ?? 0);
    const limit = q.limit !== undefined ? Number(q.limit) : undefined;
    const page = all.slice(offset, limit === undefined ? undefined : offset + limit);
    send(res, q.method === 'POST' ? 201 : 200, page, paging(all.length, offset, limit, q.desc));
  };
  const paging = (total: number, offset: number, limit: number | undefined, desc?: string) => ({
    'x-apify-pagination-offset': String(offset),
    'x-apify-pagination-limit': String(limit ?? 999999999999),
    'x-apify-pagination-count': String(Math.max(0, Math.min(total - offset, limit ?? Infinity))),
    'x-apify-pagination-total': String(total),
    'x-apify-pagination-desc': desc === '1' || desc === 'true' ? 'true' : 'false',
  });

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const q = Object.fromEntries(url.searchParams);
      const method = (req.method === 'GET' && q.method) || req.method || 'GET';
      const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
      const given = bearer ?? q.token;
      const call: FakeCall = { method, path: url.pathname, query: q, auth: bearer ? 'bearer' : q.token ? 'query' : 'none', encoding: req.headers['content-encoding'] };
      calls.push(call);
      const raw = await body(req);
      if (raw.length > 0) call.input = JSON.parse(raw.toString('utf8'));
      const path = url.pathname.replace(/\/+$/, '');

      // Run routes authenticate by the run id itself.
      let m = /^\/v2\/actor-runs\/([^/]+)(\/dataset\/items|\/abort)?$/.exec(path) ?? /^\/v2\/act(?:or)?s\/[^/]+\/runs\/([^/]+)()$/.exec(path);
      if (m) {
        const run = runs.get(m[1]!);
        if (!run) return error(res, 404, 'record-not-found', 'Actor run was not found');
        if (m[2] === '/dataset/items') return items(res, run.datasetId, q);
        if (m[2] === '/abort') {
          if (statusOf(run) === 'RUNNING') run.aborted = true;
          return send(res, 200, { data: runObject(run) });
        }
        await waitFor(run, Number(q.waitForFinish ?? 0));
        return send(res, 200, { data: runObject(run) });
      }
      m = /^\/v2\/datasets\/([^/]+)\/items$/.exec(path);
      if (m) return items(res, m[1]!, q);

      if (!given) return error(res, 401, 'token-not-provided', 'Authentication token was not provided');
      if (given !== token) return error(res, 401, 'invalid-token', 'Authentication token is not valid.');
      if (path === '/v2/users/me') return send(res, 200, { data: { id: 'fakeUser000000001', username: 'tester', plan: { id: 'FREE' } } });

      m = /^\/v2\/actor-builds\/([^/]+)$/.exec(path);
      if (m) {
        const a = [...actors.values()].find((x) => `b${x.id}` === m![1]);
        if (!a) return error(res, 404, 'record-not-found', 'Build was not found');
        return send(res, 200, {
          data: {
            id: `b${a.id}`,
            actId: a.id,
            status: 'SUCCEEDED',
            buildNumber: a.buildNumber,
            finishedAt: '2026-10-01T00:00:00.000Z',
            inputSchema: a.inputSchema ? JSON.stringify({ title: a.name, type: 'object', schemaVersion: 1, ...a.inputSchema }) : undefined,
          },
        });
      }

      m = /^\/v2\/act(?:or)?s\/([^/]+)(?:\/(run-sync-get-dataset-items|runs))?$/.exec(path);
      if (!m) return error(res, 404, 'page-not-found', 'Page not found');
      const actor = nameOf(decodeURIComponent(m[1]!));
      call.actor = actor;
      if (!m[2]) {
        const a = actors.get(actor);
        if (!a) return error(res, 404, 'actor-not-found', 'Actor was not found');
        const [username, name] = a.name.split('~');
        return send(res, 200, { data: { id: a.id, username, name, taggedBuilds: { latest: { buildId: `b${a.id}`, buildNumber: a.buildNumber, finishedAt: '2026-10-01T00:00:00.000Z' } } } });
      }
      if (method !== 'POST') return error(res, 405, 'method-not-allowed', 'Method not allowed');
      const input = (call.input ?? {}) as Record<string, unknown>;
      const run = start(res, actor, input);
      if (!run) return;
      if (m[2] === 'runs') {
        await waitFor(run, Number(q.waitForFinish ?? 0));
        return send(res, 201, { data: runObject(run) }, { location: `${fake.url}/v2/actor-runs/${run.id}` });
      }
      // Sync: wait for the run up to the endpoint's limit (the run goes on past it, as upstream).
      const limit = Date.now() + fake.syncLimitMs;
      while (statusOf(run) === 'RUNNING' && Date.now() < limit) await sleep(Math.min(25, Math.max(1, limit - Date.now())));
      if (statusOf(run) === 'RUNNING') return error(res, 408, 'run-timeout-exceeded', `Actor run exceeded the timeout of ${Math.round(fake.syncLimitMs / 1000)} seconds for this API endpoint`);
      const status = statusOf(run);
      if (status !== 'SUCCEEDED') return error(res, 400, 'run-failed', `Actor run did not succeed (run ID: ${run.id}, status: ${status})`);
      return items(res, run.datasetId, { ...q, method: 'POST' });
    })().catch((e: unknown) => {
      if (!res.headersSent) error(res, 500, 'internal-server-error', String(e));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
