// The composition root: builds the services once from the configuration, for `serve`, `admin`,
// the in-process transport and tests. No other module constructs infrastructure.
import { type Config, ConfigError, loadConfig } from './config.js';
import { type Clock, startedClock, systemClock } from './core/clock.js';
import type { Services } from './core/context.js';
import { type IdGenerator, systemIds } from './core/ids.js';
import { Lru, pageBytes } from './core/lru.js';
import { createSandboxWorld, searchMemo } from './sources/sandbox/world.js';
import { parseSimCalendars } from './sources/sandbox/families-upstream.js';
import type { SandboxWorld } from './sources/sandbox/types.js';
import { sandboxUpstream } from './sources/sandbox/upstream.js';
import { sandboxHistory } from './sources/sandbox/history.js';
import { parseFailures, parseLatency, simulatedUpstream } from './sources/simulated.js';
import { chainUpstream } from './sources/chain.js';
import type { SourceReport, Upstream } from './core/upstream.js';
import { resolveActors } from './sources/apify/actors.js';
import { apifyUpstream } from './sources/apify/index.js';
import { isErrorCode } from './core/errors.js';
import { CLI_EXITED, SERVER_SHUTDOWN, abandonOwn, failExpired, purgeExpired, startHeartbeat } from './jobs/leases.js';
import { JobRunner } from './jobs/runner.js';
import { openStore } from './store/open.js';
import { type WebhookHub, createWebhookHub } from './webhooks/hub.js';
import { type Dispatcher, createDispatcher } from './webhooks/dispatcher.js';
import pkg from '../package.json' with { type: 'json' };

export interface RuntimeOptions {
  config?: Partial<Config>;
  clock?: Clock;
  ids?: IdGenerator;
  env?: NodeJS.ProcessEnv;
  /**
   * Who runs it, for what becomes of its unfinished jobs at close: a server (shutdown) or an
   * in-process CLI command (exited). Either way they fail retryable and their holds are released.
   */
  role?: 'server' | 'cli';
  /** The command-line option each config override came from, for messages (loadConfig). */
  flags?: Partial<Record<keyof Config, string>>;
  /** Called when the heartbeat cannot renew this process's leases. */
  onError?(e: unknown): void;
}

export interface Runtime extends Services {
  /** The core's ports, as the runtime made them (with what only the runtime's owner uses: drain, size, the dispatcher's wake-up). */
  jobs: JobRunner;
  webhooks: WebhookHub;
  /**
   * This process's webhook deliveries. Started by `stays serve`; in an in-process CLI command it
   * starts with the first event the command queues, and the transport drains it before closing.
   */
  dispatcher: Dispatcher;
  /**
   * Stops the heartbeat, fails this process's unfinished jobs (releasing their holds, queueing
   * their job.failed events), stops the dispatcher (attempts in flight are cut off and stay
   * claimed until their lease expires), closes the store.
   */
  close(): Promise<void>;
  /**
   * What every process does once it has opened the store, before its first request: the work of
   * processes that died (expired leases) is failed, retryable and free, their holds released,
   * and what expired is purged (`purgeBatches` batches at most). Says what it failed.
   */
  recover(o?: { purgeBatches?: number }): Promise<{ jobs: number; holds: number }>;
}

function liveUpstream(config: Config, world: () => SandboxWorld, log: ((r: SourceReport) => void) | undefined): Upstream | null {
  if (config.upstream === 'none') return null;
  if (config.upstream === 'apify') {
    if (!config.apifyToken) throw new ConfigError("STAYS_UPSTREAM=apify needs STAYS_APIFY_TOKEN (the scraping platform's API token).");
    const actors = resolveActors(config.actors);
    return apifyUpstream({ token: config.apifyToken, baseUrl: config.apifyBaseUrl, maxRetries: config.apifyRetries, actors, log }, config.sourceDeadlineMs);
  }
  const sim = simulatedUpstream(world(), { latencyMs: parseLatency(config.simLatency), fail: parseFailures(config.simFail, isErrorCode) });
  return chainUpstream({ airbnb: [sim], booking: [sim], vrbo: [sim], google: [sim] }, config.sourceDeadlineMs);
}

