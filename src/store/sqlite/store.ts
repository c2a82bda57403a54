// The embedded store: one SQLite file in WAL mode, so `stays serve` and `stays admin` can use
// the same data directory at once. better-sqlite3 is synchronous, which makes each
// transaction atomic within the process; busy_timeout covers the other process.
import { closeSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { makePrivateDir } from '../private-dir.js';
import {
  type AccountRow,
  type CreditsRow,
  type HoldResult,
  type JobEnd,
  type KeyRow,
  type LiveWork,
  type NewAccount,
  type NewCharge,
  type NewHold,
  type NewKey,
  type NewTopup,
  type Store,
  type TopupResult,
  WEBHOOK_LOG_RETENTION_MS,
} from '../../core/ports/store.js';
import { MIGRATIONS } from './migrations.js';
import { type Row, toAccount, toJob, toJobSummary, toKey, toLedger } from '../rows.js';
import { oauthStore, purgeOAuth } from './oauth.js';
import { purgeWebhookLog, webhookStore } from './webhooks.js';
import { idempotencyStore, purgeIdempotency } from './idempotency.js';

// Each step reads the version inside its write transaction: processes opening a fresh data
// directory together (a server and an admin command, parallel first runs) apply each migration once.
function migrate(db: Database.Database): void {
  // Up to date (the usual case): no write transaction at every open. The version only grows.
  if ((db.pragma('user_version', { simple: true }) as number) >= MIGRATIONS.length) return;
  const step = db.transaction((): boolean => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version >= MIGRATIONS.length) return false;
    db.exec(MIGRATIONS[version]!);
    db.pragma(`user_version = ${version + 1}`);
    return true;
  });
  while (step.immediate());
}

let addon: object | undefined;

/**
 * better-sqlite3's native addon, required by its path. Left to itself, better-sqlite3 finds it
 * with the bindings package, which reads a stack trace and tries several directories at every
 * start (~1 ms of a CLI command); a build elsewhere than build/Release still goes that way, from
 * better-sqlite3's own directory (the CLI bundle holds better-sqlite3's JavaScript, not its addon).
 */
function nativeAddon(): object {
  if (addon) return addon;
  const require = createRequire(import.meta.url);
  const root = dirname(require.resolve('better-sqlite3/package.json'));
  try {
    addon = require(join(root, 'build', 'Release', 'better_sqlite3.node')) as object;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw e;
    const bindings = createRequire(join(root, 'package.json'))('bindings') as (o: object) => object;
    addon = bindings({ bindings: 'better_sqlite3.node', module_root: root });
  }
  return addon;
}

/**
 * The directory 0700 (an existing one tightened: src/store/private-dir.ts) and the file 0600 when
 * we create it: the store holds key hashes, the ledger and every job's result. SQLite gives the
 * -wal and -shm files the database file's mode.
 */
function createPrivately(file: string): void {
  makePrivateDir(dirname(file));
  closeSync(openSync(file, 'a', 0o600));
}

/**
 * The job list (newest first, paged by created_at then id; see jobs_account_created): never the
 * result column, which can be large; a completed job's charge is its meta's creditsCharged.
 */
const JOB_LIST = `id, account_id, env, request_id, operation, status, platforms, error, estimated_seconds, created_at, updated_at, expires_at, owner, lease_expires_at,
  CASE WHEN status = 'completed' THEN COALESCE(json_extract(meta, '$.creditsCharged'), 0) ELSE 0 END AS credits_charged
  FROM jobs WHERE account_id = @accountId AND env = @env AND (@status IS NULL OR status = @status) AND (expires_at IS NULL OR expires_at > @now)`;

