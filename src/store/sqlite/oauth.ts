// The OAuth half of the SQLite store (issue 12): clients, one-time codes, grants (token
// families) and tokens, codes and tokens kept as SHA-256 hashes. Merged into the Store by store.ts.
import type Database from 'better-sqlite3';
import {
  type OAuthAccess,
  type OAuthClientRow,
  type OAuthIssued,
  type OAuthRedeem,
  type OAuthRotate,
  type RegistrationLimit,
  type Store,
  UNUSED_OAUTH_CLIENT_RETENTION_MS,
} from '../../core/ports/store.js';
import { type Row, toAccount, toKey } from '../rows.js';

type OAuthPart = Pick<Store, 'createOAuthClient' | 'getOAuthClient' | 'createOAuthCode' | 'redeemOAuthCode' | 'rotateOAuthRefresh' | 'findOAuthAccess'>;

/** How long past its expiry a code is kept, so that a late second use still revokes what the first got. */
const CODE_KEEP_MS = 86_400_000;

/**
 * Expired codes (a day past expiry) and tokens, and clients past UNUSED_OAUTH_CLIENT_RETENTION_MS
 * that never got a grant and have no code (registration is unauthenticated: issue 21), at most
 * `batch` of each.
 */
export function purgeOAuth(db: Database.Database) {
  const codes = db.prepare(`DELETE FROM oauth_codes WHERE hash IN (SELECT hash FROM oauth_codes WHERE expires_at <= ? LIMIT ?)`);
  const tokens = db.prepare(`DELETE FROM oauth_tokens WHERE hash IN (SELECT hash FROM oauth_tokens WHERE expires_at <= ? LIMIT ?)`);
  const clients = db.prepare(
    `DELETE FROM oauth_clients WHERE id IN (SELECT c.id FROM oauth_clients c WHERE c.created_at <= ?
       AND NOT EXISTS (SELECT 1 FROM oauth_grants g WHERE g.client_id = c.id) AND NOT EXISTS (SELECT 1 FROM oauth_codes o WHERE o.client_id = c.id) LIMIT ?)`,
  );
  // Codes first: a client whose only code just expired away goes in the same sweep.
  return (now: number, batch: number) => codes.run(now - CODE_KEEP_MS, batch).changes + tokens.run(now, batch).changes + clients.run(now - UNUSED_OAUTH_CLIENT_RETENTION_MS, batch).changes;
}

const toClient = (r: Row): OAuthClientRow => ({
  id: r.id as string,
  name: (r.name as string | null) ?? null,
  redirectUris: JSON.parse(r.redirect_uris as string) as string[],
  createdAt: r.created_at as number,
});

