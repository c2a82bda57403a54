// The OAuth 2.1 authorization server's endpoints (mounted by routes.ts, loaded on first use):
// discovery (RFC 8414, RFC 9728), dynamic registration (RFC 7591), the consent page where the
// user signs in with an API key, and the token endpoint. Self-hosted: no external identity
// provider. Every endpoint takes a token of the caller's per-address bucket, so codes and keys
// cannot be guessed at speed.
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { authenticate } from '../core/auth.js';
import { ServiceError, isServiceError } from '../core/errors.js';
import { hashKey, keyEnvOf } from '../core/ids.js';
import type { Env } from '../http/route.js';
import { serverKey } from '../secrets.js';
import { type AuthRequest, CsrfGuard, PageError, RedirectError, parseAuthRequest, redirectTo } from './authorize.js';
import { authorizationServerMetadata, protectedResourceMetadata } from './metadata.js';
import { consentPage, errorPage } from './page.js';
import { OAuthError, clientFromRegistration, registrationResponse } from './register.js';
import { CODE_TTL_MS, PREFIX, newSecret } from './tokens.js';
import { token as issueTokens } from './token.js';
import { docsBase } from '../http/docs/base.js';
import { SCOPE, publicBase } from './urls.js';

export interface OAuthMountOptions {
  /** Takes a token of the caller's per-address bucket, setting the rate headers; 429 past the limit. */
  limitAnonymous: (c: Context<Env>) => void;
  /** The caller's address (the socket's peer; `in-process` without one): dynamic registration is bounded per address. */
  address: (c: Context<Env>) => string;
}

const CSRF_COOKIE = 'stays_oauth_csrf';
/** The window of STAYS_OAUTH_REGISTER_PER_HOUR. */
const REGISTER_WINDOW_MS = 3_600_000;
/** No script, no external asset, no framing; `form-action` is left open: the form's answer redirects to the client. */
const PAGE_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

function oauthJson(c: Context<Env>, body: object, status: number): Response {
  c.header('Cache-Control', 'no-store');
  c.header('Pragma', 'no-cache');
  return c.json(body, status as 200);
}

const oauthError = (c: Context<Env>, e: OAuthError) => oauthJson(c, { error: e.error, error_description: e.description }, e.status);

function html(c: Context<Env>, body: string, status: number): Response {
  for (const [k, v] of Object.entries(PAGE_HEADERS)) c.header(k, v);
  return c.html(body, status as 200);
}

async function formOf(c: Context<Env>): Promise<URLSearchParams> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded\b/i.test(type)) throw new OAuthError('invalid_request', 'The body must be application/x-www-form-urlencoded.');
  return new URLSearchParams(await c.req.text());
}

type Handler = (c: Context<Env>) => Promise<Response>;

export interface OAuthHandlers {
  resourceMetadata: Handler;
  serverMetadata: Handler;
  register: Handler;
  token: Handler;
  authorizeGet: Handler;
  authorizePost: Handler;
}

