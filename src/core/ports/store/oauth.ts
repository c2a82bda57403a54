// OAuth 2.1 for the MCP tool server (issue 12). Part of the store port (../store.ts).
import type { AccountRow, KeyRow } from './accounts.js';

export interface OAuthClientRow {
  id: string;
  name: string | null;
  redirectUris: string[];
  createdAt: number;
}

/** Dynamic registration's bound per address: at most `max` clients from `address` within `windowMs` before the new one's createdAt. */
export interface RegistrationLimit {
  address: string;
  max: number;
  windowMs: number;
}

/** Registrations from the address are at their bound until `retryAt` (epoch ms). */
interface RegistrationRefused {
  retryAt: number;
}

/** How long a client that never got a grant (nor has a code outstanding) is kept: registration is unauthenticated. */
export const UNUSED_OAUTH_CLIENT_RETENTION_MS = 86_400_000;

/** A one-time authorization code, bound to everything the token request must repeat. */
interface NewOAuthCode {
  /** SHA-256 of the code; the code itself is never stored. */
  hash: string;
  clientId: string;
  redirectUri: string;
  /** The PKCE S256 code challenge. */
  challenge: string;
  scope: string;
  /** The API key the user signed in with: the tokens act for it. */
  keyId: string;
  expiresAt: number;
  createdAt: number;
}

interface NewOAuthToken {
  hash: string;
  expiresAt: number;
}

/** The first tokens of a new grant, issued for a code. */
export interface OAuthRedeem {
  codeHash: string;
  clientId: string;
  redirectUri: string;
  /** Whether the token request's code_verifier matches the code's challenge. */
  verify(challenge: string): boolean;
  grantId: string;
  access: NewOAuthToken;
  refresh: NewOAuthToken;
  now: number;
}

/** Why a code or refresh token was refused (`reused`: the grant it belongs to is now revoked). */
type OAuthRefusal = 'unknown' | 'expired' | 'reused' | 'revoked' | 'mismatch' | 'verifier';

export type OAuthIssued = { ok: true; scope: string; grantId: string } | { ok: false; reason: OAuthRefusal };

export interface OAuthRotate {
  hash: string;
  clientId: string;
  access: NewOAuthToken;
  refresh: NewOAuthToken;
  now: number;
}

/** An access token with the grant, key and account it acts for. */
export interface OAuthAccess {
  hash: string;
  expiresAt: number;
  scope: string;
  clientId: string;
  grantId: string;
  key: KeyRow;
  account: AccountRow;
}

export interface OAuthStore {
  /**
   * Stores a client; with `limit`, counted and written in one transaction (shared by every
   * instance on the store), unless `limit.address` is at its bound: then when it may retry.
   */
  createOAuthClient(c: OAuthClientRow, limit?: RegistrationLimit): Promise<OAuthClientRow | RegistrationRefused>;
  getOAuthClient(id: string): Promise<OAuthClientRow | null>;
  createOAuthCode(c: NewOAuthCode): Promise<void>;
  /**
   * Exchanges a code, in one transaction: refused unless it exists, is unexpired, unused, bound
   * to this client and redirect URI and `verify` accepts its challenge; then it is marked used, a
   * grant made and its first access and refresh tokens stored. A code used a second time revokes
   * the grant the first use made (every token issued from it).
   */
  redeemOAuthCode(r: OAuthRedeem): Promise<OAuthIssued>;
  /**
   * Rotates a refresh token, in one transaction: the old one is marked used and a new access and
   * refresh token of the same grant stored. An already used refresh token revokes its grant
   * (reuse means it leaked); an expired one, or one of a revoked grant or key, is refused.
   */
  rotateOAuthRefresh(r: OAuthRotate): Promise<OAuthIssued>;
  /** The access token with that hash, whatever its expiry, unless its grant is revoked. */
  findOAuthAccess(hash: string): Promise<OAuthAccess | null>;
}
