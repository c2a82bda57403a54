// /mcp on `stays serve`: the official SDK client over Streamable HTTP, with an API key sent as
// the bearer directly. The tools act for that key: the same envelope, billing and errors as REST.
// Without (or with a bad) credential the endpoint answers 401 with the RFC 9728 pointer an agent
// follows to sign in with OAuth. The app in-process (test/helpers/app.ts), the SDK's transport
// given the app's fetch; the SDK client against a real `stays serve` is in test/oauth/flow.test.ts
// (with an OAuth token) and test/mcp/mcp-port.test.ts (--mcp-port).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';
import { httpClient, textOf } from './helpers.js';

interface Envelope {
  data: unknown[];
  meta: { creditsCharged: number; environment: string; requestId: string };
}

describe('/mcp on stays serve (Streamable HTTP, an API key as the bearer)', () => {
  let s: TestApp;
  let acct: TestAccount;
  const clients: Client[] = [];

  beforeAll(async () => {
    s = await startApp();
    acct = await s.account({ credits: 1000 });
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await s?.stop();
  });

  it('the SDK client lists the seven tools and calls search_stays with a sandbox key', async () => {
    const client = await httpClient(`${s.url}/mcp`, acct.sandboxKey, s.fetch);
    clients.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['check_availability', 'compare_prices', 'get_job', 'get_listing', 'get_price', 'get_reviews', 'search_stays']);
    const r = await client.callTool({ name: 'search_stays', arguments: { location: 'Lisbon', limit: 2 } });
    expect(r.isError).toBeFalsy();
    const body = r.structuredContent as unknown as Envelope;
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.meta).toMatchObject({ environment: 'test', creditsCharged: 0 });
    expect(textOf(r)).toContain('Lisbon');
    // The same answer REST gives the same key.
    const rest = (await (await s.req('/v1/search?location=Lisbon&limit=2', { key: acct.sandboxKey })).json()) as Envelope;
    expect(body.data).toEqual(rest.data);
  });

  it("a bad argument is a tool error carrying REST's typed error", async () => {
    const client = await httpClient(`${s.url}/mcp`, acct.sandboxKey, s.fetch);
    clients.push(client);
    const r = await client.callTool({ name: 'get_price', arguments: { platform: 'airbnb' } });
    expect(r.isError).toBe(true);
    expect((r.structuredContent as { error: unknown }).error).toMatchObject({ type: 'invalid_request', requestId: expect.stringMatching(/^req_/) });
  });

  it('no credential: 401 with WWW-Authenticate naming the protected-resource metadata, and a JSON error', async () => {
    const res = await s.fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${s.url}/.well-known/oauth-protected-resource"`);
    expect(((await res.json()) as { error: unknown }).error).toMatchObject({ type: 'authentication_error', code: 'missing_api_key' });
  });

  it('a bad credential: 401 with error="invalid_token"', async () => {
    for (const bearer of ['stay_test_nope', 'garbage']) {
      const res = await s.fetch(`${s.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(401);
      const h = res.headers.get('www-authenticate') ?? '';
      expect(h).toMatch(/^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="/);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
    }
  });

  it('a key without stays.read: 403 insufficient_scope', async () => {
    const other = await s.account({ scopes: 'account.read' });
    const res = await s.fetch(`${s.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${other.sandboxKey}`, 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope", scope="stays.read"');
  });

  it('GET offers no standalone stream (stateless): 405 with Allow', async () => {
    const res = await s.fetch(`${s.url}/mcp`, { headers: { authorization: `Bearer ${acct.sandboxKey}`, accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, DELETE');
  });
});