export function createOAuthHandlers(opts: OAuthMountOptions): OAuthHandlers {
  let guard: CsrfGuard | undefined;
  const csrf = (c: Context<Env>) => {
    const { config } = c.get('services');
    return (guard ??= new CsrfGuard(serverKey(config)));
  };
  const limited = opts.limitAnonymous;

  const resourceMetadata: Handler = async (c) => {
    limited(c);
    return c.json(protectedResourceMetadata(publicBase(c), docsBase(c)), 200);
  };
  const serverMetadata: Handler = async (c) => {
    limited(c);
    return c.json(authorizationServerMetadata(publicBase(c), docsBase(c)), 200);
  };

  const register: Handler = async (c) => {
    limited(c);
    const s = c.get('services');
    try {
      let body: unknown;
      try {
        body = JSON.parse(await c.req.text());
      } catch {
        throw new OAuthError('invalid_client_metadata', 'The body must be JSON.');
      }
      const now = s.clock.now();
      const client = await s.store.createOAuthClient(clientFromRegistration(body, s.ids, now), { address: opts.address(c), max: s.config.oauthRegisterPerHour, windowMs: REGISTER_WINDOW_MS });
      if ('retryAt' in client) {
        const retryAfter = Math.max(1, Math.ceil((client.retryAt - now) / 1000));
        throw new ServiceError(
          'rate_limit_exceeded',
          `This address registered ${s.config.oauthRegisterPerHour} clients in the last hour, the most it may (STAYS_OAUTH_REGISTER_PER_HOUR); retry in ${retryAfter} s, or reuse a client_id you registered.`,
          { retryAfter },
        );
      }
      return oauthJson(c, registrationResponse(client), 201);
    } catch (e) {
      if (e instanceof OAuthError) return oauthError(c, e);
      throw e;
    }
  };

  const token: Handler = async (c) => {
    limited(c);
    try {
      return oauthJson(c, await issueTokens(c.get('services'), await formOf(c)), 200);
    } catch (e) {
      if (e instanceof OAuthError) return oauthError(c, e);
      throw e;
    }
  };

  /** The consent page for a valid request, with a fresh nonce cookie. */
  const showConsent = (c: Context<Env>, r: AuthRequest, error: string | null, status: number) => {
    const s = c.get('services');
    const base = publicBase(c);
    const nonce = s.ids.bytes(16).toString('base64url');
    setCookie(c, CSRF_COOKIE, nonce, { path: '/oauth', httpOnly: true, sameSite: 'Strict', secure: base.startsWith('https:'), maxAge: 600 });
    return html(c, consentPage(r, csrf(c).token(nonce, s.clock.now(), r), error, `${base}/oauth/authorize`), status);
  };

  const authorizeFailed = (c: Context<Env>, e: unknown) => {
    if (e instanceof PageError) return html(c, errorPage(e.message), 400);
    if (e instanceof RedirectError) {
      return c.redirect(redirectTo(e.redirectUri, { error: e.error, error_description: e.description, state: e.state, iss: publicBase(c) }), 303);
    }
    if (isServiceError(e)) return html(c, errorPage(e.message), e.status);
    throw e;
  };

  const authorizeGet: Handler = async (c) => {
    try {
      limited(c);
      const r = await parseAuthRequest(new URL(c.req.url).searchParams, (id) => c.get('services').store.getOAuthClient(id));
      return showConsent(c, r, null, 200);
    } catch (e) {
      return authorizeFailed(c, e);
    }
  };

  const authorizePost: Handler = async (c) => {
    const s = c.get('services');
    try {
      limited(c);
      let form: URLSearchParams;
      try {
        form = await formOf(c);
      } catch {
        throw new PageError('The form must be posted as application/x-www-form-urlencoded.');
      }
      const r = await parseAuthRequest(form, (id) => s.store.getOAuthClient(id));
      if (!csrf(c).check(getCookie(c, CSRF_COOKIE), form.get('csrf'), s.clock.now(), r)) {
        return showConsent(c, r, 'This form expired or was not sent from this page; paste the key again.', 403);
      }
      const iss = publicBase(c);
      if (form.get('decision') === 'deny') {
        return c.redirect(redirectTo(r.redirectUri, { error: 'access_denied', error_description: 'The user declined.', state: r.state, iss }), 303);
      }
      const key = (form.get('api_key') ?? '').trim();
      if (key === '') return showConsent(c, r, 'Paste an API key of your account.', 400);
      if (keyEnvOf(key) === null) return showConsent(c, r, 'That is not an API key: keys start with stay_test_ or stay_live_.', 400);
      let who: Awaited<ReturnType<typeof authenticate>>;
      try {
        who = await authenticate(s, `Bearer ${key}`);
      } catch (e) {
        if (isServiceError(e)) return showConsent(c, r, e.message, 401);
        throw e;
      }
      if (who.account.disabled) return showConsent(c, r, 'The account of this key is disabled.', 403);
      if (!who.key.scopes.includes(SCOPE)) {
        return c.redirect(redirectTo(r.redirectUri, { error: 'invalid_scope', error_description: `The API key the user signed in with lacks the ${SCOPE} scope.`, state: r.state, iss }), 303);
      }
      const code = newSecret(s.ids, PREFIX.code);
      const now = s.clock.now();
      await s.store.createOAuthCode({
        hash: hashKey(code),
        clientId: r.client.id,
        redirectUri: r.redirectUri,
        challenge: r.challenge,
        scope: r.scope,
        keyId: who.key.id,
        expiresAt: now + CODE_TTL_MS,
        createdAt: now,
      });
      setCookie(c, CSRF_COOKIE, '', { path: '/oauth', httpOnly: true, sameSite: 'Strict', maxAge: 0 });
      c.header('Cache-Control', 'no-store');
      return c.redirect(redirectTo(r.redirectUri, { code, state: r.state, iss }), 303);
    } catch (e) {
      return authorizeFailed(c, e);
    }
  };

  return { resourceMetadata, serverMetadata, register, token, authorizeGet, authorizePost };
}
