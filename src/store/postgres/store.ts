// The shared store: PostgreSQL through node-postgres (`pg`) with a pool, for several `stays serve`
// instances behind a load balancer on one database (docs/deploy.md). The same Store as SQLite
// and the same rules (house rule 7: a credit changes only in a transaction that writes a ledger
// row), made safe across processes by row locks rather than by SQLite's single writer:
//
// - Credits: a hold is one conditional UPDATE of the account's balance row (it locks the row, so
//   concurrent holds on any instance queue on it and none overdraws); settlements delete the hold
//   (locking it) before touching the balance. A cached call's known cost is charged in one
//   statement without a hold (an account's charges batched per instance: chargeQueued). Locks are
//   always taken job → hold → balance, and a transaction that still meets a deadlock or
//   serialization failure is retried whole.
// - Jobs and holds carry owner leases as in SQLite. A job ends only if its row, locked, still names
//   its owner; expiry sweeps and purges each run under a transaction-level advisory lock of their
//   own, one instance at a time.
// - Webhook deliveries are claimed with FOR UPDATE SKIP LOCKED (the one-per-webhook claim, whose
//   condition spans rows, under an advisory lock).
// - Migrations run at start under a session advisory lock, so instances starting together apply
//   each one once.
//
// `pg` loads on first use (a vendor file of the CLI), so the embedded default never pays for it.
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { ServiceError } from '../../core/errors.js';
import { ENTRY_OVERHEAD, Lru, keyBytes } from '../../core/lru.js';
import {
  type AccountRow,
  type ClaimedDelivery,
  type CreditsRow,
  type DeliveryLogRow,
  type HoldResult,
  type KeyRow,
  type NewCharge,
  type OAuthAccess,
  type OAuthClientRow,
  type OAuthIssued,
  type OAuthRedeem,
  type SharedState,
  type Store,
  WEBHOOK_LOG_RETENTION_MS,
  type WebhookEvent,
  type WebhookRow,
} from '../../core/ports/store.js';
import { type Row, toAccount, toJob, toJobSummary, toKey, toLedger } from '../rows.js';
import { WEBHOOK_DISABLE_AFTER, disabledReason, webhookPauseMs } from '../../core/ports/store.js';
import { PG_MIGRATIONS } from './migrations.js';
import { idempotencyStore, purgeIdempotencySql } from './idempotency.js';
import { libpqCompatUrl } from './ssl.js';
import { redactUrl } from '../db-url.js';
import { UNUSED_OAUTH_CLIENT_RETENTION_MS } from '../../core/ports/store.js';

/** Why the store cannot be used (the database is unreachable, refuses us, or is newer than this build). */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
}

/**
 * Advisory lock ids (one namespace per purpose): migrations, expiry sweeps (failExpired), serial
 * delivery claims, purges. Sweeps and purges have a lock each: an instance purging must not make
 * another instance's sweep of expired leases skip its work.
 */
const LOCK = { migrate: 7_361_001, sweep: 7_361_002, deliveries: 7_361_003, purge: 7_361_004 } as const;

/**
 * How long a key looked up by authentication is reused without asking the database again: a key
 * revoked on one instance is refused by every instance within this bound (docs/deploy.md).
 */
export const PG_AUTH_CACHE_MS = 1000;

/** How long an ended flight's outcome is kept for the instances still waiting on it. */
const FLIGHT_KEEP_MS = 60_000;
/** How long past its last update a rate bucket is kept (any bucket is full again within a minute). */
const BUCKET_KEEP_MS = 120_000;
const CODE_KEEP_MS = 86_400_000;

const RETRYABLE = new Set(['40001', '40P01']);

const JOB_LIST = `id, account_id, env, request_id, operation, status, platforms, error, estimated_seconds, created_at, updated_at, expires_at, owner, lease_expires_at,
  CASE WHEN status = 'completed' THEN COALESCE((meta::json->>'creditsCharged')::bigint, 0) ELSE 0 END AS credits_charged
  FROM jobs WHERE account_id = $1 AND env = $2 AND ($3::text IS NULL OR status = $3) AND (expires_at IS NULL OR expires_at > $4)`;

type Q = <R extends QueryResultRow = Row>(sql: string, params?: unknown[]) => Promise<R[]>;

const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));

function toWebhook(r: Row): WebhookRow {
  return {
    id: r.id as string,
    accountId: r.account_id as string,
    env: r.env as WebhookRow['env'],
    url: r.url as string,
    events: JSON.parse(r.events as string) as WebhookEvent[],
    description: (r.description as string | null) ?? null,
    secretEnc: r.secret as string,
    revokedAt: (r.revoked_at as number | null) ?? null,
    createdAt: r.created_at as number,
    consecutiveFailures: (r.consecutive_failures as number | null) ?? 0,
    disabledAt: (r.disabled_at as number | null) ?? null,
    disabledReason: (r.disabled_reason as string | null) ?? null,
  };
}

const toClient = (r: Row): OAuthClientRow => ({
  id: r.id as string,
  name: (r.name as string | null) ?? null,
  redirectUris: JSON.parse(r.redirect_uris as string) as string[],
  createdAt: r.created_at as number,
});

const toDelivery = (r: Row): ClaimedDelivery => ({
  id: r.id as string,
  webhookId: r.webhook_id as string,
  event: r.event as WebhookEvent,
  body: r.body as string,
  attempts: r.attempts as number,
  url: r.url as string,
  secretEnc: r.secret as string,
});

/** The most the instance keeps of cache entries it read or wrote (cacheGet). */
const PG_CACHE_COPY_BYTES = 64 * 1024 * 1024;

