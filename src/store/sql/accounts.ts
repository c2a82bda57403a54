// Accounts and API keys, with the lookup authentication makes on every request.
import type { AccountRow, KeyRow, AccountStore } from '../../core/ports/store.js';
import { toAccount, toKey } from '../rows.js';
import { grant } from './credits.js';
import type { Db } from './db.js';

/**
 * How authentication's lookups are reused. Keys and accounts change only through admin writes:
 * this process's own clear the cache at once; another process's are seen when `changedElsewhere`
 * says so (SQLite: PRAGMA data_version, checked at most every 100 ms) or once an entry is older
 * than `maxAgeMs` (PostgreSQL: every instance refuses a revoked key within that bound).
 */
export interface AuthCachePolicy {
  maxAgeMs: number;
  changedElsewhere?: () => boolean;
}

const MAX_CACHED = 10_000;

export function accountStore(db: Db, policy: AuthCachePolicy): AccountStore {
  const authCache = new Map<string, { at: number; found: { key: KeyRow; account: AccountRow } }>();
  return {
    async createAccount(a, initial, requestId) {
      const row = await db.tx(async (q) => {
        const r = (
          await q(
            `INSERT INTO accounts (id, plan_code, plan_name, plan_status, email_verified, requests_per_minute, free_tier_budget, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
            [a.id, a.planCode, a.planName, a.planStatus, a.emailVerified ? 1 : 0, a.requestsPerMinute, a.freeTierBudget, a.createdAt],
          )
        )[0]!;
        await q(`INSERT INTO credit_balances (account_id, balance) VALUES ($1, 0)`, [a.id]);
        if (initial > 0) await grant(q, a.id, initial, requestId, 'initial credits', a.createdAt);
        return r;
      });
      authCache.clear();
      return toAccount(row);
    },
    async getAccount(id) {
      const r = (await db.query(`SELECT * FROM accounts WHERE id = $1`, [id]))[0];
      return r ? toAccount(r) : null;
    },
    async listAccounts() {
      return (await db.query(`SELECT * FROM accounts ORDER BY created_at, id`)).map(toAccount);
    },
    async createKey(k) {
      const r = (
        await db.query(`INSERT INTO api_keys (id, account_id, env, scopes, hash, prefix, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`, [
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
      if (policy.changedElsewhere?.()) authCache.clear();
      const hit = authCache.get(hash);
      const now = policy.maxAgeMs === Number.POSITIVE_INFINITY ? 0 : Date.now();
      if (hit && now - hit.at < policy.maxAgeMs) return hit.found;
      const r = (
        await db.query(
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
      if (authCache.size >= MAX_CACHED) authCache.clear();
      authCache.set(hash, { at: now, found });
      return found;
    },
    async listKeys(accountId) {
      return (await db.query(`SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at, id`, [accountId])).map(toKey);
    },
    async revokeKey(id, at) {
      const r = (await db.query(`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 RETURNING *`, [at, id]))[0];
      authCache.clear();
      return r ? toKey(r) : null;
    },
  };
}
