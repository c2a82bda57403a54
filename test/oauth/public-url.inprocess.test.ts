// Behind a proxy the server says where it is from STAYS_PUBLIC_URL, not from the request; and
// browser-based clients may call the tool server and the OAuth endpoints across origins (CORS).
// The app in-process (test/helpers/app.ts); the Host header over a real socket, with and without
// STAYS_PUBLIC_URL, is test/oauth/host-header.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';
import { authorizeUrl, newClient, pkce } from './helpers.js';

describe('STAYS_PUBLIC_URL and CORS', () => {
  let s: TestApp;
  let acct: TestAccount;
  const PUBLIC = 'https://stays.example.com';

  beforeAll(async () => {
    s = await startApp({ STAYS_PUBLIC_URL: `${PUBLIC}/` });
    acct = await s.account();
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('the issuer, the metadata URLs and the 401 challenge use the public URL', async () => {
    const denied = await s.fetch(`${s.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(denied.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${PUBLIC}/.well-known/oauth-protected-resource"`);
    const prm = (await (await s.fetch(`${s.url}/.well-known/oauth-protected-resource`)).json()) as Record<string, unknown>;
    expect(prm).toMatchObject({ resource: `${PUBLIC}/mcp`, authorization_servers: [PUBLIC] });
    const as = (await (await s.fetch(`${s.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(as).toMatchObject({ issuer: PUBLIC, token_endpoint: `${PUBLIC}/oauth/token`, authorization_endpoint: `${PUBLIC}/oauth/authorize` });
    // An https public URL: the consent form's cookie is Secure and the form posts to the public URL.
    const clientId = await newClient(s);
    const page = await s.fetch(authorizeUrl(s, { clientId, challenge: pkce().challenge }));
    expect(page.headers.get('set-cookie')).toMatch(/; Secure/i);
    expect(await page.text()).toContain(`action="${PUBLIC}/oauth/authorize"`);
  });

  it('CORS: preflight and answers of /mcp and the token endpoint allow any origin and expose WWW-Authenticate', async () => {
    const origin = 'http://localhost:6274';
    for (const path of ['/mcp', '/oauth/token', '/oauth/register', '/.well-known/oauth-authorization-server']) {
      const pre = await s.fetch(`${s.url}${path}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } });
      expect(pre.status, path).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('*');
      expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    }
    const denied = await s.fetch(`${s.url}/mcp`, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: '{}' });
    expect(denied.status).toBe(401);
    expect(denied.headers.get('access-control-allow-origin')).toBe('*');
    expect(denied.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
    const ok = await s.fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: { origin, authorization: `Bearer ${acct.sandboxKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    await ok.text();
    // The consent page is for navigation, not fetch: no CORS there.
    const page = await s.fetch(`${s.url}/oauth/authorize`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
  });
});
