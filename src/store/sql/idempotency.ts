// Idempotency keys (issue 21): one row per account, environment and key (a unique index). While its
// first request runs the row is a claim (owner, lease); then it holds that request's answer until
// it expires. A claim is one statement, so two processes given the same key at once never both
// execute.
import type { IdempotencyState, IdempotencyStore } from '../../core/ports/store.js';
import type { Db } from './db.js';

const KEY = `account_id = $1 AND env = $2 AND key = $3`;

export function idempotencyStore(db: Db): IdempotencyStore {
  return {
    async claimIdempotencyKey(c): Promise<IdempotencyState> {
      for (;;) {
        // A new key, an expired one, or a claim for the same request whose lease lapsed (its
        // process died before it answered) is taken; the row lock orders concurrent claims.
        const won = await db.query(
          `INSERT INTO idempotency_keys AS i (account_id, env, key, fingerprint, owner, lease_expires_at, created_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (account_id, env, key) DO UPDATE SET fingerprint = excluded.fingerprint, owner = excluded.owner, lease_expires_at = excluded.lease_expires_at,
             status = NULL, headers = NULL, body = NULL, created_at = CASE WHEN i.expires_at <= $7 THEN excluded.created_at ELSE i.created_at END,
             expires_at = CASE WHEN i.expires_at <= $7 THEN excluded.expires_at ELSE i.expires_at END
           WHERE i.expires_at <= $7 OR (i.status IS NULL AND i.lease_expires_at <= $7 AND i.fingerprint = excluded.fingerprint)
           RETURNING 1`,
          [c.accountId, c.env, c.key, c.fingerprint, c.owner, c.leaseUntil, c.now, c.expiresAt],
        );
        if (won.length === 1) return { state: 'claimed' };
        const r = (await db.query(`SELECT fingerprint, lease_expires_at, status, headers, body, expires_at FROM idempotency_keys WHERE ${KEY}`, [c.accountId, c.env, c.key]))[0];
        // Purged, or its claim released, between the two statements: try again.
        if (!r || (r.expires_at as number) <= c.now) continue;
        if (r.fingerprint !== c.fingerprint) return { state: 'mismatch' };
        if (r.status !== null) return { state: 'done', answer: { status: r.status as number, headers: JSON.parse(r.headers as string) as Record<string, string>, body: r.body as string } };
        if ((r.lease_expires_at as number) > c.now) return { state: 'in_progress' };
        // Its lease lapsed between the two statements: try again to take it.
      }
    },
    async renewIdempotencyKey(ref, leaseUntil) {
      const r = await db.query(`UPDATE idempotency_keys SET lease_expires_at = $5 WHERE ${KEY} AND owner = $4 AND status IS NULL RETURNING 1`, [
        ref.accountId,
        ref.env,
        ref.key,
        ref.owner,
        leaseUntil,
      ]);
      return r.length === 1;
    },
    async completeIdempotencyKey(ref, a) {
      const r = await db.query(`UPDATE idempotency_keys SET status = $5, headers = $6, body = $7, owner = NULL WHERE ${KEY} AND owner = $4 AND status IS NULL RETURNING 1`, [
        ref.accountId,
        ref.env,
        ref.key,
        ref.owner,
        a.status,
        JSON.stringify(a.headers),
        a.body,
      ]);
      return r.length === 1;
    },
    async releaseIdempotencyKey(ref) {
      await db.query(`DELETE FROM idempotency_keys WHERE ${KEY} AND owner = $4 AND status IS NULL`, [ref.accountId, ref.env, ref.key, ref.owner]);
    },
  };
}
