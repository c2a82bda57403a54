// RFC 7591 dynamic client registration: public clients only (no secret; PKCE protects the code).
// A redirect URI must be https, or http on a loopback address (a desktop agent's local listener,
// RFC 8252 §7.3), without a fragment.
import type { IdGenerator } from '../core/ids.js';
import { textProblem } from '../core/validate.js';
import type { OAuthClientRow } from '../core/ports/store.js';
import { SCOPE } from './urls.js';
import { newClientId } from './tokens.js';

export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

/** C0 control characters and DEL (as the API's text parameters refuse them). */
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A space or a C0/DEL control character: never part of a URI (RFC 3986), and the URL parser would silently drop some. */
const URI_FORBIDDEN = /[\u0000-\u0020\u007f]/;

/**
 * Bounds of one registration (issue 21: 3,000 unauthenticated registrations of 10 URIs of 1.9 KB
 * each grew the database by 46 MB). A desktop agent registers one or two loopback URIs; a hosted
 * one, a short https callback.
 */
const MAX_REDIRECT_URIS = 5;
const MAX_REDIRECT_URI_LENGTH = 512;
const MAX_CLIENT_NAME_LENGTH = 200;

function redirectUriProblem(uri: string): string | null {
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return `is longer than ${MAX_REDIRECT_URI_LENGTH} characters`;
  if (URI_FORBIDDEN.test(uri)) return 'holds a space or a control character';
  if (textProblem(uri)) return 'is not valid Unicode text';
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return 'is not an absolute URL';
  }
  if (u.hash !== '' || uri.includes('#')) return 'has a fragment';
  if (u.username !== '' || u.password !== '') return 'carries credentials';
  if (u.protocol === 'https:') return null;
  if (u.protocol === 'http:' && LOOPBACK.has(u.hostname)) return null;
  return 'must be https, or http on a loopback address (127.0.0.1, [::1], localhost)';
}

/** Validates a registration request and makes the client (not yet stored). */
export function clientFromRegistration(body: unknown, ids: IdGenerator, now: number): OAuthClientRow {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new OAuthError('invalid_client_metadata', 'The body must be a JSON object.');
  const b = body as Record<string, unknown>;
  const uris = b.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0) throw new OAuthError('invalid_redirect_uri', 'redirect_uris is required: a non-empty array of URLs.');
  if (uris.length > MAX_REDIRECT_URIS) throw new OAuthError('invalid_redirect_uri', `At most ${MAX_REDIRECT_URIS} redirect_uris.`);
  for (const [i, u] of uris.entries()) {
    if (typeof u !== 'string') throw new OAuthError('invalid_redirect_uri', `redirect_uris[${i}] must be a string.`);
    const problem = redirectUriProblem(u);
    if (problem) throw new OAuthError('invalid_redirect_uri', `redirect_uris[${i}] ${problem}.`);
  }
  const name = b.client_name;
  if (name !== undefined && (typeof name !== 'string' || name.length > MAX_CLIENT_NAME_LENGTH)) {
    throw new OAuthError('invalid_client_metadata', `client_name must be a string of at most ${MAX_CLIENT_NAME_LENGTH} characters.`);
  }
  // Shown on the consent page and stored: printable text only, the same on both stores (a NUL once gave a 500 on PostgreSQL).
  if (typeof name === 'string' && (CONTROL_CHARS.test(name) || textProblem(name) !== null)) {
    throw new OAuthError('invalid_client_metadata', 'client_name must be printable text: no control characters, no lone UTF-16 surrogates.');
  }
  const grants = b.grant_types;
  if (grants !== undefined && (!Array.isArray(grants) || grants.some((g) => g !== 'authorization_code' && g !== 'refresh_token'))) {
    throw new OAuthError('invalid_client_metadata', 'grant_types may hold only authorization_code and refresh_token.');
  }
  const types = b.response_types;
  if (types !== undefined && (!Array.isArray(types) || types.some((t) => t !== 'code'))) throw new OAuthError('invalid_client_metadata', 'response_types may hold only code.');
  if (b.scope !== undefined && (typeof b.scope !== 'string' || b.scope.split(' ').some((s) => s !== '' && s !== SCOPE))) {
    throw new OAuthError('invalid_client_metadata', `The only scope is ${SCOPE}.`);
  }
  // The same URI twice is stored once.
  return { id: newClientId(ids), name: typeof name === 'string' && name.trim() !== '' ? name.trim() : null, redirectUris: [...new Set(uris as string[])], createdAt: now };
}

/** The registration response: what was registered, as RFC 7591 §3.2.1 answers it. */
export function registrationResponse(c: OAuthClientRow) {
  return {
    client_id: c.id,
    client_id_issued_at: Math.floor(c.createdAt / 1000),
    ...(c.name !== null ? { client_name: c.name } : {}),
    redirect_uris: c.redirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    scope: SCOPE,
  };
}