/** The most charges of one account one statement carries (chargeQueued). */
const CHARGE_BATCH_MAX = 64;

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
    await c.query('SELECT pg_advisory_lock($1)', [LOCK.migrate]);
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
      await c.query('SELECT pg_advisory_unlock($1)', [LOCK.migrate]).catch(() => undefined);
    }
  } finally {
    c.release();
  }
}

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

  const query: Q = (sql, params) => use('requests', async (c) => (await c.query(sql, params as unknown[])).rows as never);

  interface TxOptions {
    /** Ends or refunds work already admitted: retried through faults for MUST_RETRY_MS. */
    must?: boolean;
    /** On the background pool (heartbeat, sweeps, purges, shutdown). */
    background?: boolean;
    /**
     * `f` sends one statement, atomic by itself: no BEGIN/COMMIT round trips, and its row locks
     * are held only while the statement runs, not across a round trip to this process.
     */
    single?: boolean;
  }

  /**
   * One transaction on one connection, retried whole on a deadlock or serialization failure, and
   * (`must`) on a database fault until MUST_RETRY_MS has passed. Retrying after a fault is safe for
   * the statements that use it: each re-checks under its row locks whether its work is still to do
   * (a hold already settled is gone, a job already ended no longer names its owner).
   */
  async function tx<T>(f: (q: Q, c: PoolClient, attempt: number) => Promise<T>, o: TxOptions = {}): Promise<T> {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        return await use(o.background ? 'background' : 'requests', async (c) => {
          const q: Q = async (sql, params) => (await c.query(sql, params as unknown[])).rows as never;
          if (o.single === true) return await f(q, c, attempt);
          try {
            await c.query('BEGIN');
            const r = await f(q, c, attempt);
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
        const fault = o.must === true && e instanceof ServiceError && e.code === 'database_unavailable' && Date.now() - started < MUST_RETRY_MS && !closed;
        if (!conflict && !fault) throw e;
        await new Promise((r) => setTimeout(r, conflict ? 5 * attempt + Math.random() * 20 : Math.min(1000, 50 * 2 ** attempt) * (0.5 + Math.random() / 2)));
      }
    }
  }

  const creditsOf = async (q: Q, accountId: string): Promise<CreditsRow> => {
    const r = (await q(`SELECT balance, held, spent FROM credit_balances WHERE account_id = $1`, [accountId]))[0];
    return { balance: (r?.balance as number) ?? 0, held: (r?.held as number) ?? 0, spent: (r?.spent as number) ?? 0, expiringSoon: 0 };
  };
  const toCredits = (r: Row): CreditsRow => ({ balance: r.balance as number, held: r.held as number, spent: r.spent as number, expiringSoon: 0 });

  const ledgerRow = (
    q: Q,
    l: { accountId: string; kind: string; amount: number; balanceAfter: number; requestId: string | null; jobId: string | null; keyId: string | null; note: string | null; at: number },
  ) =>
    q(`INSERT INTO credit_ledger (account_id, kind, amount, balance_after, request_id, job_id, key_id, note, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, [
      l.accountId,
      l.kind,
      l.amount,
      l.balanceAfter,
      l.requestId,
      l.jobId,
      l.keyId,
      l.note,
      l.at,
    ]);

  const grant = async (q: Q, accountId: string, amount: number, requestId: string | null, note: string | null, at: number): Promise<CreditsRow> => {
    const r = (await q(`UPDATE credit_balances SET balance = balance + $1 WHERE account_id = $2 RETURNING balance, held, spent`, [amount, accountId]))[0];
    if (!r) throw new RangeError(`no account ${accountId}`);
    await ledgerRow(q, { accountId, kind: 'grant', amount, balanceAfter: r.balance as number, requestId, jobId: null, keyId: null, note, at });
    return toCredits(r);
  };

  /** Releases a hold and debits `charge` with its ledger row; null when the hold is gone. */
  const settle = async (q: Q, holdId: string, charge: number, requestId: string, jobId: string | null, at: number, retry = false): Promise<CreditsRow | null> => {
    if (!Number.isSafeInteger(charge) || charge < 0) throw new RangeError(`charge ${charge} is not a credit amount`);
    // One statement: the hold deleted, the balance debited and the ledger row written together
    // (the hold only if it covers the charge), so the balance row is locked for one statement.
    const r = (
      await q(
        `WITH h AS (DELETE FROM credit_holds WHERE id = $1 AND amount >= $2 RETURNING account_id, amount),
         b AS (UPDATE credit_balances c SET held = c.held - h.amount, balance = c.balance - $2, spent = c.spent + $2
               FROM h WHERE c.account_id = h.account_id RETURNING c.account_id, c.balance, c.held, c.spent),
         l AS (INSERT INTO credit_ledger (account_id, kind, amount, balance_after, request_id, job_id, key_id, note, created_at)
               SELECT account_id, 'charge', -$2::bigint, balance, $3::text, $4::text, NULL, NULL, $5::bigint FROM b WHERE $2::bigint > 0)
         SELECT balance, held, spent FROM b`,
        [holdId, charge, requestId, jobId, at],
      )
    )[0];
    if (r) return toCredits(r);
    const left = (await q(`SELECT amount FROM credit_holds WHERE id = $1`, [holdId]))[0];
    if (left) throw new RangeError(`charge ${charge} outside hold ${left.amount as number}`);
    // A retry after a fault whose first attempt landed (its answer lost on the way back): the
    // charge row it wrote says so, and the caller must hear "charged", not "released".
    if (retry && charge > 0) {
      const mine = await q(`SELECT 1 FROM credit_ledger WHERE request_id = $1 AND job_id IS NOT DISTINCT FROM $2 AND kind = 'charge' AND amount = $3 AND created_at = $4 LIMIT 1`, [
        requestId,
        jobId,
        -charge,
        at,
      ]);
      if (mine.length > 0) {
        const b = (await q(`SELECT c.balance, c.held, c.spent FROM credit_balances c JOIN credit_ledger l ON l.account_id = c.account_id WHERE l.request_id = $1 LIMIT 1`, [requestId]))[0];
        if (b) return toCredits(b);
      }
    }
    return null;
  };

  /**
   * Known costs charged in one statement (Store.charge): admitted under the balance row's lock by
   * the checks a hold of `admit` would pass, debited, and their ledger rows written, so the row is
   * locked for one statement and a cached call costs one round trip for its money, not two.
   *
   * Several charges of one account (`items`, in order) go in one statement only if every one of
   * them passes, each after the ones before it: balance - held covers, for every i, the charges
   * before i plus admit_i (and the free-tier budget likewise), which is exactly the condition for
   * them all to pass one by one in that order. Otherwise nothing changes and the answer is null
   * (the caller then charges them one by one). Each has its own ledger row, whose balance_after
   * is the balance right after it.
   *
   * No hold row makes a retry safe as it makes a settlement's, so a statement whose answer was lost
   * (sent, then the connection failed) is resolved before anything is sent again: the backend it
   * ran on is ended and waited for (it then either committed or never will), and the ledger row
   * says which. Only then is the statement sent again; a fault before it left this process is
   * answered at once (nothing can have landed). Through MUST_RETRY_MS, as a settlement.
   */
  const chargeBatch = async (items: readonly NewCharge[]): Promise<HoldResult[] | null> => {
    const first = items[0]!;
    const accountId = first.accountId;
    const budget = first.freeTierBudget;
    // need = max over i of (charges before i + admit_i); later_i = what the ones after i take.
    let need = 0;
    let total = 0;
    for (const c of items) {
      need = Math.max(need, total + c.admit);
      total += c.charge;
    }
    let before = 0;
    const later = items.map((c) => {
      before += c.charge;
      return total - before;
    });
    const probe = items.find((c) => c.charge > 0);
    const started = Date.now();
    let lost: number | undefined;
    for (let attempt = 1; ; attempt++) {
      let sentOn: number | undefined;
      try {
        return await use('requests', async (conn) => {
          const q: Q = async (sql, params) => (await conn.query(sql, params as unknown[])).rows as never;
          if (lost !== undefined) {
            await endBackend(q, lost, started);
            if (probe) {
              const landed = await q(
                `SELECT c.balance, c.held, c.spent FROM credit_ledger l JOIN credit_balances c ON c.account_id = l.account_id
                 WHERE l.request_id = $1 AND l.account_id = $2 AND l.job_id IS NULL AND l.kind = 'charge' AND l.amount = $3 AND l.created_at = $4 LIMIT 1`,
                [probe.requestId, accountId, -probe.charge, probe.at],
              );
              if (landed[0]) return items.map(() => ({ ok: true as const, credits: toCredits(landed[0]!) }));
            }
            lost = undefined;
          }
          sentOn = (conn as unknown as { processID?: number }).processID ?? -1;
          const r = (
            await q(
              `WITH b AS (UPDATE credit_balances SET balance = balance - $3, spent = spent + $3
                          WHERE account_id = $1 AND balance - held >= $2 AND ($4::bigint IS NULL OR spent + held + $2 <= $4)
                          RETURNING account_id, balance, held, spent),
               l AS (INSERT INTO credit_ledger (account_id, kind, amount, balance_after, request_id, job_id, key_id, note, created_at)
                     SELECT b.account_id, 'charge', -x.c, b.balance + x.later, x.r, NULL, NULL, NULL, x.at
                     FROM b, unnest($5::bigint[], $6::text[], $7::bigint[], $8::bigint[]) WITH ORDINALITY AS x(c, r, at, later, n)
                     WHERE x.c > 0 ORDER BY x.n)
               SELECT balance, held, spent FROM b`,
              [accountId, need, total, budget, items.map((c) => c.charge), items.map((c) => c.requestId), items.map((c) => c.at), later],
            )
          )[0];
          if (r) {
            const after = toCredits(r);
            return items.map((_, i) => ({ ok: true as const, credits: { ...after, balance: after.balance + later[i]!, spent: after.spent - later[i]! } }));
          }
          if (items.length > 1) return null;
          const now = await creditsOf(q, accountId);
          const reason = budget !== null && now.spent + now.held + first.admit > budget ? ('free_tier' as const) : ('balance' as const);
          return [{ ok: false as const, reason, credits: now }];
        });
      } catch (e) {
        const code = (e as { code?: unknown }).code;
        const conflict = typeof code === 'string' && RETRYABLE.has(code) && attempt < 8;
        const fault = e instanceof ServiceError && e.code === 'database_unavailable';
        // The statement left on a connection that failed: it may have landed.
        if (fault && sentOn !== undefined) lost = sentOn;
        const retry = conflict || (fault && lost !== undefined && Date.now() - started < MUST_RETRY_MS && !closed);
        if (!retry) throw e;
        await new Promise((r) => setTimeout(r, conflict ? 5 * attempt + Math.random() * 20 : Math.min(1000, 50 * 2 ** attempt) * (0.5 + Math.random() / 2)));
      }
    }
  };

  /**
   * One charge statement per account in flight from this instance: charges that arrive meanwhile
   * wait for it and then go together (up to CHARGE_BATCH_MAX, in arrival order), so an account's
   * balance row is locked, and its commit waits for the disk, once for all of them. A busy account
   * is otherwise bounded by one commit at a time (docs/decisions.md, issue 23); a quiet one pays
   * nothing, its charge leaving at once.
   */
  interface Waiting {
    c: NewCharge;
    done: (r: HoldResult) => void;
    fail: (e: unknown) => void;
  }
  const charging = new Map<string, Waiting[]>();
  const chargeQueued = (c: NewCharge): Promise<HoldResult> =>
    new Promise((done, fail) => {
      const queue = charging.get(c.accountId);
      if (queue) {
        queue.push({ c, done, fail });
        return;
      }
      const mine: Waiting[] = [{ c, done, fail }];
      charging.set(c.accountId, mine);
      void drainCharges(mine);
    });
  const drainCharges = async (queue: Waiting[]): Promise<void> => {
    for (;;) {
      // One budget per statement (an account's plan may change between two calls).
      const budget = queue[0]!.c.freeTierBudget;
      let n = 1;
      while (n < queue.length && n < CHARGE_BATCH_MAX && queue[n]!.c.freeTierBudget === budget) n++;
      const batch = queue.slice(0, n);
      try {
        const all = await chargeBatch(batch.map((w) => w.c));
        if (all) batch.forEach((w, i) => w.done(all[i]!));
        else {
          // Not all of them pass together: one by one, in order, each answered as it is decided.
          for (const w of batch) {
            try {
              w.done((await chargeBatch([w.c]))![0]!);
            } catch (e) {
              w.fail(e);
            }
          }
        }
      } catch (e) {
        for (const w of batch) w.fail(e);
      }
      queue.splice(0, n);
      if (queue.length === 0) {
        charging.delete(batch[0]!.c.accountId);
        return;
      }
    }
  };

  /**
   * Ends the backend `pid` (a connection this process lost mid-statement) and waits until it is
   * gone, so whatever it ran has committed or never will. A role that may not signal it waits for
   * PostgreSQL's own connection check to end it instead.
   */
  const endBackend = async (q: Q, pid: number, started: number): Promise<void> => {
    if (pid < 0) throw unavailable(new Error('the lost connection has no backend id'));
    await q(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = $1`, [pid]).catch((e: unknown) => {
      if ((e as { code?: unknown }).code !== '42501') throw e;
    });
    for (;;) {
      if ((await q(`SELECT 1 FROM pg_stat_activity WHERE pid = $1`, [pid])).length === 0) return;
      if (Date.now() - started >= MUST_RETRY_MS) throw unavailable(new Error(`backend ${pid} of a lost connection is still running`));
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  /** Deletes the holds and gives their amounts back to `held`, account by account in id order (no deadlocks between sweeps). */
  const releaseHolds = async (q: Q, where: string, params: unknown[]): Promise<number> => {
    const rows = await q(`DELETE FROM credit_holds WHERE ${where} RETURNING account_id, amount`, params);
    const by = new Map<string, number>();
    for (const r of rows) by.set(r.account_id as string, (by.get(r.account_id as string) ?? 0) + (r.amount as number));
    for (const id of [...by.keys()].sort()) await q(`UPDATE credit_balances SET held = held - $1 WHERE account_id = $2`, [by.get(id), id]);
    return rows.length;
  };

  const failJobs = async (q: Q, where: string, params: unknown[], error: string, at: number, expiresAt: number) => {
    const n = params.length;
    const jobs = (
      await q(
        `UPDATE jobs SET status = 'failed', result = NULL, meta = NULL, error = $${n + 1}, updated_at = $${n + 2}, expires_at = $${n + 3}, owner = NULL
         WHERE status IN ('pending', 'running') AND ${where} RETURNING id`,
        [...params, error, at, expiresAt],
      )
    ).map((r) => r.id as string);
    const holds = jobs.length === 0 ? 0 : await releaseHolds(q, 'job_id = ANY($1::text[])', [jobs]);
    return { jobs, holds };
  };

  // Authentication reads the same few keys on every request: each instance reuses a lookup for
  // PG_AUTH_CACHE_MS (its own admin writes clear it at once).
  const authCache = new Map<string, { at: number; found: { key: KeyRow; account: AccountRow } }>();
  // Cache entries this instance read or wrote, until their expiry (cacheGet), within PG_CACHE_COPY_BYTES.
  const cacheCopies = new Lru<string, { text: string; storedAt: number; expiresAt: number }>({
    maxBytes: PG_CACHE_COPY_BYTES,
    sizeOf: (v, k) => keyBytes(k) + keyBytes(v.text) + ENTRY_OVERHEAD,
  });

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

  const store: Store = {
    kind: 'postgres',
    ready: () => ready,
    admit() {
      // New work waits at the door rather than in the pool's queue once that queue is full.
      const waiting = pool?.waitingCount ?? 0;
      if (waiting >= queueMax) throw busy(`${waiting} requests already wait for a database connection`);
    },
    shared,
    async createAccount(a, initial, requestId) {
      const row = await tx(async (q) => {
        await q(`INSERT INTO accounts (id, plan_code, plan_name, plan_status, email_verified, requests_per_minute, free_tier_budget, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
          a.id,
          a.planCode,
          a.planName,
          a.planStatus,
          a.emailVerified ? 1 : 0,
          a.requestsPerMinute,
          a.freeTierBudget,
          a.createdAt,
        ]);
        await q(`INSERT INTO credit_balances (account_id, balance) VALUES ($1, 0)`, [a.id]);
        if (initial > 0) await grant(q, a.id, initial, requestId, 'initial credits', a.createdAt);
        return (await q(`SELECT * FROM accounts WHERE id = $1`, [a.id]))[0]!;
      });
      authCache.clear();
      return toAccount(row);
    },
    async getAccount(id) {
      const r = (await query(`SELECT * FROM accounts WHERE id = $1`, [id]))[0];
      return r ? toAccount(r) : null;
    },
    async listAccounts() {
      return (await query(`SELECT * FROM accounts ORDER BY created_at, id`)).map(toAccount);
    },
    async createKey(k) {
      const r = (
        await query(`INSERT INTO api_keys (id, account_id, env, scopes, hash, prefix, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`, [
          k.id,
          k.accountId,
          k.env,
          k.scopes.join(','),
          k.hash,
          k.prefix,
          k.createdAt,
        ])
      )[0]!;
      authCache.clear();
      return toKey(r);
    },
    async findKeyByHash(hash) {
      const now = Date.now();
      const hit = authCache.get(hash);
      if (hit && now - hit.at < PG_AUTH_CACHE_MS) return hit.found;
      const r = (
        await query(
          `SELECT k.*, a.id AS a_id, a.plan_code, a.plan_name, a.plan_status, a.email_verified, a.requests_per_minute, a.free_tier_budget, a.disabled, a.created_at AS a_created_at
           FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.hash = $1`,
          [hash],
        )
      )[0];
      if (!r) {
        authCache.delete(hash);
        return null;
      }
      const found = { key: toKey(r), account: toAccount({ ...r, id: r.a_id, created_at: r.a_created_at }) };
      if (authCache.size >= 10_000) authCache.clear();
      authCache.set(hash, { at: now, found });
      return found;
    },
    async listKeys(accountId) {
      return (await query(`SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at, id`, [accountId])).map(toKey);
    },
    async revokeKey(id, at) {
      const r = (await query(`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 RETURNING *`, [at, id]))[0];
      authCache.clear();
      return r ? toKey(r) : null;
    },
    async getCredits(accountId) {
      return creditsOf(query, accountId);
    },
    async grantCredits(accountId, amount, ref, at) {
      if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError('credits must be a positive integer');
      return tx((q) => grant(q, accountId, amount, ref.requestId, ref.note ?? null, at));
    },
    async topup(t) {
      if (!Number.isSafeInteger(t.credits) || t.credits <= 0) throw new RangeError('credits must be a positive integer');
      return tx(async (q) => {
        // The balance row's lock orders concurrent top-ups of one account, so the cap holds.
        await q(`SELECT 1 FROM credit_balances WHERE account_id = $1 FOR UPDATE`, [t.accountId]);
        const used = (await q(`SELECT COALESCE(SUM(amount), 0)::bigint AS used FROM credit_ledger WHERE account_id = $1 AND kind = 'topup' AND created_at >= $2`, [t.accountId, t.since]))[0]!
          .used as number;
        if (used + t.credits > t.max) return { ok: false as const, used };
        const r = (await q(`UPDATE credit_balances SET balance = balance + $1 WHERE account_id = $2 RETURNING balance, held, spent`, [t.credits, t.accountId]))[0]!;
        await ledgerRow(q, { accountId: t.accountId, kind: 'topup', amount: t.credits, balanceAfter: r.balance as number, requestId: t.requestId, jobId: null, keyId: t.keyId, note: null, at: t.at });
        return { ok: true as const, credits: toCredits(r) };
      });
    },
    async ledger(accountId) {
      return (await query(`SELECT * FROM credit_ledger WHERE account_id = $1 ORDER BY id`, [accountId])).map(toLedger);
    },
    async hold(h) {
      return tx(
        async (q) => {
          // One statement checks and reserves under the balance row's lock and writes the hold, so
          // the lock is not held across a round trip.
          const r = (
            await q(
              `WITH b AS (UPDATE credit_balances SET held = held + $2
                          WHERE account_id = $1 AND balance - held >= $2 AND ($3::bigint IS NULL OR spent + held + $2 <= $3)
                          RETURNING balance, held, spent),
               i AS (INSERT INTO credit_holds (id, account_id, amount, request_id, job_id, created_at, owner, lease_expires_at)
                     SELECT $4::text, $1::text, $2::bigint, $5::text, $6::text, $7::bigint, $8::text, $9::bigint FROM b)
               SELECT balance, held, spent FROM b`,
              [h.accountId, h.amount, h.freeTierBudget, h.id, h.requestId, h.jobId, h.at, h.lease.owner, h.lease.expiresAt],
            )
          )[0];
          if (r) return { ok: true as const, credits: toCredits(r) };
          const c = await creditsOf(q, h.accountId);
          const reason = h.freeTierBudget !== null && c.spent + c.held + h.amount > h.freeTierBudget ? ('free_tier' as const) : ('balance' as const);
          return { ok: false as const, reason, credits: c };
        },
        { single: true },
      );
    },
    async settleHold(holdId, charge, ref) {
      return tx((q, _c, attempt) => settle(q, holdId, charge, ref.requestId, ref.jobId, ref.at, attempt > 1), { must: true, single: true });
    },
    async charge(c) {
      // D5: a call never charges more than it would have held.
      if (!Number.isSafeInteger(c.charge) || c.charge < 0 || c.charge > c.admit) throw new RangeError(`charge ${c.charge} outside ${c.admit}`);
      return chargeQueued(c);
    },
    async createJob(j) {
      await query(
        `INSERT INTO jobs (id, account_id, env, request_id, operation, status, platforms, estimated_seconds, created_at, updated_at, owner, lease_expires_at)
         VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7, $8, $8, $9, $10)`,
        [j.id, j.accountId, j.env, j.requestId, j.operation, JSON.stringify(j.platforms), j.estimatedSeconds, j.createdAt, j.lease.owner, j.lease.expiresAt],
      );
    },
    async startJob(id, owner, at) {
      return (await query(`UPDATE jobs SET status = 'running', updated_at = $1 WHERE id = $2 AND owner = $3 AND status = 'pending' RETURNING id`, [at, id, owner])).length === 1;
    },
    async finishJob(e) {
      return tx(
        async (q) => {
          // The job's end first (its row locked, if this owner still has it), the settlement last:
          // the account's balance row is then locked only until the COMMIT that follows.
          const owned = await q(
            `UPDATE jobs SET status = $3, result = $4, meta = $5, error = $6, updated_at = $7, expires_at = $8, owner = NULL
           WHERE id = $1 AND owner = $2 AND status IN ('pending', 'running') RETURNING 1`,
            [e.jobId, e.owner, e.status, json(e.result), json(e.meta), json(e.error), e.at, e.expiresAt],
          );
          if (owned.length === 0) return false;
          // The job's row is ours and locked: its hold cannot have been released by a sweep.
          if ((await settle(q, e.holdId, e.charge, e.requestId, e.jobId, e.at)) === null) throw new Error(`job ${e.jobId} has no hold ${e.holdId}`);
          return true;
        },
        { must: true },
      );
    },
    async getJob(id) {
      const r = (await query(`SELECT * FROM jobs WHERE id = $1`, [id]))[0];
      return r ? toJob(r) : null;
    },
    async listJobs(l) {
      const base = [l.accountId, l.env, l.status, l.now];
      const rows =
        l.after === null
          ? await query(`SELECT ${JOB_LIST} ORDER BY created_at DESC, id DESC LIMIT $5`, [...base, l.limit])
          : await query(`SELECT ${JOB_LIST} AND (created_at, id) < ($5, $6) ORDER BY created_at DESC, id DESC LIMIT $7`, [...base, l.after.createdAt, l.after.id, l.limit]);
      return rows.map(toJobSummary);
    },
    async renewLeases(owner, until, live) {
      if (live.jobs.length + live.holds.length + live.flights.length === 0) return;
      await tx(
        async (q) => {
          if (live.jobs.length > 0) await q(`UPDATE jobs SET lease_expires_at = $1 WHERE owner = $2 AND status IN ('pending', 'running') AND id = ANY($3::text[])`, [until, owner, live.jobs]);
          if (live.holds.length > 0) await q(`UPDATE credit_holds SET lease_expires_at = $1 WHERE owner = $2 AND id = ANY($3::text[])`, [until, owner, live.holds]);
          if (live.flights.length > 0) await q(`UPDATE flights SET lease_expires_at = $1 WHERE owner = $2 AND state = 'running' AND id = ANY($3::text[])`, [until, owner, live.flights]);
        },
        { background: true },
      );
    },
    async failExpired(error, now, retainUntil) {
      return tx(
        async (q) => {
          // One sweeper at a time; the others find nothing left to do.
          if (!(await q(`SELECT pg_try_advisory_xact_lock($1) AS ok`, [LOCK.sweep]))[0]!.ok) return { jobs: [], holds: 0 };
          const r = await failJobs(q, 'lease_expires_at <= $1', [now], JSON.stringify(error), now, retainUntil);
          return { jobs: r.jobs, holds: r.holds + (await releaseHolds(q, 'lease_expires_at <= $1', [now])) };
        },
        { background: true },
      );
    },
    async cancelJob(id, error, now, retainUntil) {
      // failJobs takes the row lock: a finishJob of its owner either committed first (then the job
      // is no longer pending or running and nothing changes here) or finds it ended.
      return tx(async (q) => (await failJobs(q, 'id = $1', [id], JSON.stringify(error), now, retainUntil)).jobs.length === 1, { must: true });
    },
    async abandon(owner, error, now, retainUntil) {
      return tx(
        async (q) => {
          const r = await failJobs(q, 'owner = $1', [owner], JSON.stringify(error), now, retainUntil);
          await q(`DELETE FROM flights WHERE owner = $1 AND state = 'running'`, [owner]);
          return { jobs: r.jobs, holds: r.holds + (await releaseHolds(q, 'owner = $1', [owner])) };
        },
        { background: true },
      );
    },
    async purgeExpired(now, batch) {
      return tx(
        async (q) => {
          // One purger at a time; the others find nothing left to do.
          if (!(await q(`SELECT pg_try_advisory_xact_lock($1) AS ok`, [LOCK.purge]))[0]!.ok) return { jobs: 0, cache: 0, webhooks: 0 };
          const count = async (sql: string, params: unknown[]) => (await q(sql, params)).length;
          const jobs = await count(`DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE expires_at IS NOT NULL AND expires_at <= $1 AND status IN ('completed', 'failed') LIMIT $2) RETURNING 1`, [
            now,
            batch,
          ]);
          const cache = await count(`DELETE FROM cache_entries WHERE key IN (SELECT key FROM cache_entries WHERE expires_at <= $1 LIMIT $2) RETURNING 1`, [now, batch]);
          const before = now - WEBHOOK_LOG_RETENTION_MS;
          const webhooks =
            (await count(`DELETE FROM webhook_outbox WHERE id IN (SELECT id FROM webhook_outbox WHERE status <> 'pending' AND created_at <= $1 LIMIT $2) RETURNING 1`, [before, batch])) +
            (await count(`DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries WHERE attempted_at <= $1 LIMIT $2) RETURNING 1`, [before, batch]));
          await q(`DELETE FROM oauth_codes WHERE hash IN (SELECT hash FROM oauth_codes WHERE expires_at <= $1 LIMIT $2)`, [now - CODE_KEEP_MS, batch]);
          await q(`DELETE FROM oauth_tokens WHERE hash IN (SELECT hash FROM oauth_tokens WHERE expires_at <= $1 LIMIT $2)`, [now, batch]);
          // Registration is unauthenticated (issue 21): a client that never got a grant and has no code goes after a day.
          await q(
            `DELETE FROM oauth_clients WHERE id IN (SELECT c.id FROM oauth_clients c WHERE c.created_at <= $1
             AND NOT EXISTS (SELECT 1 FROM oauth_grants g WHERE g.client_id = c.id) AND NOT EXISTS (SELECT 1 FROM oauth_codes o WHERE o.client_id = c.id) LIMIT $2)`,
            [now - UNUSED_OAUTH_CLIENT_RETENTION_MS, batch],
          );
          await q(`DELETE FROM rate_buckets WHERE id IN (SELECT id FROM rate_buckets WHERE updated <= $1 LIMIT $2)`, [now - BUCKET_KEEP_MS, batch]);
          await q(`DELETE FROM flights WHERE key IN (SELECT key FROM flights WHERE state <> 'running' AND ended_at <= $1 LIMIT $2)`, [now - FLIGHT_KEEP_MS, batch]);
          await q(purgeIdempotencySql, [now, batch]);
          return { jobs, cache, webhooks };
        },
        { background: true },
      );
    },

    // ---- webhooks ----
    async createWebhook(w, maxActive = Number.POSITIVE_INFINITY) {
      return tx(async (q) => {
        // The account row's lock orders concurrent creations, so the cap holds.
        await q(`SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE`, [w.accountId]);
        const n = (await q(`SELECT COUNT(*) AS n FROM webhooks WHERE account_id = $1 AND revoked_at IS NULL`, [w.accountId]))[0]!.n as number;
        if (n >= maxActive) return null;
        const r = (
          await q(`INSERT INTO webhooks (id, account_id, url, events, description, secret, created_at, env) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`, [
            w.id,
            w.accountId,
            w.url,
            JSON.stringify(w.events),
            w.description,
            w.secretEnc,
            w.createdAt,
            w.env,
          ])
        )[0]!;
        return toWebhook(r);
      });
    },
    async listWebhooks(accountId, env) {
      return (await query(`SELECT * FROM webhooks WHERE account_id = $1 AND env = $2 ORDER BY created_at DESC, id DESC`, [accountId, env])).map(toWebhook);
    },
    async getWebhook(id) {
      const r = (await query(`SELECT * FROM webhooks WHERE id = $1`, [id]))[0];
      return r ? toWebhook(r) : null;
    },
    async revokeWebhook(id, accountId, at) {
      return tx(async (q) => {
        const r = (await q(`UPDATE webhooks SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 AND account_id = $3 RETURNING *`, [at, id, accountId]))[0];
        if (!r) return null;
        await q(`UPDATE webhook_outbox SET status = 'cancelled', owner = NULL, lease_expires_at = NULL WHERE webhook_id = $1 AND status = 'pending'`, [id]);
        return toWebhook(r);
      });
    },
    async webhooksFor(accountId, event, env) {
      return (await query(`SELECT * FROM webhooks WHERE account_id = $1 AND env = $2 AND revoked_at IS NULL AND disabled_at IS NULL ORDER BY created_at, id`, [accountId, env]))
        .map(toWebhook)
        .filter((w) => w.events.includes(event));
    },
    async enqueueDeliveries(list) {
      if (list.length === 0) return;
      await tx(async (q) => {
        for (const d of list) {
          await q(`INSERT INTO webhook_outbox (id, webhook_id, event, body, next_attempt_at, created_at) VALUES ($1, $2, $3, $4, $5, $5)`, [d.id, d.webhookId, d.event, d.body, d.createdAt]);
        }
      });
    },
    async claimDeliveries(owner, now, leaseUntil, limit, opts) {
      return tx(async (q) => {
        let rows: Row[];
        if (opts?.onePerWebhook && opts.perAccount !== undefined) {
          // Fair (issue 21): as below, then each account in turn: `turn` is the account's
          // deliveries in flight (any instance) plus the delivery's rank among the account's,
          // oldest first; at most perAccount. Paused (failing) and disabled webhooks wait.
          await q(`SELECT pg_advisory_xact_lock($1)`, [LOCK.deliveries]);
          rows = await q(
            `WITH busy AS (
               SELECT w.account_id, COUNT(*) AS n FROM webhook_outbox b JOIN webhooks w ON w.id = b.webhook_id
               WHERE b.status = 'pending' AND b.owner IS NOT NULL AND b.lease_expires_at > $1 GROUP BY w.account_id
             ), heads AS (
               SELECT o.id, o.webhook_id, o.event, o.body, o.attempts, o.next_attempt_at, o.seq, w.url, w.secret, w.account_id,
                      ROW_NUMBER() OVER (PARTITION BY o.webhook_id ORDER BY o.next_attempt_at, o.seq) AS n
               FROM webhook_outbox o JOIN webhooks w ON w.id = o.webhook_id
               WHERE o.status = 'pending' AND o.next_attempt_at <= $1 AND (o.owner IS NULL OR o.lease_expires_at <= $1)
                 AND w.revoked_at IS NULL AND w.disabled_at IS NULL AND (w.paused_until IS NULL OR w.paused_until <= $1)
                 AND NOT EXISTS (SELECT 1 FROM webhook_outbox b WHERE b.webhook_id = o.webhook_id AND b.status = 'pending' AND b.owner IS NOT NULL AND b.lease_expires_at > $1)
             ), ranked AS (
               SELECT h.*, COALESCE(busy.n, 0) + ROW_NUMBER() OVER (PARTITION BY h.account_id ORDER BY h.next_attempt_at, h.seq) AS turn
               FROM heads h LEFT JOIN busy ON busy.account_id = h.account_id WHERE h.n = 1
             )
             SELECT id, webhook_id, event, body, attempts, url, secret FROM ranked WHERE turn <= $3 ORDER BY turn, next_attempt_at, seq LIMIT $2`,
            [now, limit, opts.perAccount],
          );
        } else if (opts?.onePerWebhook) {
          // "None of this webhook in flight" spans rows, which SKIP LOCKED cannot see: serial
          // claims take turns under an advisory lock (held for this short transaction only).
          await q(`SELECT pg_advisory_xact_lock($1)`, [LOCK.deliveries]);
          rows = await q(
            `SELECT id, webhook_id, event, body, attempts, url, secret FROM (
               SELECT o.id, o.webhook_id, o.event, o.body, o.attempts, o.next_attempt_at, o.seq, w.url, w.secret,
                      ROW_NUMBER() OVER (PARTITION BY o.webhook_id ORDER BY o.next_attempt_at, o.seq) AS n
               FROM webhook_outbox o JOIN webhooks w ON w.id = o.webhook_id
               WHERE o.status = 'pending' AND o.next_attempt_at <= $1 AND (o.owner IS NULL OR o.lease_expires_at <= $1) AND w.revoked_at IS NULL
                 AND NOT EXISTS (SELECT 1 FROM webhook_outbox b WHERE b.webhook_id = o.webhook_id AND b.status = 'pending' AND b.owner IS NOT NULL AND b.lease_expires_at > $1)
             ) d WHERE n = 1 ORDER BY next_attempt_at, seq LIMIT $2`,
            [now, limit],
          );
        } else {
          rows = await q(
            `SELECT o.id, o.webhook_id, o.event, o.body, o.attempts, w.url, w.secret FROM webhook_outbox o JOIN webhooks w ON w.id = o.webhook_id
             WHERE o.status = 'pending' AND o.next_attempt_at <= $1 AND (o.owner IS NULL OR o.lease_expires_at <= $1) AND w.revoked_at IS NULL
             ORDER BY o.next_attempt_at, o.seq LIMIT $2 FOR UPDATE OF o SKIP LOCKED`,
            [now, limit],
          );
        }
        await q(
          `UPDATE webhook_outbox SET status = 'cancelled', owner = NULL, lease_expires_at = NULL
           WHERE status = 'pending' AND webhook_id IN (SELECT id FROM webhooks WHERE revoked_at IS NOT NULL OR disabled_at IS NOT NULL)`,
        );
        if (rows.length === 0) return [];
        // The one-per-webhook read locks nothing: a row another transaction ended, cancelled (its
        // webhook revoked) or claimed since then is left out here, re-checked under the row lock.
        const claimed = await q(
          `UPDATE webhook_outbox SET owner = $1, lease_expires_at = $2
           WHERE id = ANY($3::text[]) AND status = 'pending' AND (owner IS NULL OR lease_expires_at <= $4) RETURNING id`,
          [owner, leaseUntil, rows.map((r) => r.id), now],
        );
        const ids = new Set(claimed.map((r) => r.id as string));
        return rows.filter((r) => ids.has(r.id as string)).map(toDelivery);
      });
    },
    async recordAttempt(a) {
      return tx(async (q) => {
        const held = (await q(`SELECT webhook_id, event FROM webhook_outbox WHERE id = $1 AND owner = $2 AND status = 'pending' FOR UPDATE`, [a.deliveryId, a.owner]))[0];
        if (!held) return false;
        const hook = held.webhook_id as string;
        await q(`INSERT INTO webhook_deliveries (webhook_id, event, attempt, status_code, response_preview, delivered, attempted_at, event_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
          held.webhook_id,
          held.event,
          a.attempt,
          a.statusCode,
          a.responsePreview,
          a.delivered ? 1 : 0,
          a.at,
          a.deliveryId,
        ]);
        const status = a.delivered ? 'delivered' : a.retryAt === null ? 'failed' : 'pending';
        await q(`UPDATE webhook_outbox SET attempts = $1, status = $2, next_attempt_at = $3, owner = NULL, lease_expires_at = NULL WHERE id = $4`, [a.attempt, status, a.retryAt, a.deliveryId]);
        // Failures in a row (issue 21): a delivery resets them; past a few the webhook pauses; at disableAfter it is disabled.
        if (a.delivered) {
          await q(`UPDATE webhooks SET consecutive_failures = 0, paused_until = NULL WHERE id = $1`, [hook]);
          return true;
        }
        const n = (await q(`UPDATE webhooks SET consecutive_failures = consecutive_failures + 1 WHERE id = $1 RETURNING consecutive_failures`, [hook]))[0]!.consecutive_failures as number;
        if (n >= (a.disableAfter ?? WEBHOOK_DISABLE_AFTER)) {
          await q(`UPDATE webhooks SET paused_until = NULL, disabled_at = COALESCE(disabled_at, $1), disabled_reason = COALESCE(disabled_reason, $2) WHERE id = $3`, [
            a.at,
            disabledReason(n, a.failure),
            hook,
          ]);
          await q(`UPDATE webhook_outbox SET status = 'cancelled', owner = NULL, lease_expires_at = NULL WHERE webhook_id = $1 AND status = 'pending'`, [hook]);
        } else if (webhookPauseMs(n) > 0) {
          await q(`UPDATE webhooks SET paused_until = $1 WHERE id = $2`, [(a.endedAt ?? a.at) + webhookPauseMs(n), hook]);
        }
        return true;
      });
    },
    async nextDeliveryAt() {
      return (
        ((
          await query(
            `SELECT MIN(GREATEST(o.next_attempt_at, COALESCE(w.paused_until, 0))) AS t FROM webhook_outbox o JOIN webhooks w ON w.id = o.webhook_id
             WHERE o.status = 'pending' AND w.revoked_at IS NULL AND w.disabled_at IS NULL`,
          )
        )[0]?.t as number | null) ?? null
      );
    },
    async pendingDeliveries(ids) {
      if (ids.length === 0) return [];
      return (await query(`SELECT id FROM webhook_outbox WHERE status = 'pending' AND id = ANY($1::text[])`, [ids])).map((r) => r.id as string);
    },
    async resendDelivery(webhookId, deliveryId, now) {
      const changed = await query(
        `UPDATE webhook_outbox SET status = 'pending', attempts = 0, next_attempt_at = $1, owner = NULL, lease_expires_at = NULL
         WHERE id = $2 AND webhook_id = $3 AND status <> 'pending' RETURNING id`,
        [now, deliveryId, webhookId],
      );
      if (changed.length === 1) return 'queued';
      return (await query(`SELECT 1 FROM webhook_outbox WHERE id = $1 AND webhook_id = $2`, [deliveryId, webhookId])).length === 0 ? 'missing' : 'pending';
    },
    async listDeliveries(webhookId, limit): Promise<DeliveryLogRow[]> {
      return (await query(`SELECT * FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY id DESC LIMIT $2`, [webhookId, limit])).map((r) => ({
        eventId: (r.event_id as string | null) ?? '',
        event: r.event as WebhookEvent,
        attempt: r.attempt as number,
        statusCode: (r.status_code as number | null) ?? null,
        responsePreview: (r.response_preview as string | null) ?? null,
        delivered: r.delivered === 1,
        attemptedAt: r.attempted_at as number,
      }));
    },

    // ---- OAuth ----
    async createOAuthClient(c, limit) {
      const insert = (q: Q) =>
        q(`INSERT INTO oauth_clients (id, name, redirect_uris, created_at, registered_from) VALUES ($1, $2, $3, $4, $5) RETURNING *`, [
          c.id,
          c.name,
          JSON.stringify(c.redirectUris),
          c.createdAt,
          limit?.address ?? null,
        ]);
      if (!limit) return toClient((await insert(query))[0]!);
      return tx(async (q) => {
        // One registration per address at a time, over every instance: the count and the insert agree.
        await q(`SELECT pg_advisory_xact_lock(7361005, hashtext($1))`, [limit.address]);
        const r = (
          await q(`SELECT COUNT(*)::int AS n, MIN(created_at) AS oldest FROM oauth_clients WHERE registered_from = $1 AND created_at > $2`, [limit.address, c.createdAt - limit.windowMs])
        )[0]!;
        if ((r.n as number) >= limit.max) return { retryAt: Number(r.oldest ?? c.createdAt) + limit.windowMs };
        return toClient((await insert(q))[0]!);
      });
    },
    async getOAuthClient(id) {
      const r = (await query(`SELECT * FROM oauth_clients WHERE id = $1`, [id]))[0];
      return r ? toClient(r) : null;
    },
    async createOAuthCode(c) {
      await query(`INSERT INTO oauth_codes (hash, client_id, redirect_uri, challenge, scope, key_id, expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
        c.hash,
        c.clientId,
        c.redirectUri,
        c.challenge,
        c.scope,
        c.keyId,
        c.expiresAt,
        c.createdAt,
      ]);
    },
    async redeemOAuthCode(r: OAuthRedeem): Promise<OAuthIssued> {
      return tx(async (q) => {
        const code = (await q(`SELECT * FROM oauth_codes WHERE hash = $1 FOR UPDATE`, [r.codeHash]))[0];
        if (!code) return { ok: false, reason: 'unknown' };
        if (code.used_at !== null) {
          if (code.grant_id !== null) await q(`UPDATE oauth_grants SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2`, [r.now, code.grant_id]);
          return { ok: false, reason: 'reused' };
        }
        if ((code.expires_at as number) <= r.now) return { ok: false, reason: 'expired' };
        if (code.client_id !== r.clientId || code.redirect_uri !== r.redirectUri) return { ok: false, reason: 'mismatch' };
        if (!r.verify(code.challenge as string)) return { ok: false, reason: 'verifier' };
        const key = (await q(`SELECT revoked_at FROM api_keys WHERE id = $1`, [code.key_id]))[0];
        if (!key || key.revoked_at !== null) return { ok: false, reason: 'revoked' };
        await q(`UPDATE oauth_codes SET used_at = $1, grant_id = $2 WHERE hash = $3`, [r.now, r.grantId, r.codeHash]);
        await q(`INSERT INTO oauth_grants (id, client_id, key_id, scope, created_at) VALUES ($1, $2, $3, $4, $5)`, [r.grantId, r.clientId, code.key_id, code.scope, r.now]);
        await q(`INSERT INTO oauth_tokens (hash, grant_id, kind, expires_at, created_at) VALUES ($1, $2, 'access', $3, $5), ($4, $2, 'refresh', $6, $5)`, [
          r.access.hash,
          r.grantId,
          r.access.expiresAt,
          r.refresh.hash,
          r.now,
          r.refresh.expiresAt,
        ]);
        return { ok: true, scope: code.scope as string, grantId: r.grantId };
      });
    },
    async rotateOAuthRefresh(r) {
      return tx(async (q) => {
        const t = (
          await q(
            `SELECT t.expires_at, t.used_at, g.id AS grant_id, g.client_id, g.scope, g.revoked_at, k.revoked_at AS key_revoked_at
             FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id JOIN api_keys k ON k.id = g.key_id
             WHERE t.hash = $1 AND t.kind = 'refresh' FOR UPDATE OF t`,
            [r.hash],
          )
        )[0];
        if (!t) return { ok: false, reason: 'unknown' };
        if (t.client_id !== r.clientId) return { ok: false, reason: 'mismatch' };
        if (t.revoked_at !== null || t.key_revoked_at !== null) return { ok: false, reason: 'revoked' };
        if (t.used_at !== null) {
          await q(`UPDATE oauth_grants SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2`, [r.now, t.grant_id]);
          return { ok: false, reason: 'reused' };
        }
        if ((t.expires_at as number) <= r.now) return { ok: false, reason: 'expired' };
        await q(`UPDATE oauth_tokens SET used_at = $1 WHERE hash = $2`, [r.now, r.hash]);
        await q(`INSERT INTO oauth_tokens (hash, grant_id, kind, expires_at, created_at) VALUES ($1, $2, 'access', $3, $5), ($4, $2, 'refresh', $6, $5)`, [
          r.access.hash,
          t.grant_id,
          r.access.expiresAt,
          r.refresh.hash,
          r.now,
          r.refresh.expiresAt,
        ]);
        return { ok: true, scope: t.scope as string, grantId: t.grant_id as string };
      });
    },
    async findOAuthAccess(hash): Promise<OAuthAccess | null> {
      const r = (
        await query(
          `SELECT t.expires_at AS token_expires_at, g.id AS grant_id, g.client_id AS grant_client_id, g.scope AS grant_scope, k.*
           FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id JOIN api_keys k ON k.id = g.key_id
           WHERE t.hash = $1 AND t.kind = 'access' AND g.revoked_at IS NULL`,
          [hash],
        )
      )[0];
      if (!r) return null;
      const a = (await query(`SELECT * FROM accounts WHERE id = $1`, [r.account_id]))[0];
      if (!a) return null;
      return {
        hash,
        expiresAt: r.token_expires_at as number,
        scope: r.grant_scope as string,
        clientId: r.grant_client_id as string,
        grantId: r.grant_id as string,
        key: toKey(r),
        account: toAccount(a),
      };
    },

    ...idempotencyStore(query),

    // ---- cache ----
    async cacheGet(key, now) {
      // An entry is good until its expiry whoever reads it, so each instance keeps the ones it read
      // or wrote: a hot answer costs no round trip (the text is kept, and parsed per hit, so no two
      // requests share one object).
      const near = cacheCopies.get(key);
      if (near !== undefined && near.expiresAt > now) return { value: JSON.parse(near.text), storedAt: near.storedAt };
      const r = (await query(`SELECT value, stored_at, expires_at FROM cache_entries WHERE key = $1 AND expires_at > $2`, [key, now]))[0];
      if (!r) return null;
      cacheCopies.set(key, { text: r.value as string, storedAt: r.stored_at as number, expiresAt: r.expires_at as number });
      return { value: JSON.parse(r.value as string), storedAt: r.stored_at as number };
    },
    async cacheSet(key, value, storedAt, expiresAt) {
      const text = JSON.stringify(value);
      await query(
        `INSERT INTO cache_entries (key, value, stored_at, expires_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, stored_at = excluded.stored_at, expires_at = excluded.expires_at`,
        [key, text, storedAt, expiresAt],
      );
      cacheCopies.set(key, { text, storedAt, expiresAt });
    },
    async close() {
      if (closed) return;
      closed = true;
      await ready.catch(() => undefined);
      await Promise.all([pool?.end(), bg?.end()]);
    },
  };
  return store;
}