/**
 * The server's log of each actor run (cost and latency per source), as structured fields on
 * stdout beside the request log; pino loads with the first line. In-process CLI commands log
 * nothing (their stdout is data).
 */
function sourceLog(config: Config): (r: SourceReport) => void {
  let logger: Promise<{ info(o: object, msg: string): void; warn(o: object, msg: string): void }> | undefined;
  return (r) => {
    logger ??= import('pino').then((m) => {
      const pino = (m as unknown as { default?: typeof m }).default ?? m;
      return (pino as unknown as (o: object) => { info(o: object, msg: string): void; warn(o: object, msg: string): void })({ level: config.logLevel, base: undefined });
    });
    void logger.then(
      (l) => (r.ok ? l.info({ upstream: r }, 'upstream source served') : l.warn({ upstream: r }, 'upstream source failed')),
      () => undefined,
    );
  };
}

export function createRuntime(opts: RuntimeOptions = {}): Runtime {
  const config = loadConfig(opts.config, opts.env, opts.flags);
  const clock = opts.clock ?? (config.now === undefined ? systemClock : startedClock(Date.parse(config.now)));
  const ids = opts.ids ?? systemIds(() => clock.now());
  // STAYS_MEMORY_CACHE_MB, shared by the two in-memory caches, half each (docs/decisions.md).
  const cacheBytes = config.memoryCacheMb * 1024 * 1024;
  // Sandbox keys read the fixed world (D21); the simulated upstream reads the same world as it
  // stands at the services' clock (moving.ts). Their search memos share one budget.
  const memo = searchMemo(cacheBytes / 2);
  const world = createSandboxWorld({ memo });
  const upstream = liveUpstream(config, () => createSandboxWorld({ memo, clock, calendars: parseSimCalendars(config.simCalendars) }), opts.role === 'server' ? sourceLog(config) : undefined);
  const store = openStore(config);
  const sandboxWorld = sandboxUpstream(world);
  const services: Services & { jobs: JobRunner; webhooks: WebhookHub } = {
    config,
    clock,
    ids,
    store,
    sandboxPages: new Lru({ maxBytes: cacheBytes / 2, maxEntries: 1024, sizeOf: pageBytes }),
    sandboxUpstream: sandboxWorld,
    sandboxHistory: sandboxHistory(sandboxWorld),
    upstream,
    // This process's instance id: the owner of every job and hold it creates.
    jobs: new JobRunner(`inst_${ids.ulid()}`),
    webhooks: createWebhookHub({ store, clock, ids, config, onError: opts.onError }),
  };
  const dispatcher = createDispatcher({
    store,
    clock,
    hub: services.webhooks,
    owner: services.jobs.owner,
    config,
    userAgent: `stays-webhooks/${pkg.version}`,
    inProcess: opts.role === 'cli',
    // Unset but in tests (STAYS_TEST_WEBHOOK_RETRY_MS): the spec's 1 s and 6 s.
    retryDelaysMs: config.webhookRetryDelaysMs,
    onError: opts.onError,
  });
  const heartbeat = startHeartbeat(services, opts.onError ?? (() => undefined));
  let closing: Promise<void> | undefined;
  return {
    ...services,
    dispatcher,
    async recover(o = {}) {
      const r = await failExpired(services);
      await purgeExpired(services, o.purgeBatches);
      return { jobs: r.jobs.length, holds: r.holds };
    },
    close: () =>
      (closing ??= (async () => {
        heartbeat.stop();
        try {
          await abandonOwn(services, opts.role === 'cli' ? CLI_EXITED : SERVER_SHUTDOWN);
        } finally {
          // Events fired so far reach the outbox before the store closes; what is not delivered
          // yet stays queued for the next process.
          await services.webhooks.idle();
          await dispatcher.stop(0);
          await store.close();
        }
      })()),
  };
}
