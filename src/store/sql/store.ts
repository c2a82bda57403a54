// The store, written once over a Db (db.ts): each concern in its own file, put together here.
// The engine files (src/store/sqlite/store.ts, src/store/postgres/store.ts) open the database,
// provide the Db and add only what one engine does differently.
import { type Store, UNUSED_OAUTH_CLIENT_RETENTION_MS, WATCH_EVENT_RETENTION_MS, WEBHOOK_LOG_RETENTION_MS } from '../../core/ports/store.js';
import { type AuthCachePolicy, accountStore } from './accounts.js';
import { cacheStore } from './cache.js';
import { type CreditOps, creditStore, txCreditOps } from './credits.js';
import type { Db, Query } from './db.js';
import { idempotencyStore } from './idempotency.js';
import { LOCK, type LeaseHooks, jobStore } from './jobs.js';
import { oauthStore } from './oauth.js';
import { observationStore, staleSummaries } from './observations.js';
import { matchDecisionStore } from './match-decisions.js';
import { watchStore } from './watches.js';
import { compSetStore } from './compsets.js';
import { collectionStore } from './collections.js';
import { webhookStore } from './webhooks.js';

/** How long past its expiry an OAuth code is kept, so that a late second use still revokes what the first got. */
const CODE_KEEP_MS = 86_400_000;

export interface EngineParts {
  authCache: AuthCachePolicy;
  /** Cache entries kept in the process (cache.ts); 0: none. */
  cacheCopyBytes: number;
  /** Single-statement credit operations (PostgreSQL); default: several statements in a transaction. */
  credits?: CreditOps;
  leases?: LeaseHooks;
  /** More to purge in the same sweep (PostgreSQL: rate buckets and flights). */
  purge?(q: Query, now: number, batch: number): Promise<void>;
}

export type SqlStore = Omit<Store, 'kind' | 'ready' | 'admit' | 'shared' | 'close'>;

export function sqlStore(db: Db, parts: EngineParts): SqlStore {
  const credits = parts.credits ?? txCreditOps(db);
  return {
    ...accountStore(db, parts.authCache),
    ...creditStore(db, credits),
    ...jobStore(db, credits, parts.leases),
    ...webhookStore(db),
    ...oauthStore(db),
    ...idempotencyStore(db),
    ...cacheStore(db, parts.cacheCopyBytes),
    ...observationStore(db),
    ...watchStore(db),
    ...compSetStore(db),
    ...collectionStore(db),
    ...matchDecisionStore(db),
    async purgeExpired(now, batch, o = {}) {
      return db.tx(
        async (q) => {
          // One purger at a time; the others find nothing left to do.
          if (!(await db.sql.lock(q, LOCK.purge, { tryOnly: true }))) return { jobs: 0, cache: 0, webhooks: 0, observations: 0, watches: 0 };
          const count = async (sql: string, params: unknown[]) => (await q(`${sql} RETURNING 1`, params)).length;
          const jobs = await count(`DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE expires_at IS NOT NULL AND expires_at <= $1 AND status IN ('completed', 'failed') LIMIT $2)`, [now, batch]);
          const cache = await count(`DELETE FROM cache_entries WHERE key IN (SELECT key FROM cache_entries WHERE expires_at <= $1 LIMIT $2)`, [now, batch]);
          const before = now - WEBHOOK_LOG_RETENTION_MS;
          const webhooks =
            (await count(`DELETE FROM webhook_outbox WHERE id IN (SELECT id FROM webhook_outbox WHERE status <> 'pending' AND created_at <= $1 LIMIT $2)`, [before, batch])) +
            (await count(`DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries WHERE attempted_at <= $1 LIMIT $2)`, [before, batch]));
          // Not counted: nobody reports them. Codes first: a client whose only code just expired away goes in the same sweep.
          await q(`DELETE FROM oauth_codes WHERE hash IN (SELECT hash FROM oauth_codes WHERE expires_at <= $1 LIMIT $2)`, [now - CODE_KEEP_MS, batch]);
          await q(`DELETE FROM oauth_tokens WHERE hash IN (SELECT hash FROM oauth_tokens WHERE expires_at <= $1 LIMIT $2)`, [now, batch]);
          // Registration is unauthenticated (issue 21): a client that never got a grant and has no code goes after a day.
          await q(
            `DELETE FROM oauth_clients WHERE id IN (SELECT c.id FROM oauth_clients c WHERE c.created_at <= $1
             AND NOT EXISTS (SELECT 1 FROM oauth_grants g WHERE g.client_id = c.id) AND NOT EXISTS (SELECT 1 FROM oauth_codes o WHERE o.client_id = c.id) LIMIT $2)`,
            [now - UNUSED_OAUTH_CLIENT_RETENTION_MS, batch],
          );
          // Watch events past their retention (a watch's own index range each), then what watches
          // deleted before a deletion removed them at once left (issue 35, item 2).
          const oldEvents = `SELECT e.id FROM watches w JOIN watch_events e ON e.watch_id = w.id AND e.occurred_at <= $1 LIMIT $2`;
          const deletedEvents = `SELECT e.id FROM watches w JOIN watch_events e ON e.watch_id = w.id WHERE w.status = 'deleted' LIMIT $1`;
          const deleted = `SELECT w.id FROM watches w WHERE w.status = 'deleted' AND NOT EXISTS (SELECT 1 FROM watch_events e WHERE e.watch_id = w.id) LIMIT $1`;
          const watches =
            (await count(`DELETE FROM watch_events WHERE id IN (${oldEvents})`, [now - WATCH_EVENT_RETENTION_MS, batch])) +
            (await count(`DELETE FROM watch_events WHERE id IN (${deletedEvents})`, [batch])) +
            (await count(`DELETE FROM watches WHERE id IN (${deleted})`, [batch]));
          await q(`DELETE FROM idempotency_keys WHERE (account_id, env, key) IN (SELECT account_id, env, key FROM idempotency_keys WHERE expires_at <= $1 LIMIT $2)`, [now, batch]);
          const seen = o.observationsBefore;
          let observations = 0;
          if (seen !== undefined) {
            const gone = await q(`DELETE FROM observations WHERE id IN (SELECT id FROM observations WHERE last_seen < $1 LIMIT $2) RETURNING platform, listing_id`, [seen, batch]);
            observations = gone.length;
            // A summary that read a row now gone is recomputed from what is kept.
            await staleSummaries(q, new Set(gone.map((r) => `${r.platform as string}|${r.listing_id as string}`)));
          }
          await parts.purge?.(q, now, batch);
          return { jobs, cache, webhooks, observations, watches };
        },
        { background: true },
      );
    },
  };
}
