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

  it('the SDK client lists the twelve tools and calls search_stays with a sandbox key', async () => {
    const client = await httpClient(`${s.url}/mcp`, acct.sandboxKey, s.fetch);
    clients.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'check_availability',
      'compare_prices',
      'find_matches',
      'get_availability_changes',
      'get_inferred_bookings',
      'get_job',
      'get_listing',
      'get_market_metrics',
      'get_price',
      'get_price_history',
      'get_reviews',
      'search_stays',
    ]);
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

  // Issue 26, item 6: the history tools over /mcp with a sandbox key: free, the same answer on
  // every call and the one REST gives the key; bad input is the API's typed error, not a crash.
  it('get_price_history and get_availability_changes with a sandbox key: free, deterministic, as REST', async () => {
    const client = await httpClient(`${s.url}/mcp`, acct.sandboxKey, s.fetch);
    clients.push(client);
    const price = { platform: 'airbnb', listingId: '12345678', checkIn: '2027-03-01', checkOut: '2027-03-04', adults: 2, to: '2027-03-01' };
    const calls = [
      { name: 'get_price_history', args: price, rest: '/v1/history/price?platform=airbnb&listingId=12345678&checkIn=2027-03-01&checkOut=2027-03-04&adults=2&to=2027-03-01' },
      {
        name: 'get_availability_changes',
        args: { platform: 'vrbo', listingId: '4886746', startDate: '2027-03-01', endDate: '2027-03-15', to: '2027-03-15' },
        rest: '/v1/history/availability?platform=vrbo&listingId=4886746&startDate=2027-03-01&endDate=2027-03-15&to=2027-03-15',
      },
    ];
    for (const c of calls) {
      const first = await client.callTool({ name: c.name, arguments: c.args });
      expect(first.isError, textOf(first)).toBeFalsy();
      const again = await client.callTool({ name: c.name, arguments: c.args });
      const body = first.structuredContent as unknown as { data: unknown; meta: Envelope['meta'] };
      expect(body.meta).toMatchObject({ environment: 'test', creditsCharged: 0 });
      expect((again.structuredContent as unknown as { data: unknown }).data).toEqual(body.data);
      expect(textOf(again)).toBe(textOf(first));
      const rest = (await (await s.req(c.rest, { key: acct.sandboxKey })).json()) as { data: unknown };
      expect(body.data).toEqual(rest.data);
    }
    // The synthetic series moves week by week: several distinct prices, each line one of them.
    const r = await client.callTool({ name: 'get_price_history', arguments: price });
    const rows = (r.structuredContent as unknown as { data: { totalPrice: number }[] }).data;
    expect(rows.length).toBeGreaterThan(1);
    const text = textOf(r);
    expect(text.split('\n')[0]).toBe(
      `${rows.length} distinct prices of airbnb 12345678, 2027-03-01 to 2027-03-04 on this page (a row per change), total from ${Math.min(...rows.map((x) => x.totalPrice)).toLocaleString('en-US', { maximumFractionDigits: 2 })} USD to ${Math.max(...rows.map((x) => x.totalPrice)).toLocaleString('en-US', { maximumFractionDigits: 2 })} USD; no credits charged (sandbox key).`,
    );
    expect(text.split('\n').filter((l) => l.startsWith('- '))).toHaveLength(rows.length);
    const cal = await client.callTool({ name: 'get_availability_changes', arguments: calls[1]!.args });
    const h = (cal.structuredContent as unknown as { data: { changes: { available: { from: boolean | null; to: boolean } }[]; latest: { available: boolean }[] } }).data;
    expect(h.latest).toHaveLength(14);
    const calText = textOf(cal);
    expect(calText).toContain(`Latest: ${h.latest.filter((d) => d.available).length} of 14 observed nights available`);
    // Each booking among the 20 changes shown is a line from available (the sandbox's nights taken were booked).
    const booked = h.changes.slice(0, 20).filter((c) => c.available.from === true && c.available.to === false).length;
    expect(booked).toBeGreaterThan(0);
    expect(calText.split('\n').filter((l) => l.includes('available → unavailable'))).toHaveLength(booked);
  });

  it('the history tools refuse bad input with the typed error, free', async () => {
    const client = await httpClient(`${s.url}/mcp`, acct.sandboxKey, s.fetch);
    clients.push(client);
    const bad: [string, Record<string, unknown>, Record<string, unknown>][] = [
      ['get_price_history', { platform: 'airbnb', listingId: '12345678', checkIn: '2027-03-04', checkOut: '2027-03-01' }, { code: 'invalid_date_range', param: 'checkOut' }],
      [
        'get_price_history',
        { platform: 'airbnb', listingId: '12345678', checkIn: '2027-03-01', checkOut: '2027-03-04', from: '2025-01-01', to: '2027-01-01' },
        { code: 'window_too_long', param: 'from' },
      ],
      ['get_price_history', { platform: 'airbnb', checkIn: '2027-03-01', checkOut: '2027-03-04' }, { type: 'invalid_request', param: 'listingId' }],
      ['get_availability_changes', { platform: 'vrbo', listingId: '4886746', startDate: '2027-03-15', endDate: '2027-03-01' }, { code: 'invalid_date_range', param: 'endDate' }],
      ['get_availability_changes', { platform: 'vrbo', listingId: '4886746', startDate: '2027-03-01', endDate: '2027-03-15', limit: 0 }, { type: 'invalid_request', param: 'limit' }],
      ['get_availability_changes', { platform: 'vrbo', listingId: '4886746', startDate: '2027-03-01', endDate: '2027-03-15', from: 'yesterday' }, { type: 'invalid_request', param: 'from' }],
    ];
    for (const [name, args, error] of bad) {
      const r = await client.callTool({ name, arguments: args });
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect((r.structuredContent as { error: unknown }).error).toMatchObject({ ...error, requestId: expect.stringMatching(/^req_/) });
      expect(textOf(r)).toContain(String(error.code ?? error.type));
    }
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
