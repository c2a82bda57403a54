// The embedded store: one SQLite file in WAL mode, so `stays serve` and `stays admin` can use
// the same data directory at once. better-sqlite3 is synchronous, which makes each
// transaction atomic within the process; busy_timeout covers the other process.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { AccountRow, CreditsRow, HoldResult, KeyRow, NewAccount, NewHold, NewKey, Store } from '../types.js';
import { MIGRATIONS } from './migrations.js';
import { type Row, toAccount, toJob, toKey, toLedger } from './rows.js';

// Each step reads the version inside its write transaction: processes opening a fresh data
// directory together (a server and an admin command, parallel first runs) apply each migration once.
export function migrate(db: Database.Database): void {
  const step = db.transaction((): boolean => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version >= MIGRATIONS.length) return false;
    db.exec(MIGRATIONS[version]!);
    db.pragma(`user_version = ${version + 1}`);
    return true;
  });
  while (step.immediate());
}

export function openSqliteStore(file: string): Store {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  // busy_timeout first: switching a fresh file to WAL needs a lock another process may hold.
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  migrate(db);

  const q = {
    insertAccount: db.prepare(
      `INSERT INTO accounts (id, plan_code, plan_name, plan_status, email_verified, requests_per_minute, free_tier_budget, created_at)
       VALUES (@id, @planCode, @planName, @planStatus, @emailVerified, @requestsPerMinute, @freeTierBudget, @createdAt)`,
    ),
    insertBalance: db.prepare(`INSERT INTO credit_balances (account_id, balance) VALUES (?, 0)`),
    getAccount: db.prepare(`SELECT * FROM accounts WHERE id = ?`),
    allAccounts: db.prepare(`SELECT * FROM accounts ORDER BY created_at, id`),
    insertKey: db.prepare(
      `INSERT INTO api_keys (id, account_id, env, scopes, hash, prefix, created_at) VALUES (@id, @accountId, @env, @scopes, @hash, @prefix, @createdAt)`,
    ),
    keyByHash: db.prepare(`SELECT * FROM api_keys WHERE hash = ?`),
    keyById: db.prepare(`SELECT * FROM api_keys WHERE id = ?`),
    keysOf: db.prepare(`SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at, id`),
    revokeKey: db.prepare(`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?`),
    getBalance: db.prepare(`SELECT balance, held, spent FROM credit_balances WHERE account_id = ?`),
    addBalance: db.prepare(`UPDATE credit_balances SET balance = balance + ? WHERE account_id = ?`),
    insertLedger: db.prepare(
      `INSERT INTO credit_ledger (account_id, kind, amount, balance_after, request_id, job_id, note, created_at)
       VALUES (@accountId, @kind, @amount, @balanceAfter, @requestId, @jobId, @note, @createdAt)`,
    ),
    ledger: db.prepare(`SELECT * FROM credit_ledger WHERE account_id = ? ORDER BY id`),
    getJob: db.prepare(`SELECT * FROM jobs WHERE id = ?`),
    insertHold: db.prepare(`INSERT INTO credit_holds (id, account_id, amount, request_id, job_id, created_at) VALUES (?, ?, ?, ?, ?, ?)`),
    getHold: db.prepare(`SELECT * FROM credit_holds WHERE id = ?`),
    deleteHold: db.prepare(`DELETE FROM credit_holds WHERE id = ?`),
    addHeld: db.prepare(`UPDATE credit_balances SET held = held + ? WHERE account_id = ?`),
    charge: db.prepare(`UPDATE credit_balances SET balance = balance - ?, spent = spent + ? WHERE account_id = ?`),
    insertJob: db.prepare(
      `INSERT INTO jobs (id, account_id, request_id, operation, status, platforms, estimated_seconds, created_at, updated_at)
       VALUES (@id, @accountId, @requestId, @operation, 'pending', @platforms, @estimatedSeconds, @createdAt, @createdAt)`,
    ),
    updateJob: db.prepare(
      `UPDATE jobs SET status = @status, result = COALESCE(@result, result), meta = COALESCE(@meta, meta), error = COALESCE(@error, error),
       updated_at = @updatedAt, expires_at = COALESCE(@expiresAt, expires_at) WHERE id = @id`,
    ),
    orphanJobs: db.prepare(`SELECT id FROM jobs WHERE status IN ('pending', 'running')`),
    allHolds: db.prepare(`SELECT id, account_id, amount FROM credit_holds`),
    cacheGet: db.prepare(`SELECT value, stored_at FROM cache_entries WHERE key = ? AND expires_at > ?`),
    cacheSet: db.prepare(
      `INSERT INTO cache_entries (key, value, stored_at, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT(key) DO UPDATE SET value = excluded.value, stored_at = excluded.stored_at, expires_at = excluded.expires_at`,
    ),
    cachePurge: db.prepare(`DELETE FROM cache_entries WHERE expires_at <= ?`),
  };

  const holdTx = db.transaction((h: NewHold): HoldResult => {
    const c = credits(h.accountId);
    if (h.freeTierBudget !== null && c.spent + c.held + h.amount > h.freeTierBudget) return { ok: false, reason: 'free_tier', credits: c };
    if (c.balance - c.held < h.amount) return { ok: false, reason: 'balance', credits: c };
    q.insertHold.run(h.id, h.accountId, h.amount, h.requestId, h.jobId, h.at);
    q.addHeld.run(h.amount, h.accountId);
    return { ok: true, credits: credits(h.accountId) };
  });

  const settleTx = db.transaction((holdId: string, charge: number, requestId: string, jobId: string | null, at: number): CreditsRow => {
    const hold = q.getHold.get(holdId) as Row | undefined;
    if (!hold) throw new Error(`no hold ${holdId}`);
    const accountId = hold.account_id as string;
    const amount = hold.amount as number;
    // D5: a call never charges more than it held.
    if (!Number.isSafeInteger(charge) || charge < 0 || charge > amount) throw new RangeError(`charge ${charge} outside hold ${amount}`);
    q.deleteHold.run(holdId);
    q.addHeld.run(-amount, accountId);
    if (charge > 0) {
      q.charge.run(charge, charge, accountId);
      const after = credits(accountId);
      q.insertLedger.run({ accountId, kind: 'charge', amount: -charge, balanceAfter: after.balance, requestId, jobId, note: null, createdAt: at });
    }
    return credits(accountId);
  });

  // At start-up no call of this server is in flight, so every hold left over belongs to a call a
  // previous process never finished (a job, or a cache hit cut off before settling): release them
  // all, charging nothing. One server owns a data directory.
  const failOrphansTx = db.transaction((error: string, at: number, expiresAt: number): string[] => {
    const ids = (q.orphanJobs.all() as Row[]).map((r) => r.id as string);
    for (const id of ids) q.updateJob.run({ id, status: 'failed', result: null, meta: null, error, updatedAt: at, expiresAt });
    for (const hold of q.allHolds.all() as Row[]) {
      q.deleteHold.run(hold.id);
      q.addHeld.run(-(hold.amount as number), hold.account_id);
    }
    return ids;
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

  const addCreditsTx = db.transaction(
    (accountId: string, amount: number, kind: string, requestId: string | null, note: string | null, at: number): CreditsRow => {
      q.addBalance.run(amount, accountId);
      const after = credits(accountId);
      q.insertLedger.run({ accountId, kind, amount, balanceAfter: after.balance, requestId, jobId: null, note, createdAt: at });
      return after;
    },
  );

  const createAccountTx = db.transaction((a: NewAccount, initial: number, requestId: string | null) => {
    q.insertAccount.run({ ...a, emailVerified: a.emailVerified ? 1 : 0 });
    q.insertBalance.run(a.id);
    if (initial > 0) addCreditsTx(a.id, initial, 'grant', requestId, 'initial credits', a.createdAt);
  });

  return {
    kind: 'sqlite',
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
    async addCredits(accountId, amount, kind, ref, at) {
      if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError('credits must be a positive integer');
      return addCreditsTx.immediate(accountId, amount, kind, ref.requestId, ref.note ?? null, at);
    },
    async ledger(accountId) {
      return (q.ledger.all(accountId) as Row[]).map(toLedger);
    },
    async getJob(id) {
      const r = q.getJob.get(id) as Row | undefined;
      return r ? toJob(r) : null;
    },
    async hold(h) {
      return holdTx.immediate(h);
    },
    async settleHold(holdId, charge, ref) {
      return settleTx.immediate(holdId, charge, ref.requestId, ref.jobId, ref.at);
    },
    async createJob(j) {
      q.insertJob.run({ ...j, platforms: JSON.stringify(j.platforms) });
    },
    async updateJob(id, p) {
      const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));
      q.updateJob.run({ id, status: p.status, result: json(p.result), meta: json(p.meta), error: json(p.error), updatedAt: p.updatedAt, expiresAt: p.expiresAt ?? null });
    },
    async failOrphanJobs(error, at, expiresAt) {
      return failOrphansTx.immediate(JSON.stringify(error), at, expiresAt);
    },
    async cacheGet(key, now) {
      const r = q.cacheGet.get(key, now) as Row | undefined;
      return r ? { value: JSON.parse(r.value as string), storedAt: r.stored_at as number } : null;
    },
    async cacheSet(key, value, storedAt, expiresAt) {
      q.cacheSet.run(key, JSON.stringify(value), storedAt, expiresAt);
      // Expired entries are never read; drop them now and then so the file stays small.
      if (storedAt % 64 === 0) q.cachePurge.run(storedAt);
    },
    async close() {
      if (db.open) db.close();
    },
  };
}
