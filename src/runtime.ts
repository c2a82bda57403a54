// The composition root: builds the services once from the configuration, for `serve`, `admin`,
// the in-process transport and tests. No other module constructs infrastructure.
import { type Config, databaseFile, loadConfig } from './config.js';
import { type Clock, systemClock } from './core/clock.js';
import type { Services } from './core/context.js';
import { type IdGenerator, systemIds } from './core/ids.js';
import { Lru, pageBytes } from './core/lru.js';
import { createSandboxWorld } from './sources/sandbox/world.js';
import type { SandboxWorld } from './sources/sandbox/types.js';
import { sandboxUpstream } from './sources/sandbox/upstream.js';
import { parseFailures, parseLatency, simulatedUpstream } from './sources/simulated.js';
import { chainUpstream } from './sources/chain.js';
import type { Upstream } from './core/upstream.js';
import { isErrorCode } from './core/errors.js';
import { CLI_EXITED, SERVER_SHUTDOWN, abandonOwn, startHeartbeat } from './jobs/leases.js';
import { JobRunner } from './jobs/runner.js';
import { openSqliteStore } from './store/sqlite/store.js';
import { createWebhookHub } from './webhooks/hub.js';

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
  /** Called when the heartbeat cannot renew this process's leases. */
  onError?(e: unknown): void;
}

export interface Runtime extends Services {
  /** Stops the heartbeat, fails this process's unfinished jobs (releasing their holds), closes the store. */
  close(): Promise<void>;
}

function liveUpstream(config: Config, world: SandboxWorld): Upstream | null {
  if (config.upstream === 'none') return null;
  const sim = simulatedUpstream(world, { latencyMs: parseLatency(config.simLatency), fail: parseFailures(config.simFail, isErrorCode) });
  return chainUpstream({ airbnb: [sim], booking: [sim], vrbo: [sim], google: [sim] }, config.sourceDeadlineMs);
}

export function createRuntime(opts: RuntimeOptions = {}): Runtime {
  const config = loadConfig(opts.config, opts.env);
  const clock = opts.clock ?? systemClock;
  const ids = opts.ids ?? systemIds(() => clock.now());
  // STAYS_MEMORY_CACHE_MB, shared by the two in-memory caches, half each (docs/decisions.md).
  const cacheBytes = config.memoryCacheMb * 1024 * 1024;
  const world = createSandboxWorld({ memoBytes: cacheBytes / 2 });
  const upstream = liveUpstream(config, world);
  const store = openSqliteStore(databaseFile(config.dataDir));
  const services: Services = {
    config,
    clock,
    ids,
    store,
    sandboxPages: new Lru({ maxBytes: cacheBytes / 2, maxEntries: 1024, sizeOf: pageBytes }),
    sandboxUpstream: sandboxUpstream(world),
    upstream,
    // This process's instance id: the owner of every job and hold it creates.
    jobs: new JobRunner(`inst_${ids.ulid()}`),
    webhooks: createWebhookHub({ store, clock, ids, config, onError: opts.onError }),
  };
  const heartbeat = startHeartbeat(services, opts.onError ?? (() => undefined));
  let closing: Promise<void> | undefined;
  return {
    ...services,
    close: () =>
      (closing ??= (async () => {
        heartbeat.stop();
        try {
          await abandonOwn(services, opts.role === 'cli' ? CLI_EXITED : SERVER_SHUTDOWN);
        } finally {
          await store.close();
        }
      })()),
  };
}
