// The acceptance flow of issue 12 over real HTTP against `stays serve`: discovery → registration
// → authorize with PKCE (the consent page, signed in with a sandbox key) → token → tools/list →
// tools/call search_stays; then the same token with the official SDK client over Streamable HTTP.
// What the tokens then do (REST with them, their rate-limit bucket, hashes at rest, a client
// running the flow twice) is in-process: test/oauth/flow.inprocess.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stays, type TestAccount, startStays } from '../helpers/stays.js';
import { httpClient } from '../mcp/helpers.js';
import { REDIRECT, authorize, exchange, pkce, rpc, signIn } from './helpers.js';

interface Envelope {
  data: unknown[];
  meta: { creditsCharged: number; environment: string };
}

describe('OAuth 2.1 + PKCE for /mcp, end to end', () => {
  let s: Stays;
  let acct: TestAccount;

  beforeAll(async () => {
    s = await startStays();
    acct = await s.account({ credits: 1000 });
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('discovery → registration → authorize → token → tools/list → tools/call search_stays', async () => {
    // Discovery starts from the 401 of the tool server.
    const denied = await rpc(s, '', 'tools/list');
    expect(denied.status).toBe(401);
    const prmUrl = /resource_metadata="([^"]+)"/.exec(denied.headers.get('www-authenticate') ?? '')?.[1];
    expect(prmUrl).toBe(`${s.url}/.well-known/oauth-protected-resource`);
    const prm = (await (await fetch(prmUrl!)).json()) as { resource: string; authorization_servers: string[]; scopes_supported: string[] };
    expect(prm).toMatchObject({ resource: `${s.url}/mcp`, authorization_servers: [s.url], scopes_supported: ['stays.read'] });
    expect(await (await fetch(`${s.url}/.well-known/oauth-protected-resource/mcp`)).json()).toEqual(prm);
    const as = (await (await fetch(`${prm.authorization_servers[0]}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(as).toMatchObject({
      issuer: s.url,
      authorization_endpoint: `${s.url}/oauth/authorize`,
      token_endpoint: `${s.url}/oauth/token`,
      registration_endpoint: `${s.url}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      scopes_supported: ['stays.read'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['none'],
      response_types_supported: ['code'],
    });

    // Registration.
    const reg = await fetch(as.registration_endpoint as string, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: 'Flow test' }),
    });
    expect(reg.status).toBe(201);
    const client = (await reg.json()) as { client_id: string; token_endpoint_auth_method: string; redirect_uris: string[] };
    expect(client).toMatchObject({ client_id: expect.stringMatching(/^client_/), token_endpoint_auth_method: 'none', redirect_uris: [REDIRECT] });

    // Authorize (the consent page, signed in with the sandbox key) and token.
    const { verifier, challenge } = pkce();
    const code = await authorize(s, client.client_id, acct.sandboxKey, challenge);
    expect(code).toMatch(/^stays_ac_/);
    const tokens = await exchange(s, client.client_id, code, verifier);
    expect(tokens).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'stays.read',
      access_token: expect.stringMatching(/^stays_at_/),
      refresh_token: expect.stringMatching(/^stays_rt_/),
    });

    // The tool server with the access token.
    const listed = await rpc(s, tokens.access_token, 'tools/list');
    expect(listed.status, listed.text).toBe(200);
    expect(((listed.message!.result!.tools as { name: string }[]) ?? []).map((t) => t.name)).toContain('search_stays');
    expect((listed.message!.result!.tools as unknown[]).length).toBe(12);
    const called = await rpc(s, tokens.access_token, 'tools/call', { name: 'search_stays', arguments: { location: 'Lisbon', limit: 2 } });
    expect(called.status).toBe(200);
    const result = called.message!.result as { isError?: boolean; structuredContent: Envelope };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.data.length).toBeGreaterThan(0);
    expect(result.structuredContent.meta).toMatchObject({ environment: 'test', creditsCharged: 0 });
  });

  it('the official SDK client over Streamable HTTP with the access token', async () => {
    const tokens = await signIn(s, acct.sandboxKey);
    const client = await httpClient(`${s.url}/mcp`, tokens.access_token);
    try {
      expect((await client.listTools()).tools).toHaveLength(12);
      const r = await client.callTool({ name: 'search_stays', arguments: { location: 'Porto', limit: 1 } });
      expect(r.isError).toBeFalsy();
      expect((r.structuredContent as unknown as Envelope).meta.environment).toBe('test');
    } finally {
      await client.close();
    }
  });
});
