// OAuth 2.1 for the MCP tool server (issue 12): registered public clients, one-time codes, grants
// (a token family: every access and refresh token issued from one code) and tokens; codes and
// tokens are kept only as SHA-256 hashes.
import type { OAuthAccess, OAuthIssued, OAuthRedeem, OAuthStore } from '../../core/ports/store.js';
import { toAccount, toClient, toKey } from '../rows.js';
import type { Db, Query } from './db.js';
import { LOCK } from './jobs.js';

/** Stores a new access and refresh token of grant `grantId`. */
const issue = (q: Query, grantId: string, r: Pick<OAuthRedeem, 'access' | 'refresh' | 'now'>) =>
  q(`INSERT INTO oauth_tokens (hash, grant_id, kind, expires_at, created_at) VALUES ($1, $2, 'access', $3, $5), ($4, $2, 'refresh', $6, $5)`, [
    r.access.hash,
    grantId,
    r.access.expiresAt,
    r.refresh.hash,
    r.now,
    r.refresh.expiresAt,
  ]);

const revokeGrant = (q: Query, id: unknown, at: number) => q(`UPDATE oauth_grants SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2`, [at, id]);

export function oauthStore(db: Db): OAuthStore {
  return {
    async createOAuthClient(c, limit) {
      const insert = async (q: Query) =>
        toClient(
          (
            await q(`INSERT INTO oauth_clients (id, name, redirect_uris, created_at, registered_from) VALUES ($1, $2, $3, $4, $5) RETURNING *`, [
              c.id,
              c.name,
              JSON.stringify(c.redirectUris),
              c.createdAt,
              limit?.address ?? null,
            ])
          )[0]!,
        );
      if (!limit) return insert(db.query);
      return db.tx(async (q) => {
        // One registration per address at a time, over every process: the count and the insert agree.
        await db.sql.lock(q, LOCK.registration, { text: limit.address });
        const r = (await q(`SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM oauth_clients WHERE registered_from = $1 AND created_at > $2`, [limit.address, c.createdAt - limit.windowMs]))[0]!;
        if ((r.n as number) >= limit.max) return { retryAt: ((r.oldest as number | null) ?? c.createdAt) + limit.windowMs };
        return insert(q);
      });
    },
    async getOAuthClient(id) {
      const r = (await db.query(`SELECT * FROM oauth_clients WHERE id = $1`, [id]))[0];
      return r ? toClient(r) : null;
    },
    async createOAuthCode(c) {
      await db.query(`INSERT INTO oauth_codes (hash, client_id, redirect_uri, challenge, scope, key_id, expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
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
    async redeemOAuthCode(r): Promise<OAuthIssued> {
      return db.tx(async (q) => {
        const code = (await q(`SELECT * FROM oauth_codes WHERE hash = $1${db.sql.forUpdate}`, [r.codeHash]))[0];
        if (!code) return { ok: false, reason: 'unknown' };
        if (code.used_at !== null) {
          if (code.grant_id !== null) await revokeGrant(q, code.grant_id, r.now);
          return { ok: false, reason: 'reused' };
        }
        if ((code.expires_at as number) <= r.now) return { ok: false, reason: 'expired' };
        if (code.client_id !== r.clientId || code.redirect_uri !== r.redirectUri) return { ok: false, reason: 'mismatch' };
        if (!r.verify(code.challenge as string)) return { ok: false, reason: 'verifier' };
        const key = (await q(`SELECT revoked_at FROM api_keys WHERE id = $1`, [code.key_id]))[0];
        if (!key || key.revoked_at !== null) return { ok: false, reason: 'revoked' };
        await q(`UPDATE oauth_codes SET used_at = $1, grant_id = $2 WHERE hash = $3`, [r.now, r.grantId, r.codeHash]);
        await q(`INSERT INTO oauth_grants (id, client_id, key_id, scope, created_at) VALUES ($1, $2, $3, $4, $5)`, [r.grantId, r.clientId, code.key_id, code.scope, r.now]);
        await issue(q, r.grantId, r);
        return { ok: true, scope: code.scope as string, grantId: r.grantId };
      });
    },
    async rotateOAuthRefresh(r) {
      return db.tx(async (q) => {
        const t = (
          await q(
            `SELECT t.expires_at, t.used_at, g.id AS grant_id, g.client_id, g.scope, g.revoked_at, k.revoked_at AS key_revoked_at
             FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id JOIN api_keys k ON k.id = g.key_id
             WHERE t.hash = $1 AND t.kind = 'refresh'${db.sql.forUpdate && `${db.sql.forUpdate} OF t`}`,
            [r.hash],
          )
        )[0];
        if (!t) return { ok: false, reason: 'unknown' };
        if (t.client_id !== r.clientId) return { ok: false, reason: 'mismatch' };
        if (t.revoked_at !== null || t.key_revoked_at !== null) return { ok: false, reason: 'revoked' };
        if (t.used_at !== null) {
          await revokeGrant(q, t.grant_id, r.now);
          return { ok: false, reason: 'reused' };
        }
        if ((t.expires_at as number) <= r.now) return { ok: false, reason: 'expired' };
        await q(`UPDATE oauth_tokens SET used_at = $1 WHERE hash = $2`, [r.now, r.hash]);
        await issue(q, t.grant_id as string, r);
        return { ok: true, scope: t.scope as string, grantId: t.grant_id as string };
      });
    },
    async findOAuthAccess(hash): Promise<OAuthAccess | null> {
      const r = (
        await db.query(
          `SELECT t.expires_at AS token_expires_at, g.id AS grant_id, g.client_id AS grant_client_id, g.scope AS grant_scope, k.*
           FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id JOIN api_keys k ON k.id = g.key_id
           WHERE t.hash = $1 AND t.kind = 'access' AND g.revoked_at IS NULL`,
          [hash],
        )
      )[0];
      if (!r) return null;
      const a = (await db.query(`SELECT * FROM accounts WHERE id = $1`, [r.account_id]))[0];
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
  };
}
