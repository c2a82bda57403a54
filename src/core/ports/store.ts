// The store port. The core talks only to this interface, one part per concern (./store/*.ts:
// accounts and keys, credits and the ledger, jobs and leases, webhooks, idempotency keys, OAuth,
// the cache, and the state several instances share); one implementation over both engines
// provides it (src/store/sql, with src/store/sqlite and src/store/postgres). Every credit change
// happens inside one store transaction that writes a ledger row (house rule 7).
//
// Several processes may share one store (a restart overlapping the old server, `stays admin`,
// in-process CLI calls, later several servers). Work in flight is therefore owned: every job and
// every credit hold names the process that owns it and carries a lease that process renews while
// it works. Only an expired lease lets another process fail the job and release its hold, and a
// job settles only while its owner still holds it, so a job is never both settled and failed.
import type { SharedState } from './store/shared.js';
import type { AccountStore } from './store/accounts.js';
import type { CreditStore } from './store/credits.js';
import type { JobStore } from './store/jobs.js';
import type { WebhookStore } from './store/webhooks.js';
import type { IdempotencyStore } from './store/idempotency.js';
import type { OAuthStore } from './store/oauth.js';
import type { CacheStore } from './store/cache.js';
import type { ObservationStore } from './store/observations.js';
import type { WatchStore } from './store/watches.js';
import type { CompSetStore } from './store/compsets.js';
import type { CollectionStore, CollectionWorkStore } from './store/collections.js';
import type { MatchDecisionStore } from './store/match-decisions.js';
import type { HistoryPort } from './history.js';
import type { HistoryView } from './store/observations.js';

export * from './store/accounts.js';
export * from './store/credits.js';
export * from './store/jobs.js';
export * from './store/webhooks.js';
export * from './store/idempotency.js';
export * from './store/oauth.js';
export * from './store/cache.js';
export * from './store/observations.js';
export * from './store/watches.js';
export * from './store/compsets.js';
export * from './store/collections.js';
export * from './store/match-decisions.js';
export * from './store/shared.js';

export interface Store
  extends AccountStore,
    CreditStore,
    JobStore,
    WebhookStore,
    IdempotencyStore,
    OAuthStore,
    CacheStore,
    ObservationStore,
    WatchStore,
    CompSetStore,
    CollectionStore,
    CollectionWorkStore,
    MatchDecisionStore {
  readonly kind: 'sqlite' | 'postgres';
  /**
   * The reads of what was observed (./history.ts), by the store's indexes; each writes what is
   * queued first. `history` reads every account's rows (the operator's view: benches, tools);
   * `historyOf` what one reader may see (HistoryView).
   */
  readonly history: HistoryPort;
  historyOf(view: HistoryView): HistoryPort;
  /**
   * Resolves once the store is usable (connected, migrated); rejects with why not. Every method
   * waits for it, so only a server, which should fail before it listens, needs to call it.
   */
  ready(): Promise<void>;
  /**
   * Admission of a new request: throws 503 service_overloaded (database_unavailable while the
   * database is away) when as many callers as the store queues already wait for it. Absent on
   * SQLite, whose calls never wait for a connection.
   */
  admit?(): void;
  /** Present when several instances share the store (PostgreSQL). */
  readonly shared?: SharedState;
  close(): Promise<void>;
}