export function openSqliteStore(file: string): Store {
  if (file !== ':memory:') createPrivately(file);
  // The addon object is accepted since better-sqlite3 8.1; its types still say a path.
  const db = new Database(file, { nativeBinding: nativeAddon() as unknown as string });
  // busy_timeout first: switching a fresh file to WAL needs a lock another process may hold.
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  migrate(db);

  const purgeWebhooks = purgeWebhookLog(db);
  const purgeOAuthRows = purgeOAuth(db);
  const purgeIdempotencyKeys = purgeIdempotency(db);
  const q = {
    insertAccount: db.prepare(
      `INSERT INTO accounts (id, plan_code, plan_name, plan_status, email_verified, requests_per_minute, free_tier_budget, created_at)
       VALUES (@id, @planCode, @planName, @planStatus, @emailVerified, @requestsPerMinute, @freeTierBudget, @createdAt)`,
    ),
    insertBalance: db.prepare(`INSERT INTO credit_balances (account_id, balance) VALUES (?, 0)`),
    getAccount: db.prepare(`SELECT * FROM accounts WHERE id = ?`),
    allAccounts: db.prepare(`SELECT * FROM accounts ORDER BY created_at, id`),
    insertKey: db.prepare(`INSERT INTO api_keys (id, account_id, env, scopes, hash, prefix, created_at) VALUES (@id, @accountId, @env, @scopes, @hash, @prefix, @createdAt)`),
    keyByHash: db.prepare(`SELECT * FROM api_keys WHERE hash = ?`),
    keyById: db.prepare(`SELECT * FROM api_keys WHERE id = ?`),
    keysOf: db.prepare(`SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at, id`),
    revokeKey: db.prepare(`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?`),
    getBalance: db.prepare(`SELECT balance, held, spent FROM credit_balances WHERE account_id = ?`),
    addBalance: db.prepare(`UPDATE credit_balances SET balance = balance + ? WHERE account_id = ?`),
    insertLedger: db.prepare(
      `INSERT INTO credit_ledger (account_id, kind, amount, balance_after, request_id, job_id, key_id, note, created_at)
       VALUES (@accountId, @kind, @amount, @balanceAfter, @requestId, @jobId, @keyId, @note, @createdAt)`,
    ),
    toppedUpSince: db.prepare(`SELECT COALESCE(SUM(amount), 0) FROM credit_ledger WHERE account_id = ? AND kind = 'topup' AND created_at >= ?`).pluck(),
    ledger: db.prepare(`SELECT * FROM credit_ledger WHERE account_id = ? ORDER BY id`),
    getJob: db.prepare(`SELECT * FROM jobs WHERE id = ?`),
    listJobs: db.prepare(`SELECT ${JOB_LIST} ORDER BY created_at DESC, id DESC LIMIT @limit`),
    listJobsAfter: db.prepare(`SELECT ${JOB_LIST} AND (created_at, id) < (@afterAt, @afterId) ORDER BY created_at DESC, id DESC LIMIT @limit`),
    insertHold: db.prepare(`INSERT INTO credit_holds (id, account_id, amount, request_id, job_id, created_at, owner, lease_expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
    getHold: db.prepare(`SELECT * FROM credit_holds WHERE id = ?`),
    deleteHold: db.prepare(`DELETE FROM credit_holds WHERE id = ?`),
    addHeld: db.prepare(`UPDATE credit_balances SET held = held + ? WHERE account_id = ?`),
    charge: db.prepare(`UPDATE credit_balances SET balance = balance - ?, spent = spent + ? WHERE account_id = ?`),
    insertJob: db.prepare(
      `INSERT INTO jobs (id, account_id, env, request_id, operation, status, platforms, estimated_seconds, created_at, updated_at, owner, lease_expires_at)
       VALUES (@id, @accountId, @env, @requestId, @operation, 'pending', @platforms, @estimatedSeconds, @createdAt, @createdAt, @owner, @leaseExpiresAt)`,
    ),
    startJob: db.prepare(`UPDATE jobs SET status = 'running', updated_at = ? WHERE id = ? AND owner = ? AND status = 'pending'`),
    unfinishedJob: db.prepare(`SELECT 1 FROM jobs WHERE id = ? AND status IN ('pending', 'running')`).pluck(),
    ownedJob: db.prepare(`SELECT 1 FROM jobs WHERE id = ? AND owner = ? AND status IN ('pending', 'running')`).pluck(),
    endJob: db.prepare(
      `UPDATE jobs SET status = @status, result = @result, meta = @meta, error = @error, updated_at = @at, expires_at = @expiresAt, owner = NULL
       WHERE id = @id`,
    ),
    renewJobs: db.prepare(`UPDATE jobs SET lease_expires_at = ? WHERE owner = ? AND status IN ('pending', 'running') AND id IN (SELECT value FROM json_each(?))`),
    renewHolds: db.prepare(`UPDATE credit_holds SET lease_expires_at = ? WHERE owner = ? AND id IN (SELECT value FROM json_each(?))`),
    expiredJobs: db.prepare(`SELECT id FROM jobs WHERE status IN ('pending', 'running') AND lease_expires_at <= ?`).pluck(),
    expiredHolds: db.prepare(`SELECT id, account_id, amount FROM credit_holds WHERE lease_expires_at <= ?`),
    ownJobs: db.prepare(`SELECT id FROM jobs WHERE owner = ? AND status IN ('pending', 'running')`).pluck(),
    ownHolds: db.prepare(`SELECT id, account_id, amount FROM credit_holds WHERE owner = ?`),
    holdsOfJob: db.prepare(`SELECT id, account_id, amount FROM credit_holds WHERE job_id = ?`),
    purgeJobs: db.prepare(`DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE expires_at IS NOT NULL AND expires_at <= ? AND status IN ('completed', 'failed') LIMIT ?)`),
    purgeCache: db.prepare(`DELETE FROM cache_entries WHERE key IN (SELECT key FROM cache_entries WHERE expires_at <= ? LIMIT ?)`),
    cacheGet: db.prepare(`SELECT value, stored_at FROM cache_entries WHERE key = ? AND expires_at > ?`),
    cacheSet: db.prepare(
      `INSERT INTO cache_entries (key, value, stored_at, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT(key) DO UPDATE SET value = excluded.value, stored_at = excluded.stored_at, expires_at = excluded.expires_at`,
    ),
  };

  const holdTx = db.transaction((h: NewHold): HoldResult => {
    const c = credits(h.accountId);
    if (h.freeTierBudget !== null && c.spent + c.held + h.amount > h.freeTierBudget) return { ok: false, reason: 'free_tier', credits: c };
    if (c.balance - c.held < h.amount) return { ok: false, reason: 'balance', credits: c };
    q.insertHold.run(h.id, h.accountId, h.amount, h.requestId, h.jobId, h.at, h.lease.owner, h.lease.expiresAt);
    q.addHeld.run(h.amount, h.accountId);
    return { ok: true, credits: credits(h.accountId) };
  });

  /** Releases a hold and debits `charge` with its ledger row; null when the hold is gone. */
  const settle = (holdId: string, charge: number, requestId: string, jobId: string | null, at: number): CreditsRow | null => {
    const hold = q.getHold.get(holdId) as Row | undefined;
    if (!hold) return null;
    const accountId = hold.account_id as string;
    const amount = hold.amount as number;
    // D5: a call never charges more than it held.
    if (!Number.isSafeInteger(charge) || charge < 0 || charge > amount) throw new RangeError(`charge ${charge} outside hold ${amount}`);
    q.deleteHold.run(holdId);
    q.addHeld.run(-amount, accountId);
    if (charge > 0) {
      q.charge.run(charge, charge, accountId);
      const after = credits(accountId);
      q.insertLedger.run({ accountId, kind: 'charge', amount: -charge, balanceAfter: after.balance, requestId, jobId, keyId: null, note: null, createdAt: at });
    }
    return credits(accountId);
  };
  const settleTx = db.transaction(settle);

  /** A call whose cost is known up front: admitted as a hold of `admit` would be, then debited with its ledger row. */
  const chargeTx = db.transaction((c: NewCharge): HoldResult => {
    const before = credits(c.accountId);
    if (c.freeTierBudget !== null && before.spent + before.held + c.admit > c.freeTierBudget) return { ok: false, reason: 'free_tier', credits: before };
    if (before.balance - before.held < c.admit) return { ok: false, reason: 'balance', credits: before };
    if (c.charge === 0) return { ok: true, credits: before };
    q.charge.run(c.charge, c.charge, c.accountId);
    const after = credits(c.accountId);
    q.insertLedger.run({ accountId: c.accountId, kind: 'charge', amount: -c.charge, balanceAfter: after.balance, requestId: c.requestId, jobId: null, keyId: null, note: null, createdAt: c.at });
    return { ok: true, credits: after };
  });

  const finishTx = db.transaction((e: JobEnd): boolean => {
    if (q.ownedJob.get(e.jobId, e.owner) === undefined) return false;
    // The hold can only be gone if the lease expired and another process failed the job; the
    // ownership check above rules that out, so a missing hold here is a bug, not a race.
    if (settle(e.holdId, e.charge, e.requestId, e.jobId, e.at) === null) throw new Error(`job ${e.jobId} has no hold ${e.holdId}`);
    const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));
    q.endJob.run({ id: e.jobId, status: e.status, result: json(e.result), meta: json(e.meta), error: json(e.error), at: e.at, expiresAt: e.expiresAt });
    return true;
  });

  const releaseHolds = (holds: Row[]): number => {
    for (const hold of holds) {
      q.deleteHold.run(hold.id);
      q.addHeld.run(-(hold.amount as number), hold.account_id);
    }
    return holds.length;
  };

  /** Fails the given unfinished jobs with `error` and releases their holds, charging nothing. */
  const failJobs = (ids: string[], error: string, at: number, expiresAt: number): number => {
    let released = 0;
    for (const id of ids) {
      q.endJob.run({ id, status: 'failed', result: null, meta: null, error, at, expiresAt });
      released += releaseHolds(q.holdsOfJob.all(id) as Row[]);
    }
    return released;
  };

  const failExpiredTx = db.transaction((error: string, now: number, retainUntil: number) => {
    const jobs = q.expiredJobs.all(now) as string[];
    const holds = failJobs(jobs, error, now, retainUntil) + releaseHolds(q.expiredHolds.all(now) as Row[]);
    return { jobs, holds };
  });

  const abandonTx = db.transaction((owner: string, error: string, now: number, retainUntil: number) => {
    const jobs = q.ownJobs.all(owner) as string[];
    const holds = failJobs(jobs, error, now, retainUntil) + releaseHolds(q.ownHolds.all(owner) as Row[]);
    return { jobs, holds };
  });

  const cancelTx = db.transaction((id: string, error: string, now: number, retainUntil: number): boolean => {
    if (q.unfinishedJob.get(id) === undefined) return false;
    failJobs([id], error, now, retainUntil);
    return true;
  });

  const renewTx = db.transaction((owner: string, until: number, live: LiveWork) => {
    q.renewJobs.run(until, owner, JSON.stringify(live.jobs));
    q.renewHolds.run(until, owner, JSON.stringify(live.holds));
  });

  const topupTx = db.transaction((t: NewTopup): TopupResult => {
    const used = q.toppedUpSince.get(t.accountId, t.since) as number;
    if (used + t.credits > t.max) return { ok: false, used };
    q.addBalance.run(t.credits, t.accountId);
    const after = credits(t.accountId);
    q.insertLedger.run({ accountId: t.accountId, kind: 'topup', amount: t.credits, balanceAfter: after.balance, requestId: t.requestId, jobId: null, keyId: t.keyId, note: null, createdAt: t.at });
    return { ok: true, credits: after };
  });

  // Authentication reads the same few keys on every request. Their rows change only through
  // admin writes: our own (which clear the cache at once) or another process's, which PRAGMA
  // data_version reveals. Checking it costs about as much as the lookup it saves, so it is
  // checked at most every AUTH_RECHECK_MS: a key revoked by `stays admin` is refused within
  // that time.
  const AUTH_RECHECK_MS = 100;
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const authCache = new Map<string, { key: KeyRow; account: AccountRow }>();
  let seenVersion: unknown = dataVersion.get();
  let checkedAt = 0;
  const authCacheFresh = () => {
    const now = performance.now();
    if (now - checkedAt < AUTH_RECHECK_MS && authCache.size <= 10_000) return;
    checkedAt = now;
    const v = dataVersion.get();
    if (v !== seenVersion || authCache.size > 10_000) {
      authCache.clear();
      seenVersion = v;
    }
  };

  const credits = (accountId: string): CreditsRow => {
    const r = q.getBalance.get(accountId) as Row | undefined;
    return { balance: (r?.balance as number) ?? 0, held: (r?.held as number) ?? 0, spent: (r?.spent as number) ?? 0, expiringSoon: 0 };
  };

  const grantTx = db.transaction((accountId: string, amount: number, requestId: string | null, note: string | null, at: number): CreditsRow => {
    q.addBalance.run(amount, accountId);
    const after = credits(accountId);
    q.insertLedger.run({ accountId, kind: 'grant', amount, balanceAfter: after.balance, requestId, jobId: null, keyId: null, note, createdAt: at });
    return after;
  });

  const createAccountTx = db.transaction((a: NewAccount, initial: number, requestId: string | null) => {
    q.insertAccount.run({ ...a, emailVerified: a.emailVerified ? 1 : 0 });
    q.insertBalance.run(a.id);
    if (initial > 0) grantTx(a.id, initial, requestId, 'initial credits', a.createdAt);
  });

  return {
    kind: 'sqlite',
    ready: () => Promise.resolve(),
    async createAccount(a, initialCredits, requestId) {
      createAccountTx.immediate(a, initialCredits, requestId);
      authCache.clear();
      return toAccount(q.getAccount.get(a.id) as Row);
    },
    async getAccount(id) {
      const r = q.getAccount.get(id) as Row | undefined;
      return r ? toAccount(r) : null;
    },
    async listAccounts() {
      return (q.allAccounts.all() as Row[]).map(toAccount);
    },
    async createKey(k: NewKey) {
      q.insertKey.run({ ...k, scopes: k.scopes.join(',') });
      authCache.clear();
      return toKey(q.keyById.get(k.id) as Row);
    },
    async findKeyByHash(hash) {
      authCacheFresh();
      const cached = authCache.get(hash);
      if (cached) return cached;
      const k = q.keyByHash.get(hash) as Row | undefined;
      if (!k) return null;
      const a = q.getAccount.get(k.account_id) as Row | undefined;
      if (!a) return null;
      const found = { key: toKey(k), account: toAccount(a) };
      authCache.set(hash, found);
      return found;
    },
    async listKeys(accountId) {
      return (q.keysOf.all(accountId) as Row[]).map(toKey);
    },
    async revokeKey(id, at) {
      q.revokeKey.run(at, id);
      authCache.clear();
      const r = q.keyById.get(id) as Row | undefined;
      return r ? toKey(r) : null;
    },
    async getCredits(accountId) {
      return credits(accountId);
    },
    async grantCredits(accountId, amount, ref, at) {
      if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError('credits must be a positive integer');
      return grantTx.immediate(accountId, amount, ref.requestId, ref.note ?? null, at);
    },
    async topup(t) {
      if (!Number.isSafeInteger(t.credits) || t.credits <= 0) throw new RangeError('credits must be a positive integer');
      return topupTx.immediate(t);
    },
    async ledger(accountId) {
      return (q.ledger.all(accountId) as Row[]).map(toLedger);
    },
    async getJob(id) {
      const r = q.getJob.get(id) as Row | undefined;
      return r ? toJob(r) : null;
    },
    async listJobs(l) {
      const args = { accountId: l.accountId, env: l.env, status: l.status, now: l.now, limit: l.limit, afterAt: l.after?.createdAt ?? null, afterId: l.after?.id ?? null };
      const rows = (l.after === null ? q.listJobs : q.listJobsAfter).all(args);
      return (rows as Row[]).map(toJobSummary);
    },
    async hold(h) {
      return holdTx.immediate(h);
    },
    async settleHold(holdId, charge, ref) {
      return settleTx.immediate(holdId, charge, ref.requestId, ref.jobId, ref.at);
    },
    async charge(c) {
      // D5: a call never charges more than it would have held.
      if (!Number.isSafeInteger(c.charge) || c.charge < 0 || c.charge > c.admit) throw new RangeError(`charge ${c.charge} outside ${c.admit}`);
      return chargeTx.immediate(c);
    },
    async createJob(j) {
      const { lease, ...rest } = j;
      q.insertJob.run({ ...rest, platforms: JSON.stringify(j.platforms), owner: lease.owner, leaseExpiresAt: lease.expiresAt });
    },
    async startJob(id, owner, at) {
      return q.startJob.run(at, id, owner).changes === 1;
    },
    async finishJob(end) {
      return finishTx.immediate(end);
    },
    async renewLeases(owner, until, live) {
      renewTx.immediate(owner, until, live);
    },
    async failExpired(error, now, retainUntil) {
      return failExpiredTx.immediate(JSON.stringify(error), now, retainUntil);
    },
    async cancelJob(id, error, now, retainUntil) {
      return cancelTx.immediate(id, JSON.stringify(error), now, retainUntil);
    },
    async abandon(owner, error, now, retainUntil) {
      return abandonTx.immediate(owner, JSON.stringify(error), now, retainUntil);
    },
    async purgeExpired(now, batch) {
      // Expired OAuth codes and tokens and idempotency keys go in the same sweep (not counted: nobody reports them).
      purgeOAuthRows(now, batch);
      purgeIdempotencyKeys(now, batch);
      return { jobs: q.purgeJobs.run(now, batch).changes, cache: q.purgeCache.run(now, batch).changes, webhooks: purgeWebhooks(now - WEBHOOK_LOG_RETENTION_MS, batch) };
    },
    ...webhookStore(db),
    ...oauthStore(db),
    ...idempotencyStore(db),
    async cacheGet(key, now) {
      const r = q.cacheGet.get(key, now) as Row | undefined;
      return r ? { value: JSON.parse(r.value as string), storedAt: r.stored_at as number } : null;
    },
    async cacheSet(key, value, storedAt, expiresAt) {
      q.cacheSet.run(key, JSON.stringify(value), storedAt, expiresAt);
    },
    async close() {
      if (db.open) db.close();
    },
  };
}
