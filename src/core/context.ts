// What every operation receives: who is calling (context) and the ports it may use (services).
import type { Config } from './settings.js';
import type { AccountRow, KeyRow, Store } from './ports/store.js';
import type { Clock } from './clock.js';
import type { IdGenerator } from './ids.js';
import type { Lru } from './lru.js';
import type { Upstream } from './upstream.js';
import type { EventSink, JobRunnerPort } from './ports/runtime.js';
import type { HistoryPort } from './ports/history.js';
import type { HistoryView } from './ports/store.js';
import type { Meta } from './schemas/resources.js';

export interface Services {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  config: Config;
  /** Memoised sandbox answers (pure results, keyed by query and cursor). */
  sandboxPages: Lru<string, unknown>;
  /** The sandbox world behind the upstream port (sandbox keys). */
  sandboxUpstream: Upstream;
  /** The sandbox world's history (sandbox keys' history and analytics reads): src/sources/sandbox/history.ts. */
  sandboxHistory: HistoryPort;
  /** Live data sources; null when no upstream is configured (live calls get 503). */
  upstream: Upstream | null;
  jobs: JobRunnerPort;
  /** Webhook events: queued for the account's subscribed webhooks, delivered by the dispatcher. */
  webhooks: EventSink;
}

export interface RequestContext {
  requestId: string;
  account: AccountRow;
  key: KeyRow;
}

export const isSandbox = (ctx: RequestContext) => ctx.key.env === 'sandbox';

/**
 * Which of this deployment's observations a live key reads (issue 35, item 5): its own account's
 * (STAYS_HISTORY_SCOPE=account, the default), or every account's calendars and listing facts
 * pooled but only its own queries (deployment). HistoryView (src/core/ports/store/observations.ts).
 */
export const historyView = (services: Services, ctx: RequestContext): HistoryView => ({ account: ctx.account.id, pooled: services.config.historyScope === 'deployment' });

/** Whose live calls a live key's history holds, in words (its errors say where to look). */
export const observedBy = (services: Services): string => (services.config.historyScope === 'deployment' ? "this deployment's live calls" : "this account's live calls");

/** The history a caller reads: the sandbox world's for a sandbox key, this deployment's observations it may see for a live one. */
export const historyFor = (services: Services, ctx: RequestContext): HistoryPort => (isSandbox(ctx) ? services.sandboxHistory : services.store.historyOf(historyView(services, ctx)));

/** A synchronous success: the envelope's data and meta. */
export interface OpResult<T> {
  data: T;
  meta: Meta;
}
