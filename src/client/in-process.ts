// The in-process transport: the same Hono app `stays serve` runs, called through its fetch
// handler with no socket (the plain GETs a command makes run the app's pipeline without Hono:
// src/http/direct.ts), on a runtime opened lazily on the given data directory. Loading the
// runtime (SQLite, the pipeline, zod) is deferred to the first request so a command that fails
// usage checks never pays for it.
//
// Live jobs started in-process run in this process and nowhere else: closing the transport fails
// the ones still running (retryable, holds released, nothing charged). A process that dies
// without closing leaves leases that expire, and the next process to open the store cleans up.
//
// Webhook events of the jobs a command runs are delivered by the command itself: closing the
// transport first waits (up to `deliverMs`) for them to be delivered or to use their attempts.
// What is left stays queued in the store for the next process that opens it.
import type { Config } from '../config.js';
import type { Runtime } from '../runtime.js';
import type { Direct } from '../http/direct.js';
import type { Transport } from './transport.js';

export interface InProcessOptions {
  /** Data directory of the embedded store (default: STAYS_DATA_DIR or the user data dir). */
  dataDir?: string;
  /** How long closing waits for this command's webhook events to be delivered (default 30 s; the CLI passes --timeout). */
  deliverMs?: number;
  /** Runtime settings over the environment's (the CLI's profile: upstream, apify token, actors). */
  config?: Partial<Config>;
  /** The environment the runtime's settings are read from (default process.env; the CLI passes its own). */
  env?: NodeJS.ProcessEnv;
}

export interface InProcessTransport extends Transport {
  readonly kind: 'in-process';
  /** The runtime behind the app (for local provisioning through the admin actions). */
  runtime(): Promise<Runtime>;
  /** Jobs running in this process (none before the first request). */
  runningJobs(): string[];
  /** Waits up to `ms` for this process's jobs to end; whether they all did. */
  finishJobs(ms: number): Promise<boolean>;
}

export function inProcessTransport(opts: InProcessOptions = {}): InProcessTransport {
  let opened: Promise<{ rt: Runtime; direct: Direct; fetch: (r: Request) => Promise<Response> }> | undefined;
  // The runtime once opened, for the synchronous questions below (no jobs before the first request).
  let state: { rt: Runtime } | undefined;
  const open = () =>
    (opened ??= (async () => {
      // zod compiles a parser (new Function) for each object schema on its first parse, code no
      // cache keeps: for the few requests of an in-process command that costs more than it saves
      // (~2% of a sandbox search's instructions). It must be set before the schemas are built.
      (await import('zod')).z.config({ jitless: true });
      const [{ createRuntime }, { createPipeline, withRoutes }, { createDirect }, { FAMILY_U_ROUTES }] = await Promise.all([
        import('../runtime.js'),
        import('../http/pipeline.js'),
        import('../http/direct.js'),
        import('../http/routes/u/index.js'),
      ]);
      const rt = createRuntime({ config: { ...opts.config, ...(opts.dataDir ? { dataDir: opts.dataDir } : {}) }, role: 'cli', env: opts.env });
      try {
        // Jobs and holds left by a process that died (expired leases) are failed and released.
        await rt.recover({ purgeBatches: 1 });
      } catch (e) {
        await rt.close();
        throw e;
      }
      // The plain GETs a command makes run the app's pipeline directly (src/http/direct.ts): Family
      // U's routes are all it serves. The rest go through the Hono app with every route, built on
      // first use with the same rate limiters and caches.
      const pipeline = createPipeline(rt, FAMILY_U_ROUTES);
      let app: Promise<{ fetch(r: Request): Response | Promise<Response> }> | undefined;
      state = { rt };
      return {
        rt,
        direct: createDirect(pipeline),
        fetch: async (r: Request) =>
          (await (app ??= Promise.all([import('../app.js'), import('../http/routes/index.js')]).then(([{ createApp }, { API_ROUTES }]) => createApp(rt, {}, withRoutes(pipeline, API_ROUTES))))).fetch(
            r,
          ),
      };
    })());

  return {
    kind: 'in-process',
    base: 'in-process:',
    async runtime() {
      return (await open()).rt;
    },
    runningJobs: () => state?.rt.jobs.ids() ?? [],
    finishJobs: async (ms) => (state ? state.rt.jobs.drain(ms) : true),
    async send(req) {
      const { direct, fetch } = await open();
      const answer = direct.send(req);
      if (answer) return answer;
      const res = await fetch(new Request(`http://in-process${req.path}`, { method: req.method, headers: req.headers, body: req.body, signal: req.signal }));
      const headers: Record<string, string> = {};
      res.headers.forEach((v, k) => {
        headers[k] = v;
      });
      return { status: res.status, headers, body: await res.text() };
    },
    async close() {
      if (!opened) return;
      const { rt } = await opened;
      try {
        // Jobs abandoned here are failed by rt.close(); their job.failed events stay queued.
        if (rt.jobs.size === 0) await rt.dispatcher.drain(opts.deliverMs ?? 30_000);
      } finally {
        await rt.close();
      }
    },
  };
}
