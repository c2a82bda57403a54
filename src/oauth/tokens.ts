// Codes, tokens and client ids of the OAuth server: random secrets with a prefix that names what
// they are (so a leaked one is recognisable), stored only as SHA-256 hashes; and PKCE (S256).
import { createHash } from 'node:crypto';
import { ACCESS_TOKEN_PREFIX } from '../core/auth.js';
import { type IdGenerator, constantTimeEqualHex } from '../core/ids.js';

export const PREFIX = { access: ACCESS_TOKEN_PREFIX, refresh: 'stays_rt_', code: 'stays_ac_' } as const;

/** Access tokens live for STAYS_OAUTH_ACCESS_TTL_S; these are fixed. */
export const REFRESH_TTL_MS = 30 * 86_400_000;
export const CODE_TTL_MS = 60_000;

/** A new secret: the prefix and 32 random bytes in base64url (256 bits). */
export const newSecret = (ids: IdGenerator, prefix: string) => prefix + ids.bytes(32).toString('base64url');

export const newClientId = (ids: IdGenerator) => `client_${ids.ulid().toLowerCase()}`;
export const newGrantId = (ids: IdGenerator) => `grant_${ids.ulid().toLowerCase()}`;

/** RFC 7636 §4.1: 43 to 128 unreserved characters (a verifier; an S256 challenge is 43 of them). */
export const PKCE_RE = /^[A-Za-z0-9\-._~]{43,128}$/;

/** BASE64URL(SHA256(verifier)) compared with the challenge in constant time. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!PKCE_RE.test(verifier)) return false;
  const computed = createHash('sha256').update(verifier, 'ascii').digest('base64url');
  const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');
  return computed.length === challenge.length && constantTimeEqualHex(hex(computed), hex(challenge));
}