export function oauthStore(db: Database.Database): OAuthPart {
  const q = {
    insertClient: db.prepare(`INSERT INTO oauth_clients (id, name, redirect_uris, created_at, registered_from) VALUES (?, ?, ?, ?, ?)`),
    registeredSince: db.prepare(`SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM oauth_clients WHERE registered_from = ? AND created_at > ?`),
    getClient: db.prepare(`SELECT * FROM oauth_clients WHERE id = ?`),
    insertCode: db.prepare(
      `INSERT INTO oauth_codes (hash, client_id, redirect_uri, challenge, scope, key_id, expires_at, created_at)
       VALUES (@hash, @clientId, @redirectUri, @challenge, @scope, @keyId, @expiresAt, @createdAt)`,
    ),
    getCode: db.prepare(`SELECT * FROM oauth_codes WHERE hash = ?`),
    useCode: db.prepare(`UPDATE oauth_codes SET used_at = ?, grant_id = ? WHERE hash = ?`),
    insertGrant: db.prepare(`INSERT INTO oauth_grants (id, client_id, key_id, scope, created_at) VALUES (?, ?, ?, ?, ?)`),
    revokeGrant: db.prepare(`UPDATE oauth_grants SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?`),
    insertToken: db.prepare(`INSERT INTO oauth_tokens (hash, grant_id, kind, expires_at, created_at) VALUES (?, ?, ?, ?, ?)`),
    refresh: db.prepare(
      `SELECT t.expires_at, t.used_at, g.id AS grant_id, g.client_id, g.scope, g.revoked_at, k.revoked_at AS key_revoked_at
       FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id JOIN api_keys k ON k.id = g.key_id
       WHERE t.hash = ? AND t.kind = 'refresh'`,
    ),
    useToken: db.prepare(`UPDATE oauth_tokens SET used_at = ? WHERE hash = ?`),
    access: db.prepare(
      `SELECT t.expires_at AS token_expires_at, g.id AS grant_id, g.client_id AS grant_client_id, g.scope AS grant_scope, k.*
       FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id JOIN api_keys k ON k.id = g.key_id
       WHERE t.hash = ? AND t.kind = 'access' AND g.revoked_at IS NULL`,
    ),
    account: db.prepare(`SELECT * FROM accounts WHERE id = ?`),
    keyRevoked: db.prepare(`SELECT revoked_at FROM api_keys WHERE id = ?`).pluck(),
  };

  const issue = (grantId: string, r: { access: OAuthRedeem['access']; refresh: OAuthRedeem['refresh']; now: number }) => {
    q.insertToken.run(r.access.hash, grantId, 'access', r.access.expiresAt, r.now);
    q.insertToken.run(r.refresh.hash, grantId, 'refresh', r.refresh.expiresAt, r.now);
  };

  const redeemTx = db.transaction((r: OAuthRedeem): OAuthIssued => {
    const code = q.getCode.get(r.codeHash) as Row | undefined;
    if (!code) return { ok: false, reason: 'unknown' };
    if (code.used_at !== null) {
      if (code.grant_id !== null) q.revokeGrant.run(r.now, code.grant_id);
      return { ok: false, reason: 'reused' };
    }
    if ((code.expires_at as number) <= r.now) return { ok: false, reason: 'expired' };
    if (code.client_id !== r.clientId || code.redirect_uri !== r.redirectUri) return { ok: false, reason: 'mismatch' };
    if (!r.verify(code.challenge as string)) return { ok: false, reason: 'verifier' };
    if (q.keyRevoked.get(code.key_id) !== null) return { ok: false, reason: 'revoked' };
    q.useCode.run(r.now, r.grantId, r.codeHash);
    q.insertGrant.run(r.grantId, r.clientId, code.key_id, code.scope, r.now);
    issue(r.grantId, r);
    return { ok: true, scope: code.scope as string, grantId: r.grantId };
  });

  const rotateTx = db.transaction((r: OAuthRotate): OAuthIssued => {
    const t = q.refresh.get(r.hash) as Row | undefined;
    if (!t) return { ok: false, reason: 'unknown' };
    if (t.client_id !== r.clientId) return { ok: false, reason: 'mismatch' };
    if (t.revoked_at !== null || t.key_revoked_at !== null) return { ok: false, reason: 'revoked' };
    if (t.used_at !== null) {
      q.revokeGrant.run(r.now, t.grant_id);
      return { ok: false, reason: 'reused' };
    }
    if ((t.expires_at as number) <= r.now) return { ok: false, reason: 'expired' };
    q.useToken.run(r.now, r.hash);
    issue(t.grant_id as string, r);
    return { ok: true, scope: t.scope as string, grantId: t.grant_id as string };
  });

  const registerTx = db.transaction((c: OAuthClientRow, limit: RegistrationLimit | undefined) => {
    if (limit) {
      const r = q.registeredSince.get(limit.address, c.createdAt - limit.windowMs) as { n: number; oldest: number | null };
      if (r.n >= limit.max) return { retryAt: (r.oldest ?? c.createdAt) + limit.windowMs };
    }
    q.insertClient.run(c.id, c.name, JSON.stringify(c.redirectUris), c.createdAt, limit?.address ?? null);
    return toClient(q.getClient.get(c.id) as Row);
  });

  return {
    async createOAuthClient(c, limit) {
      return registerTx.immediate(c, limit);
    },
    async getOAuthClient(id) {
      const r = q.getClient.get(id) as Row | undefined;
      return r ? toClient(r) : null;
    },
    async createOAuthCode(c) {
      q.insertCode.run(c);
    },
    async redeemOAuthCode(r) {
      return redeemTx.immediate(r);
    },
    async rotateOAuthRefresh(r) {
      return rotateTx.immediate(r);
    },
    async findOAuthAccess(hash): Promise<OAuthAccess | null> {
      const r = q.access.get(hash) as Row | undefined;
      if (!r) return null;
      const a = q.account.get(r.account_id) as Row | undefined;
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
