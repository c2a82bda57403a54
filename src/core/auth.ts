// Authentication (spec "Authentication", D14) and the permission checks that follow it.
import type { Services } from './context.js';
import type { RequestContext } from './context.js';
import { ServiceError } from './errors.js';
import { constantTimeEqualHex, hashKey, keyEnvOf } from './ids.js';
import type { Scope } from './plans.js';

/** OAuth access tokens (src/oauth): `stays_at_` and 43 base64url characters. */
export const ACCESS_TOKEN_PREFIX = 'stays_at_';

/**
 * An OAuth access token acts for the API key the user signed in with: its account and
 * environment, with the token's scopes (never more than the key's).
 */
async function authenticateAccessToken(services: Services, token: string): Promise<Omit<RequestContext, 'requestId'>> {
  const hash = hashKey(token);
  const found = await services.store.findOAuthAccess(hash);
  if (!found || !constantTimeEqualHex(found.hash, hash)) throw new ServiceError('invalid_api_key', 'The OAuth access token is unknown or revoked.');
  if (found.expiresAt <= services.clock.now()) throw new ServiceError('invalid_api_key', 'The OAuth access token has expired: refresh it.');
  if (found.key.revoked) throw new ServiceError('revoked_api_key', 'The API key this OAuth access token was granted with has been revoked.');
  const granted = found.scope.split(' ');
  const key = { ...found.key, scopes: found.key.scopes.filter((s) => granted.includes(s)), oauth: { clientId: found.clientId, grantId: found.grantId, expiresAt: found.expiresAt } };
  return { key, account: found.account };
}

/**
 * The SHA-256 of API keys the store knows, by key, so a client's key is hashed once rather than
 * on every request (issue 23: 4% of a sandbox search). It maps a key to its hash and nothing
 * more: whether the key is valid, revoked or its account disabled is still the store's answer on
 * every request, within the store's own bound (docs/decisions.md, "API key hashes in memory").
 * Only keys the store found are kept, so unknown keys a client tries never stay in memory; kept
 * keys live in this process's memory only (as each request's header does while it is served),
 * are never logged or written anywhere, and at most KNOWN_KEY_HASHES of them.
 */
const knownKeyHashes = new Map<string, string>();
const KNOWN_KEY_HASHES = 1000;

/** Resolves the Authorization header to the key and its account, or throws a typed 401. */
export async function authenticate(services: Services, header: string | undefined | null): Promise<Omit<RequestContext, 'requestId'>> {
  if (header === undefined || header === null || header.trim() === '') {
    throw new ServiceError('missing_api_key');
  }
  const m = /^Bearer[ \t]+(\S+)\s*$/i.exec(header.trim());
  if (!m) throw new ServiceError('invalid_api_key', 'The Authorization header must be "Bearer <API key>".');
  const key = m[1]!;
  if (key.startsWith(ACCESS_TOKEN_PREFIX)) return authenticateAccessToken(services, key);
  const env = keyEnvOf(key);
  if (env === null) throw new ServiceError('invalid_api_key', 'The API key is malformed: keys start with stay_test_ or stay_live_.');
  const known = knownKeyHashes.get(key);
  const hash = known ?? hashKey(key);
  const found = await services.store.findKeyByHash(hash);
  // The lookup is by hash; the explicit comparison keeps the check constant-time regardless of the store.
  if (!found || !constantTimeEqualHex(found.key.hash, hash) || found.key.env !== env) {
    throw new ServiceError('invalid_api_key');
  }
  if (known === undefined) {
    if (knownKeyHashes.size >= KNOWN_KEY_HASHES) knownKeyHashes.clear();
    knownKeyHashes.set(key, hash);
  }
  if (found.key.revoked) throw new ServiceError('revoked_api_key');
  return { key: found.key, account: found.account };
}

/**
 * The rate-limit bucket of a caller: its key for REST, and one per account (per user) for calls
 * made with OAuth access tokens, so an agent and the account's scripts do not starve each other.
 */
export function rateBucket(ctx: Omit<RequestContext, 'requestId'>): string {
  return ctx.key.oauth ? `oauth:${ctx.account.id}` : ctx.key.id;
}

export function requireScope(ctx: Pick<RequestContext, 'key'>, scope: Scope): void {
  if (!ctx.key.scopes.includes(scope)) {
    const message = ctx.key.oauth
      ? `This OAuth access token lacks the ${scope} scope: tokens carry stays.read only (read-only; use an API key for this call).`
      : `This API key lacks the ${scope} scope (an operator grants it: stays admin key create --scopes).`;
    throw new ServiceError('scope_insufficient', message, { param: null });
  }
}

export function requireActiveAccount(ctx: RequestContext): void {
  if (ctx.account.disabled) throw new ServiceError('account_disabled');
}

/** D27: an unverified email locks live credit only; sandbox keys and free reads are unaffected. */
export function requireLiveUnlocked(ctx: RequestContext): void {
  if (ctx.key.env === 'live' && !ctx.account.emailVerified) throw new ServiceError('email_unverified');
}
