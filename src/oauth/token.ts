// The token endpoint (RFC 6749 §3.2, OAuth 2.1): authorization_code with PKCE S256, and rotating
// refresh tokens. Public clients: the client_id in the body identifies the client.
import type { Services } from '../core/context.js';
import { hashKey } from '../core/ids.js';
import { textProblem } from '../core/validate.js';
import type { OAuthIssued } from '../core/ports/store.js';
import { OAuthError } from './register.js';
import { PKCE_RE, PREFIX, REFRESH_TTL_MS, newGrantId, newSecret, verifierMatches } from './tokens.js';
import { SCOPE } from './urls.js';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

const REFUSED: Record<string, string> = {
  unknown: 'is unknown',
  expired: 'has expired',
  reused: 'was already used: every token issued from it is now revoked',
  revoked: 'was revoked (or the API key it was granted with was)',
  mismatch: 'was issued to another client or redirect_uri',
  verifier: 'does not match the code_verifier (PKCE S256)',
};

function required(form: URLSearchParams, name: string): string {
  const v = form.get(name);
  if (v === null || v === '') throw new OAuthError('invalid_request', `${name} is required.`);
  if (form.getAll(name).length > 1) throw new OAuthError('invalid_request', `${name} is repeated.`);
  const problem = textProblem(v);
  if (problem) throw new OAuthError('invalid_request', `${name} ${problem}.`);
  return v;
}

export async function token(s: Services, form: URLSearchParams): Promise<TokenResponse> {
  const grantType = required(form, 'grant_type');
  const clientId = required(form, 'client_id');
  if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
    throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
  }
  const client = await s.store.getOAuthClient(clientId);
  if (!client) throw new OAuthError('invalid_client', 'Unknown client_id: register first (POST /oauth/register).', 401);
  const now = s.clock.now();
  const accessTtlMs = s.config.oauthAccessTtlS * 1000;
  const access = newSecret(s.ids, PREFIX.access);
  const refresh = newSecret(s.ids, PREFIX.refresh);
  const tokens = { access: { hash: hashKey(access), expiresAt: now + accessTtlMs }, refresh: { hash: hashKey(refresh), expiresAt: now + REFRESH_TTL_MS }, now };
  let issued: OAuthIssued;
  let what: string;
  if (grantType === 'authorization_code') {
    const code = required(form, 'code');
    const redirectUri = required(form, 'redirect_uri');
    const verifier = required(form, 'code_verifier');
    if (!PKCE_RE.test(verifier)) throw new OAuthError('invalid_grant', 'code_verifier must be 43 to 128 unreserved characters (RFC 7636).');
    what = 'The authorization code';
    issued = await s.store.redeemOAuthCode({ codeHash: hashKey(code), clientId, redirectUri, verify: (challenge) => verifierMatches(verifier, challenge), grantId: newGrantId(s.ids), ...tokens });
  } else {
    const old = required(form, 'refresh_token');
    const scope = form.get('scope');
    if (scope?.split(' ').some((x) => x !== '' && x !== SCOPE)) throw new OAuthError('invalid_scope', `The only scope is ${SCOPE}.`);
    what = 'The refresh token';
    issued = await s.store.rotateOAuthRefresh({ hash: hashKey(old), clientId, ...tokens });
  }
  if (!issued.ok) throw new OAuthError('invalid_grant', `${what} ${REFUSED[issued.reason]}.`);
  return { access_token: access, token_type: 'Bearer', expires_in: s.config.oauthAccessTtlS, refresh_token: refresh, scope: issued.scope };
}
