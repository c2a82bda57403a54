// The shared store: PostgreSQL through node-postgres (`pg`) with a pool, for several `stays serve`
// instances behind a load balancer on one database (docs/deploy.md). The queries and rules are the
// shared ones (src/store/sql), made safe across processes by row locks rather than by SQLite's
// single writer; this file holds what only PostgreSQL does:
// - Connections: two pools (requests; the heartbeat, sweeps and purges), a queue bound, database
//   faults answered as 503 database_unavailable, a transaction retried whole on a deadlock or
//   serialization failure (and, for work that ends or refunds admitted work, through a fault).
// - Credits in single statements (credits.ts), locks always taken job → hold → balance.
// - Expiry sweeps, purges and serial delivery claims each under an advisory lock of their own, one
//   instance at a time; the webhook claim skips rows another instance locked.
// - What instances share beyond the tables (rate buckets, flights: SharedState), and migrations
//   run at start under a session advisory lock, so instances starting together apply each once.
// `pg` loads on first use (a vendor file of the CLI), so the embedded default never pays for it.
import type { Pool, PoolClient } from 'pg';
import { ServiceError } from '../../core/errors.js';
import type { SharedState, Store } from '../../core/ports/store.js';
import { redactUrl } from '../db-url.js';
import type { Db, Dialect, Query, TxOptions } from '../sql/db.js';
import { migrationsFor } from '../sql/migrations.js';
import { sqlStore } from '../sql/store.js';
import { pgCreditOps } from './credits.js';
import { libpqCompatUrl } from './ssl.js';

const PG_MIGRATIONS = migrationsFor('postgres');

/** Why the store cannot be used (the database is unreachable, refuses us, or is newer than this build). */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
}

/**
 * The advisory lock of migrations (the others, one per purpose, are src/store/sql/jobs.ts's LOCK:
 * an instance purging must not make another instance's sweep of expired leases skip its work).
 */
const MIGRATE_LOCK = 7_361_001;

/**
 * How long a key looked up by authentication is reused without asking the database again: a key
 * revoked on one instance is refused by every instance within this bound (docs/deploy.md).
 */
export const PG_AUTH_CACHE_MS = 1000;

/** How long an ended flight's outcome is kept for the instances still waiting on it. */
const FLIGHT_KEEP_MS = 60_000;
/** How long past its last update a rate bucket is kept (any bucket is full again within a minute). */
const BUCKET_KEEP_MS = 120_000;

const RETRYABLE = new Set(['40001', '40P01']);

/** The most the instance keeps of cache entries it read or wrote (cacheGet). */
const PG_CACHE_COPY_BYTES = 64 * 1024 * 1024;

/** How often a busy backend checks that its client is still there (client_connection_check_interval). */
export const CONNECTION_CHECK_MS = 1000;

async function connectPool(url: string, max: number, connectTimeoutMs: number): Promise<Pool> {
  const m = await import('pg');
  const pg = ((m as unknown as { default?: typeof m }).default ?? m) as typeof m;
  const int8 = (v: string) => Number(v);
  const pool = new pg.Pool({
    // sslmode as libpq reads it (ssl.ts), without the driver's deprecation warning.
    connectionString: libpqCompatUrl(url),
    max,
    // Milliseconds and credits are BIGINT; every value we store is a safe integer.
    types: { getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === 20 ? int8 : pg.types.getTypeParser(oid, format as 'text'))) as never },
    // How long a caller waits for a connection: in the pool's queue, or for a new one to open.
    connectionTimeoutMillis: connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    // A database that vanished without closing its sockets (a host gone, a partition) is noticed.
    keepAlive: true,
    application_name: 'stays',
  });
  // An idle client's connection dropping (a database restart) must not crash the process; the
  // pool replaces it and the next query reports any lasting failure. Clients in use have their
  // own listener (use()).
  pool.on('error', () => undefined);
  // And at every other moment of a client's life (pg-pool leaves gaps, such as a client handed
  // between callers, where a backend's termination notice finds no listener and would end the
  // process). A query in progress still fails with the error, and use() still sees it.
  // A statement whose caller is gone is cancelled within a second (PostgreSQL >= 14; ignored
  // before): a single-statement hold or settlement waiting on a row lock when its connection
  // dropped must not land later, long after its caller was told database_unavailable. Queued
  // before the client's first query, so it costs no round trip of its own.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    client.query(`SET client_connection_check_interval = ${CONNECTION_CHECK_MS}`).catch(() => undefined);
  });
  return pool;
}

const FAULT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);

