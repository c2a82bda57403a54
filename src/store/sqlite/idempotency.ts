// Idempotency keys in the SQLite store (issue 21): one row per account, environment and key. While
// its first request runs the row is a claim (owner, lease); then it holds that request's answer
// until it expires. Merged into the Store by store.ts.
import type Database from 'better-sqlite3';
import type { Row } from '../rows.js';
import type { IdempotencyClaim, IdempotencyState, Store } from '../../core/ports/store.js';

type IdempotencyPart = Pick<Store, 'claimIdempotencyKey' | 'renewIdempotencyKey' | 'completeIdempotencyKey' | 'releaseIdempotencyKey'>;

/** Expired keys, at most `batch`. */
export function purgeIdempotency(db: Database.Database) {
  const del = db.prepare(`DELETE FROM idempotency_keys WHERE rowid IN (SELECT rowid FROM idempotency_keys WHERE expires_at <= ? LIMIT ?)`);
  return (now: number, batch: number) => del.run(now, batch).changes;
}

export function idempotencyStore(db: Database.Database): IdempotencyPart {
  const where = `account_id = @accountId AND env = @env AND key = @key`;
  const q = {
    get: db.prepare(`SELECT fingerprint, owner, lease_expires_at, status, headers, body, expires_at FROM idempotency_keys WHERE ${where}`),
    insert: db.prepare(
      `INSERT INTO idempotency_keys (account_id, env, key, fingerprint, owner, lease_expires_at, created_at, expires_at)
       VALUES (@accountId, @env, @key, @fingerprint, @owner, @leaseUntil, @now, @expiresAt)
       ON CONFLICT (account_id, env, key) DO UPDATE SET fingerprint = excluded.fingerprint, owner = excluded.owner, lease_expires_at = excluded.lease_expires_at,
         status = NULL, headers = NULL, body = NULL, created_at = excluded.created_at, expires_at = excluded.expires_at`,
    ),
    takeOver: db.prepare(`UPDATE idempotency_keys SET owner = @owner, lease_expires_at = @leaseUntil WHERE ${where}`),
    renew: db.prepare(`UPDATE idempotency_keys SET lease_expires_at = @leaseUntil WHERE ${where} AND owner = @owner AND status IS NULL`),
    complete: db.prepare(`UPDATE idempotency_keys SET status = @status, headers = @headers, body = @body, owner = NULL WHERE ${where} AND owner = @owner AND status IS NULL`),
    release: db.prepare(`DELETE FROM idempotency_keys WHERE ${where} AND owner = @owner AND status IS NULL`),
  };

  const claimTx = db.transaction((c: IdempotencyClaim): IdempotencyState => {
    const r = q.get.get(c) as Row | undefined;
    if (!r || (r.expires_at as number) <= c.now) {
      q.insert.run(c);
      return { state: 'claimed' };
    }
    if (r.fingerprint !== c.fingerprint) return { state: 'mismatch' };
    if (r.status !== null) {
      return { state: 'done', answer: { status: r.status as number, headers: JSON.parse(r.headers as string) as Record<string, string>, body: r.body as string } };
    }
    if ((r.lease_expires_at as number) > c.now) return { state: 'in_progress' };
    // Its first request's process died before it answered: this one executes instead.
    q.takeOver.run(c);
    return { state: 'claimed' };
  });

  return {
    async claimIdempotencyKey(c) {
      return claimTx.immediate(c);
    },
    async renewIdempotencyKey(ref, leaseUntil) {
      return q.renew.run({ ...ref, leaseUntil }).changes === 1;
    },
    async completeIdempotencyKey(ref, a) {
      return q.complete.run({ ...ref, status: a.status, headers: JSON.stringify(a.headers), body: a.body }).changes === 1;
    },
    async releaseIdempotencyKey(ref) {
      q.release.run(ref);
    },
  };
}
