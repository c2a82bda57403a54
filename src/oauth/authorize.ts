// The authorization endpoint's rules: which requests may even show the consent page, which
// errors go back to the client (a redirect with error=, RFC 6749 §4.1.2.1) and which cannot
// (an unknown client or an unregistered redirect_uri: the user sees an error page, never a
// redirect to an unvetted address). PKCE is required, S256 only.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { textProblem } from '../core/validate.js';
import type { OAuthClientRow } from '../core/ports/store.js';
import { PKCE_RE } from './tokens.js';
import { SCOPE } from './urls.js';

/** Fields of an authorization request (query on GET, hidden form fields on POST). */
export interface AuthRequest {
  client: OAuthClientRow;
  redirectUri: string;
  challenge: string;
  scope: string;
  state: string | null;
}

/** An error the user must see: there is no trustworthy place to redirect to. */
export class PageError extends Error {}

/** An error for the client, sent to its redirect_uri. */
export class RedirectError extends Error {
  constructor(
    readonly redirectUri: string,
    readonly state: string | null,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

const one = (p: URLSearchParams, name: string): string | null => {
  const all = p.getAll(name);
  if (all.length > 1) throw new PageError(`The parameter ${name} is repeated.`);
  return all[0] ?? null;
};

export async function parseAuthRequest(p: URLSearchParams, getClient: (id: string) => Promise<OAuthClientRow | null>): Promise<AuthRequest> {
  const clientId = one(p, 'client_id');
  if (!clientId) throw new PageError('The request names no client (client_id is missing).');
  // Text no store can hold (a NUL) is no client of ours: never sent to the store (issue 21).
  const client = clientId.length <= 100 && textProblem(clientId) === null ? await getClient(clientId) : null;
  if (!client) throw new PageError('The application asking for access is not registered here (unknown client_id).');
  const redirectUri = one(p, 'redirect_uri');
  if (!redirectUri) throw new PageError('The request has no redirect_uri.');
  if (!client.redirectUris.includes(redirectUri)) throw new PageError('The redirect_uri is not one the application registered.');
  const state = one(p, 'state');
  const fail = (error: string, description: string) => new RedirectError(redirectUri, state, error, description);
  if (one(p, 'response_type') !== 'code') throw fail('unsupported_response_type', 'response_type must be code.');
  const challenge = one(p, 'code_challenge');
  const method = one(p, 'code_challenge_method');
  if (!challenge) throw fail('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256.');
  if (method !== 'S256') throw fail('invalid_request', `code_challenge_method must be S256${method ? ` (${method.slice(0, 20)} is not supported)` : ''}.`);
  if (!PKCE_RE.test(challenge) || challenge.length !== 43) throw fail('invalid_request', 'code_challenge must be the 43-character base64url SHA-256 of the code_verifier.');
  const scope = one(p, 'scope');
  const scopes = (scope ?? SCOPE).split(' ').filter(Boolean);
  if (scopes.length === 0 || scopes.some((s) => s !== SCOPE)) throw fail('invalid_scope', `The only scope is ${SCOPE}.`);
  if (state !== null && state.length > 1000) throw fail('invalid_request', 'state is longer than 1000 characters.');
  return { client, redirectUri, challenge, scope: SCOPE, state };
}

/** Where the client is sent back to, with `params` added to its query (RFC 9207: iss too). */
export function redirectTo(redirectUri: string, params: Record<string, string | null>): string {
  const u = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== null) u.searchParams.set(k, v);
  return u.toString();
}

/**
 * CSRF protection of the consent form: a nonce in a SameSite=Strict cookie and, in the form, a
 * MAC over the nonce, the time and the request the form was shown for. A form posted from
 * another site carries no cookie; a form altered on the way fails the MAC; an old one expires.
 */
export class CsrfGuard {
  private readonly key: Buffer;
  constructor(
    serverKey: Buffer,
    private readonly maxAgeMs = 10 * 60_000,
  ) {
    this.key = Buffer.from(hkdfSync('sha256', serverKey, Buffer.alloc(0), 'stays oauth consent csrf', 32));
  }

  private mac(nonce: string, at: number, r: AuthRequest): string {
    return createHmac('sha256', this.key)
      .update(JSON.stringify([nonce, at, r.client.id, r.redirectUri, r.challenge, r.scope, r.state]))
      .digest('base64url');
  }

  token(nonce: string, at: number, r: AuthRequest): string {
    return `${at}.${this.mac(nonce, at, r)}`;
  }

  check(nonce: string | undefined, token: string | null, now: number, r: AuthRequest): boolean {
    if (!nonce || !token) return false;
    const m = /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!m) return false;
    const at = Number(m[1]);
    if (now - at > this.maxAgeMs || at - now > 60_000) return false;
    const want = Buffer.from(this.mac(nonce, at, r));
    const got = Buffer.from(m[2]!);
    return want.length === got.length && timingSafeEqual(want, got);
  }
}