/**
 * Whether an error means the database cannot be reached or used right now, as opposed to a bug or
 * a refused statement: SQLSTATE classes 08 (connection), 53 (insufficient resources), 57P0x (shut
 * down, restarting) and 58 (system), socket errors, and node-postgres' own connection messages.
 */
function isDatabaseFault(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string' && (FAULT_CODES.has(code) || /^(08|53|58)...$/.test(code) || /^57P0[1-4]$/.test(code))) return true;
  return /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|Connection ended unexpectedly/i.test(e.message);
}

/** How long after a fault clients are told to come back (Retry-After, seconds). */
const FAULT_RETRY_AFTER_S = 2;
const OVERLOAD_RETRY_AFTER_S = 1;

const unavailable = (cause: unknown) => new ServiceError('database_unavailable', undefined, { retryAfter: FAULT_RETRY_AFTER_S, cause });
const overloaded = (why: string, cause?: unknown) =>
  new ServiceError('service_overloaded', `The service is at capacity right now (${why}); retry in a few seconds.`, { retryAfter: OVERLOAD_RETRY_AFTER_S, cause });

async function migrate(pool: Pool): Promise<void> {
  const c = await pool.connect();
  try {
    await c.query('SELECT pg_advisory_lock($1)', [MIGRATE_LOCK]);
    try {
      await c.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)');
      const done = (await c.query<{ v: number }>('SELECT COALESCE(MAX(version), 0)::int AS v FROM schema_migrations')).rows[0]!.v;
      if (done > PG_MIGRATIONS.length) {
        throw new StoreUnavailableError(`The database is at schema version ${done}, newer than this build of stays knows (${PG_MIGRATIONS.length}); upgrade stays on this instance.`);
      }
      for (let v = done; v < PG_MIGRATIONS.length; v++) {
        await c.query('BEGIN');
        try {
          await c.query(PG_MIGRATIONS[v]!);
          await c.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [v + 1, Date.now()]);
          await c.query('COMMIT');
        } catch (e) {
          await c.query('ROLLBACK').catch(() => undefined);
          throw e;
        }
      }
    } finally {
      await c.query('SELECT pg_advisory_unlock($1)', [MIGRATE_LOCK]).catch(() => undefined);
    }
  } finally {
    c.release();
  }
}

const dialect: Dialect = {
  forUpdate: ' FOR UPDATE',
  skipLocked: ' FOR UPDATE OF o SKIP LOCKED',
  greatest: 'GREATEST',
  outboxOrder: 'seq',
  inJsonList: (column, param) => `${column} IN (SELECT json_array_elements_text(CAST(${param} AS json)))`,
  anyOfList: (column, param) => `${column} = ANY(CAST(${param} AS text[]))`,
  list: (values) => values,
  jsonInt: (column, field) => `CAST(CAST(${column} AS json)->>'${field}' AS BIGINT)`,
  async lock(q, id, o = {}) {
    const fn = o.tryOnly ? 'pg_try_advisory_xact_lock' : 'pg_advisory_xact_lock';
    const r = o.text === undefined ? await q(`SELECT ${fn}($1) AS ok`, [id]) : await q(`SELECT ${fn}($1, hashtext($2)) AS ok`, [id, o.text]);
    return o.tryOnly !== true || r[0]?.ok === true;
  },
};

export interface PgStoreOptions {
  /** Connections for request traffic (STAYS_DATABASE_POOL_MAX). */
  poolMax?: number;
  /** Callers that may wait for one of them before new work is refused with 503 service_overloaded (STAYS_DATABASE_QUEUE_MAX). */
  queueMax?: number;
  /** How long a caller waits for a connection at most (STAYS_DATABASE_QUEUE_TIMEOUT_MS). */
  queueTimeoutMs?: number;
}

/**
 * Connections of the second, small pool that the heartbeat, the expiry sweep, purges and shutdown
 * use: lease renewal never waits behind request traffic, so a busy instance is not mistaken for a
 * dead one.
 */
const BACKGROUND_POOL_MAX = 2;
/**
 * How long work that gives credits back or ends a job (settlements, job ends, releases) keeps
 * retrying through a database fault before it leaves the rest to lease expiry and the sweep.
 */
const MUST_RETRY_MS = 10_000;
/**
 * How long such work waits its turn for a connection when every one is busy (the database is
 * there, only loaded): a job that did its upstream call is not failed for want of a connection.
 */
const MUST_WAIT_MS = 60_000;

