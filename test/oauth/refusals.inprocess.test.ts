// What the authorization server refuses, each the OAuth way: a wrong code_verifier, a code used
// twice (which also revokes what its first use got), a missing or unknown scope, the plain PKCE
// method, an unregistered redirect_uri, a forged consent form, bad registrations; and refresh
// tokens that rotate, with reuse of an old one revoking the whole family; access tokens that
// expire. The app in-process (test/helpers/app.ts), expiry on a manual clock; the whole flow over
// a real `stays serve` is test/oauth/flow.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';
import { REDIRECT, authorize, authorizeUrl, consent, exchange, location, newClient, openConsent, pkce, register, rpc, signIn, tokenRequest } from './helpers.js';

const errorOf = async (res: Response) => (await res.json()) as { error: string; error_description: string };

describe('OAuth refusals', () => {
  let s: TestApp;
  let acct: TestAccount;

  beforeAll(async () => {
    s = await startApp();
    acct = await s.account({ credits: 1000 });
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('a wrong code_verifier is refused (invalid_grant); the right one still works', async () => {
    const clientId = await newClient(s);
    const { verifier, challenge } = pkce();
    const code = await authorize(s, clientId, acct.sandboxKey, challenge);
    const wrong = await tokenRequest(s, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: pkce().verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.headers.get('cache-control')).toBe('no-store');
    expect(await errorOf(wrong)).toMatchObject({ error: 'invalid_grant', error_description: expect.stringContaining('code_verifier') });
    const short = await tokenRequest(s, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: 'short' });
    expect((await errorOf(short)).error).toBe('invalid_grant');
    expect((await exchange(s, clientId, code, verifier)).access_token).toMatch(/^stays_at_/);
  });

  it('a code used twice is refused, and the tokens its first use got are revoked', async () => {
    const clientId = await newClient(s);
    const { verifier, challenge } = pkce();
    const code = await authorize(s, clientId, acct.sandboxKey, challenge);
    const first = await exchange(s, clientId, code, verifier);
    expect((await rpc(s, first.access_token, 'tools/list')).status).toBe(200);
    const again = await tokenRequest(s, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier });
    expect(again.status).toBe(400);
    expect(await errorOf(again)).toMatchObject({ error: 'invalid_grant', error_description: expect.stringContaining('already used') });
    const after = await rpc(s, first.access_token, 'tools/list');
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const refresh = await tokenRequest(s, { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: clientId });
    expect((await errorOf(refresh)).error).toBe('invalid_grant');
  });

  it('a code is bound to its client and redirect_uri', async () => {
    const clientId = await newClient(s);
    const otherClient = await newClient(s);
    const { verifier, challenge } = pkce();
    const code = await authorize(s, clientId, acct.sandboxKey, challenge);
    const stolen = await tokenRequest(s, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: otherClient, code_verifier: verifier });
    expect((await errorOf(stolen)).error).toBe('invalid_grant');
    const elsewhere = await tokenRequest(s, { grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1:1/other', client_id: clientId, code_verifier: verifier });
    expect((await errorOf(elsewhere)).error).toBe('invalid_grant');
    const unknown = await tokenRequest(s, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: 'client_nope', code_verifier: verifier });
    expect(unknown.status).toBe(401);
    expect((await errorOf(unknown)).error).toBe('invalid_client');
    const missing = await tokenRequest(s, { grant_type: 'authorization_code', redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier });
    expect((await errorOf(missing)).error).toBe('invalid_request');
    const grant = await tokenRequest(s, { grant_type: 'password', client_id: clientId });
    expect((await errorOf(grant)).error).toBe('unsupported_grant_type');
  });

  it('an unknown scope is refused at authorize (invalid_scope); no scope means stays.read', async () => {
    const clientId = await newClient(s);
    const { challenge } = pkce();
    const res = await s.fetch(authorizeUrl(s, { clientId, challenge, scope: 'stays.read billing.write' }), { redirect: 'manual' });
    const back = location(res);
    expect(back.searchParams.get('error')).toBe('invalid_scope');
    expect(back.searchParams.get('state')).toBe('st-123');
    expect((await openConsent(s, { clientId, challenge })).fields.get('scope')).toBe('stays.read');
  });

  it('a key without stays.read cannot grant it (invalid_scope), and is refused by /mcp with insufficient_scope', async () => {
    const narrow = await s.account({ scopes: 'account.read' });
    const clientId = await newClient(s);
    const { challenge } = pkce();
    const page = await openConsent(s, { clientId, challenge });
    const back = location(await consent(s, page, narrow.sandboxKey));
    expect(back.searchParams.get('error')).toBe('invalid_scope');
    expect(back.searchParams.get('code')).toBeNull();
    const direct = await rpc(s, narrow.sandboxKey, 'tools/list');
    expect(direct.status).toBe(403);
    expect(direct.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
  });

  it('PKCE is required, S256 only: plain or no method or no challenge is refused at authorize', async () => {
    const clientId = await newClient(s);
    const { verifier, challenge } = pkce();
    for (const p of [{ challenge: verifier, method: 'plain' }, { challenge, method: null }, { method: 'S256' }]) {
      const back = location(await s.fetch(authorizeUrl(s, { clientId, ...p }), { redirect: 'manual' }));
      expect(back.searchParams.get('error')).toBe('invalid_request');
      expect(back.searchParams.get('error_description')).toMatch(/S256|code_challenge/);
      expect(back.searchParams.get('state')).toBe('st-123');
    }
  });

  it('an unregistered redirect_uri or unknown client gets an error page, never a redirect', async () => {
    const clientId = await newClient(s);
    const { challenge } = pkce();
    for (const url of [authorizeUrl(s, { clientId, challenge, redirectUri: 'https://evil.example/cb' }), authorizeUrl(s, { clientId: 'client_nope', challenge })]) {
      const res = await s.fetch(url, { redirect: 'manual' });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('cannot be completed');
    }
  });

  it('the consent form needs its CSRF cookie and an untampered token; a bad key shows the page again', async () => {
    const clientId = await newClient(s);
    const { challenge } = pkce();
    const page = await openConsent(s, { clientId, challenge });
    expect(page.html).toContain('Test agent');
    expect(page.cookie).toMatch(/^stays_oauth_csrf=/);
    const noCookie = await consent(s, { ...page, cookie: '' }, acct.sandboxKey);
    expect(noCookie.status).toBe(403);
    expect(noCookie.headers.get('location')).toBeNull();
    const tampered = new URLSearchParams(page.fields);
    tampered.set('code_challenge', pkce().challenge);
    expect((await consent(s, { fields: tampered, cookie: page.cookie }, acct.sandboxKey)).status).toBe(403);
    const badKey = await consent(s, page, 'stay_test_00000000000000000000000000000000');
    expect(badKey.status).toBe(401);
    expect(await badKey.text()).toContain('<form');
    const denied = location(await consent(s, page, acct.sandboxKey, 'deny'));
    expect(denied.searchParams.get('error')).toBe('access_denied');
  });

  it('registration: redirect URIs must be https or loopback http', async () => {
    const ok = await register(s, { redirect_uris: ['https://agent.example/cb', 'http://localhost:8080/cb', 'http://[::1]:9/cb'] });
    expect(ok.status).toBe(201);
    for (const body of [{}, { redirect_uris: [] }, { redirect_uris: ['http://agent.example/cb'] }, { redirect_uris: ['https://agent.example/cb#frag'] }, { redirect_uris: ['not a url'] }]) {
      const res = await register(s, body);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).error).toBe('invalid_redirect_uri');
    }
    const notJson = await s.fetch(`${s.url}/oauth/register`, { method: 'POST', body: 'x' });
    expect((await errorOf(notJson)).error).toBe('invalid_client_metadata');
  });

  it('refresh tokens rotate; reusing an old one revokes the whole family', async () => {
    const first = await signIn(s, acct.sandboxKey);
    const refresh = async (token: string) => tokenRequest(s, { grant_type: 'refresh_token', refresh_token: token, client_id: first.clientId });
    const r1 = await refresh(first.refresh_token);
    expect(r1.status).toBe(200);
    const second = (await r1.json()) as { access_token: string; refresh_token: string; scope: string };
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.scope).toBe('stays.read');
    expect((await rpc(s, second.access_token, 'tools/list')).status).toBe(200);
    const r2 = await refresh(second.refresh_token);
    expect(r2.status).toBe(200);
    const third = (await r2.json()) as { access_token: string; refresh_token: string };
    // The first refresh token again: reuse, so the family is revoked.
    const reuse = await refresh(first.refresh_token);
    expect(reuse.status).toBe(400);
    expect(await errorOf(reuse)).toMatchObject({ error: 'invalid_grant', error_description: expect.stringContaining('already used') });
    expect((await rpc(s, third.access_token, 'tools/list')).status).toBe(401);
    expect((await errorOf(await refresh(third.refresh_token))).error).toBe('invalid_grant');
  });

  it('revoking the API key ends the tokens granted with it', async () => {
    const other = await s.account();
    const tokens = await signIn(s, other.sandboxKey);
    expect((await rpc(s, tokens.access_token, 'tools/list')).status).toBe(200);
    await s.admin('key', 'revoke', other.sandboxKeyId);
    let status = 200;
    for (let i = 0; i < 50 && status === 200; i++) {
      status = (await rpc(s, tokens.access_token, 'tools/list')).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(401);
    expect((await errorOf(await tokenRequest(s, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: tokens.clientId }))).error).toBe('invalid_grant');
  });
});

describe('OAuth access tokens expire', () => {
  let s: TestApp;
  const clock = manualClock(Date.now());
  beforeAll(async () => {
    s = await startApp({ STAYS_OAUTH_ACCESS_TTL_S: '1' }, { clock });
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('an expired access token is refused with invalid_token; a refresh gets a working one', async () => {
    const acct = await s.account();
    const tokens = await signIn(s, acct.sandboxKey);
    expect(tokens.expires_in).toBe(1);
    expect((await rpc(s, tokens.access_token, 'tools/list')).status).toBe(200);
    // Its 1 s lifetime over on the runtime's clock.
    clock.advance(1_000);
    const last = await rpc(s, tokens.access_token, 'tools/list');
    expect(last.status).toBe(401);
    expect(last.headers.get('www-authenticate')).toMatch(/error="invalid_token", error_description="The OAuth access token has expired/);
    const res = await tokenRequest(s, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: tokens.clientId });
    const fresh = (await res.json()) as { access_token: string };
    expect(res.status).toBe(200);
    expect((await rpc(s, fresh.access_token, 'tools/list')).status).toBe(200);
  });
});
