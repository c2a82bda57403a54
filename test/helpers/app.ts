// In-process harness (the `inprocess` tier, docs/testing.md): the same Hono app `stays serve`
// runs, over a runtime on a temp SQLite store, called through `app.fetch` with no socket and no
// child process. Accounts and keys are made by the core's admin functions (what `stays admin`
// calls), on the app's own runtime. It offers the parts of the `Stays` harness (./stays.ts) that
// do not need a process, so a test moves here by changing how it starts its server.
//
// What it cannot show stays in the e2e tier: signals and shutdown, several processes on one
// store, sockets and connection headers, the built bundle and `stays admin` itself.
import { rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import pino from 'pino';
import { createAccount, createKey, grantCredits, listAccounts, revokeKey, showAccount } from '../../src/core/admin.js';
import type { Clock } from '../../src/core/clock.js';
import type { IdGenerator } from '../../src/core/ids.js';
import { createApp } from '../../src/app.js';
import { failExpired, purgeExpired } from '../../src/jobs/leases.js';
import { type Runtime, createRuntime } from '../../src/runtime.js';
import { accountOn } from './seed.js';
import { type AccountOpts, type Api, type TestAccount, tempDir } from './stays.js';

/**
 * The origin requests are made to. Nothing listens there: it only gives the app's answers the
 * origin a server's would have (docUrls under `${url}/docs`, OAuth's loopback checks).
 */
const APP_ORIGIN = 'http://127.0.0.1:9';

export interface AppOptions {
  /** Clock of the runtime (default: the system's); pass `manualClock()` to move time in a test. */
  clock?: Clock;
  ids?: IdGenerator;
  /** Data directory (default: a new temp one); a second app on the same one shares its store. */
  dataDir?: string;
  /** Start webhook deliveries, as `stays serve` does (default true). */
  deliver?: boolean;
  /**
   * The address the server would listen on, as `stays serve --host` sets it (default 127.0.0.1):
   * what decides whether it is reachable from other hosts (private webhook targets, OAuth).
   */
  listenHost?: string;
}

export interface TestApp extends Api {
  runtime: Runtime;
  app: ReturnType<typeof createApp>;
  /** Closes the runtime (as a server's shutdown does) and removes the data directory unless `keepData`. */
  stop(opts?: { keepData?: boolean }): Promise<void>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The app as `stays serve` sets it up (src/server.ts: the store ready, expired work failed and
 * purged, deliveries started, its own /docs), on a temp data directory. `env` holds STAYS_*
 * settings as the server's environment would; the process's own environment is not read.
 */
export async function startApp(env: NodeJS.ProcessEnv = {}, opts: AppOptions = {}): Promise<TestApp> {
  const dataDir = opts.dataDir ?? tempDir();
  const listenHost = opts.listenHost ?? '127.0.0.1';
  let log = '';
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      if (log.length < 1_000_000) log += chunk.toString();
      done();
    },
  });
  let logger: pino.Logger | undefined;
  const runtime = createRuntime({
    config: { dataDir, listenHost },
    env: { STAYS_LOG_LEVEL: 'warn', ...env },
    clock: opts.clock,
    ids: opts.ids,
    role: 'server',
    onError: (err) => logger?.error({ err }, 'background work failed (lease renewal or webhook events)'),
  });
  logger = pino({ level: runtime.config.logLevel, base: undefined }, sink);
  try {
    await runtime.store.ready();
    await failExpired(runtime);
    await purgeExpired(runtime);
  } catch (e) {
    await runtime.close();
    throw e;
  }
  const app = createApp(runtime, { logger, ownDocs: true, listenHost });
  if (opts.deliver !== false) runtime.dispatcher.start();

  const admin = async <T>(...args: string[]): Promise<T> => JSON.parse(JSON.stringify(await runAdmin(runtime, args))) as T;

  let stopped: Promise<void> | undefined;
  const t: TestApp = {
    url: APP_ORIGIN,
    dataDir,
    runtime,
    app,
    stdout: () => log,
    admin,
    account: (o: AccountOpts = {}): Promise<TestAccount> => accountOn(runtime, o),
    async req(path, init = {}) {
      const { key, headers, ...rest } = init;
      const h = new Headers(headers);
      if (key !== undefined) h.set('authorization', `Bearer ${key}`);
      let url = APP_ORIGIN + path;
      let next: RequestInit = { ...rest, headers: h };
      // As fetch does: redirects within the app are followed unless `redirect` says otherwise
      // (one to another origin is returned as it is: nothing in-process could answer it).
      for (let hops = 0; ; hops++) {
        const res = await app.fetch(new Request(url, next));
        // As fetch would give it: tests compare docUrls with the answer's origin.
        Object.defineProperty(res, 'url', { value: url });
        const location = res.headers.get('location');
        if ((rest.redirect ?? 'follow') !== 'follow' || !REDIRECTS.has(res.status) || location === null || hops === 20) return res;
        const to = new URL(location, url);
        if (to.origin !== APP_ORIGIN) return res;
        await res.body?.cancel();
        url = to.href;
        const method = (next.method ?? 'GET').toUpperCase();
        if (res.status === 303 ? method !== 'HEAD' : (res.status === 301 || res.status === 302) && method === 'POST') next = { ...next, method: 'GET', body: undefined };
      }
    },
    fetch(input, init) {
      const to = new URL(String(input));
      return to.origin === APP_ORIGIN ? t.req(to.pathname + to.search, init) : fetch(input, init);
    },
    stop(o = {}) {
      return (stopped ??= (async () => {
        runtime.jobs.stopWaiting();
        await runtime.close();
        if (!o.keepData) rmSync(dataDir, { recursive: true, force: true });
      })());
    },
  };
  return t;
}

/**
 * `stays admin ARGS` (commands/admin.ts) as the core calls it, on the app's runtime: the same
 * functions, inputs and JSON. Only the actions tests use; `--json` and `--data-dir` are ignored.
 */
async function runAdmin(rt: Runtime, args: string[]): Promise<unknown> {
  const BOOLEAN = new Set(['json', 'email-unverified']);
  const [group, action, ...rest] = args;
  const positional: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const [name, inline] = a.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (inline !== undefined) flags[name] = inline;
    else if (BOOLEAN.has(name)) flags[name] = true;
    else flags[name] = rest[++i] ?? '';
  }
  const str = (name: string) => (typeof flags[name] === 'string' ? (flags[name] as string) : undefined);
  const num = (name: string) => (str(name) === undefined ? undefined : Number(str(name)));
  switch (`${group} ${action}`) {
    case 'account create':
      return createAccount(rt, {
        plan: str('plan') ?? 'free',
        status: str('status') ?? 'active',
        credits: num('credits') ?? 0,
        rpm: num('rpm'),
        freeTierBudget: num('free-tier-budget'),
        emailVerified: flags['email-unverified'] !== true,
      });
    case 'account show':
      return showAccount(rt, { accountId: positional[0]!, ledger: num('ledger') ?? 20 });
    case 'account list':
      return listAccounts(rt);
    case 'key create':
      return createKey(rt, {
        accountId: str('account')!,
        env: str('env')!,
        scopes: str('scopes')
          ?.split(',')
          .map((s) => s.trim())
          .filter(Boolean),
        prefix: str('prefix'),
      });
    case 'key revoke':
      return revokeKey(rt, positional[0]!);
    case 'credits grant':
      return grantCredits(rt, { accountId: str('account')!, credits: num('credits')! });
    default:
      throw new Error(`test/helpers/app.ts: no in-process stays admin ${args.join(' ')}`);
  }
}