export function openPgStore(url: string, opts: PgStoreOptions = {}): Store {
  let pool: Pool | undefined;
  let bg: Pool | undefined;
  let closed = false;
  const queueMax = opts.queueMax ?? 1000;
  const queueTimeoutMs = opts.queueTimeoutMs ?? 5_000;
  const ready = (async () => {
    try {
      pool = await connectPool(url, opts.poolMax ?? 10, queueTimeoutMs);
      bg = await connectPool(url, BACKGROUND_POOL_MAX, queueTimeoutMs);
      await migrate(pool);
    } catch (e) {
      await pool?.end().catch(() => undefined);
      await bg?.end().catch(() => undefined);
      pool = bg = undefined;
      if (e instanceof StoreUnavailableError) throw e;
      const why = e instanceof Error ? e.message : String(e);
      throw new StoreUnavailableError(`Cannot use PostgreSQL at ${redactUrl(url)}: ${why}`, { cause: e });
    }
  })();
  // Nobody may be waiting yet (a command that never touches the store): never an unhandled rejection.
  ready.catch(() => undefined);

  /** When a database fault was last seen, and when a statement last got an answer (epoch ms). */
  const health = { faultAt: 0, okAt: 0 };
  // While the database is away, callers pile up behind connections that cannot open: that is
  // the fault showing, not load.
  const busy = (why: string, cause?: unknown) => (health.faultAt > health.okAt ? unavailable(cause) : overloaded(why, cause));

  const getPool = async (which: 'requests' | 'background'): Promise<Pool> => {
    await ready;
    const p = which === 'background' ? bg : pool;
    if (closed || !p) throw new StoreUnavailableError('The store is closed.');
    return p;
  };

  /**
   * Runs `f` on a connection of the pool. A database fault becomes 503 database_unavailable, a
   * wait for a connection past STAYS_DATABASE_QUEUE_TIMEOUT_MS 503 service_overloaded. A
   * connection that failed is destroyed, never handed out again.
   */
  async function use<T>(which: 'requests' | 'background', f: (c: PoolClient) => Promise<T>): Promise<T> {
    const p = await getPool(which);
    let c: PoolClient;
    try {
      c = await p.connect();
    } catch (e) {
      if (!isDatabaseFault(e)) throw e;
      // Waited the whole timeout with every connection busy: load, not a fault.
      if (/timeout exceeded/.test((e as Error).message) && p.totalCount >= (p.options.max ?? 10)) throw busy(`no database connection was free within ${queueTimeoutMs} ms`, e);
      health.faultAt = Date.now();
      throw unavailable(e);
    }
    // A connection dropping while it is checked out emits 'error' on it: without a listener that
    // would end the process. The query in progress fails with it too, and is answered below.
    let broken: Error | undefined;
    const onError = (e: Error) => {
      broken = e;
    };
    c.on('error', onError);
    try {
      const r = await f(c);
      health.okAt = Date.now();
      return r;
    } catch (e) {
      if (isDatabaseFault(e) || broken) {
        broken ??= e as Error;
        health.faultAt = Date.now();
        throw unavailable(e);
      }
      health.okAt = Date.now();
      throw e;
    } finally {
      c.removeListener('error', onError);
      c.release(broken ?? undefined);
    }
  }

  const query: Query = (sql, params) => use('requests', async (c) => (await c.query(sql, params as unknown[])).rows as never);

  /**
   * One transaction on one connection, retried whole on a deadlock or serialization failure, and
   * (`must`) on a database fault or a connection wait that timed out until MUST_RETRY_MS has passed. Retrying after a fault is safe for
   * the statements that use it: each re-checks under its row locks whether its work is still to do
   * (a hold already settled is gone, a job already ended no longer names its owner).
   */
  async function tx<T>(f: (q: Query, attempt: number) => Promise<T>, o: TxOptions = {}): Promise<T> {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        return await use(o.background ? 'background' : 'requests', async (c) => {
          const q: Query = async (sql, params) => (await c.query(sql, params as unknown[])).rows as never;
          if (o.single === true) return await f(q, attempt);
          try {
            await c.query('BEGIN');
            const r = await f(q, attempt);
            await c.query('COMMIT');
            return r;
          } catch (e) {
            await c.query('ROLLBACK').catch(() => undefined);
            throw e;
          }
        });
      } catch (e) {
        const code = (e as { code?: unknown }).code;
        const conflict = typeof code === 'string' && RETRYABLE.has(code) && attempt < 8;
        // A wait for a connection that timed out ran nothing: work that must end waits its turn.
        const waited = Date.now() - started;
        const fault =
          o.must === true && e instanceof ServiceError && ((e.code === 'database_unavailable' && waited < MUST_RETRY_MS) || (e.code === 'service_overloaded' && waited < MUST_WAIT_MS)) && !closed;
        if (!conflict && !fault) throw e;
        await new Promise((r) => setTimeout(r, conflict ? 5 * attempt + Math.random() * 20 : Math.min(1000, 50 * 2 ** attempt) * (0.5 + Math.random() / 2)));
      }
    }
  }

  const shared: SharedState = {
    async takeToken(id, perMinute, now) {
      // Not money: its commit does not wait for the WAL to reach the disk (docs/decisions.md, issue
      // 23). A crash loses at most the last fraction of a second of takes, which only refills
      // buckets a little early; the key's row is locked for the statement, not for a disk flush.
      const r = (await query(`SELECT o_allowed, o_tokens FROM stays_take_token($1, $2, $3), set_config('synchronous_commit', 'off', true)`, [id, Math.max(1, Math.floor(perMinute)), now]))[0]!;
      return { allowed: r.o_allowed as boolean, tokens: r.o_tokens as number };
    },
    async claimFlight(key, id, owner, leaseUntil, now) {
      for (;;) {
        const won = await query(
          `INSERT INTO flights AS f (key, id, owner, lease_expires_at, state) VALUES ($1, $2, $3, $4, 'running')
           ON CONFLICT (key) DO UPDATE SET id = excluded.id, owner = excluded.owner, lease_expires_at = excluded.lease_expires_at, state = 'running', outcome = NULL, ended_at = NULL
           WHERE f.state <> 'running' OR f.lease_expires_at <= $5
           RETURNING id`,
          [key, id, owner, leaseUntil, now],
        );
        if (won.length === 1) return { leader: true };
        const other = (await query(`SELECT id FROM flights WHERE key = $1 AND state = 'running' AND lease_expires_at > $2`, [key, now]))[0];
        if (other) return { leader: false, id: other.id as string };
        // It ended between the two statements: try again to lead.
      }
    },
    async endFlight(key, id, outcome, now) {
      const ok = 'value' in outcome;
      await query(`UPDATE flights SET state = $3, outcome = $4, ended_at = $5 WHERE key = $1 AND id = $2`, [key, id, ok ? 'done' : 'failed', JSON.stringify(ok ? outcome.value : outcome.error), now]);
    },
    async readFlight(key, id, now) {
      const r = (await query(`SELECT state, outcome, lease_expires_at FROM flights WHERE key = $1 AND id = $2`, [key, id]))[0];
      if (!r) return { state: 'gone' };
      if (r.state === 'running') return (r.lease_expires_at as number) > now ? { state: 'running' } : { state: 'gone' };
      const outcome = JSON.parse(r.outcome as string) as unknown;
      return r.state === 'done' ? { state: 'done', value: outcome } : { state: 'failed', error: outcome };
    },
  };

  const pg: Db = { kind: 'postgres', sql: dialect, query, tx };
  const store: Store = {
    kind: 'postgres',
    ready: () => ready,
    admit() {
      // New work waits at the door rather than in the pool's queue once that queue is full.
      const waiting = pool?.waitingCount ?? 0;
      if (waiting >= queueMax) throw busy(`${waiting} requests already wait for a database connection`);
    },
    shared,
    ...sqlStore(pg, {
      authCache: { maxAgeMs: PG_AUTH_CACHE_MS },
      cacheCopyBytes: PG_CACHE_COPY_BYTES,
      credits: pgCreditOps({ tx, use: (f) => use('requests', f), closed: () => closed, mustRetryMs: MUST_RETRY_MS, unavailable }),
      leases: {
        async renew(q, owner, until, live) {
          if (live.flights.length > 0) await q(`UPDATE flights SET lease_expires_at = $1 WHERE owner = $2 AND state = 'running' AND id = ANY($3::text[])`, [until, owner, live.flights]);
        },
        async abandon(q, owner) {
          await q(`DELETE FROM flights WHERE owner = $1 AND state = 'running'`, [owner]);
        },
      },
      async purge(q, now, batch) {
        await q(`DELETE FROM rate_buckets WHERE id IN (SELECT id FROM rate_buckets WHERE updated <= $1 LIMIT $2)`, [now - BUCKET_KEEP_MS, batch]);
        await q(`DELETE FROM flights WHERE key IN (SELECT key FROM flights WHERE state <> 'running' AND ended_at <= $1 LIMIT $2)`, [now - FLIGHT_KEEP_MS, batch]);
      },
    }),
    async close() {
      if (closed) return;
      // The observations queued by the live path are written before the pool ends.
      await store.observationsWritten();
      closed = true;
      await ready.catch(() => undefined);
      await Promise.all([pool?.end(), bg?.end()]);
    },
  };
  return store;
}
