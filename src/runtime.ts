// The composition root: builds the services once from the configuration, for `serve`, `admin`,
// the in-process transport and tests. No other module constructs infrastructure.
import { type Config, databaseFile, loadConfig } from './config.js';
import { type Clock, systemClock } from './core/clock.js';
import type { Services } from './core/context.js';
import { type IdGenerator, systemIds } from './core/ids.js';
import { Lru } from './core/lru.js';
import { createSandboxWorld } from './sources/sandbox/world.js';
import { openSqliteStore } from './store/sqlite/store.js';

export interface RuntimeOptions {
  config?: Partial<Config>;
  clock?: Clock;
  ids?: IdGenerator;
  env?: NodeJS.ProcessEnv;
}

export interface Runtime extends Services {
  close(): Promise<void>;
}

export function createRuntime(opts: RuntimeOptions = {}): Runtime {
  const config = loadConfig(opts.config, opts.env);
  const clock = opts.clock ?? systemClock;
  const ids = opts.ids ?? systemIds(() => clock.now());
  const store = openSqliteStore(databaseFile(config.dataDir));
  return {
    config,
    clock,
    ids,
    store,
    sandbox: createSandboxWorld(),
    sandboxPages: new Lru(1024),
    close: () => store.close(),
  };
}
