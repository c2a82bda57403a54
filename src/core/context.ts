// What every operation receives: who is calling (context) and the ports it may use (services).
import type { Config } from '../config.js';
import type { SandboxWorld } from '../sources/sandbox/types.js';
import type { AccountRow, KeyRow, Store } from '../store/types.js';
import type { Clock } from './clock.js';
import type { IdGenerator } from './ids.js';
import type { Lru } from './lru.js';
import type { Meta } from './schemas/resources.js';

export interface Services {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  sandbox: SandboxWorld;
  config: Config;
  /** Memoised sandbox search pages (pure results, keyed by query and cursor). */
  sandboxPages: Lru<string, unknown>;
}

export interface RequestContext {
  requestId: string;
  account: AccountRow;
  key: KeyRow;
}

export const isSandbox = (ctx: RequestContext) => ctx.key.env === 'sandbox';

/** A synchronous success: the envelope's data and meta. */
export interface OpResult<T> {
  data: T;
  meta: Meta;
}
