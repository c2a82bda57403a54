// Scopes on every route (issue 21, item 5): each route declares the scopes it needs and a
// credential without one of them gets 403 scope_insufficient before the handler runs. An OAuth
// access token (stays.read only, "read-only" on the consent page) reads, looks up and lists, but
// cannot create or delete webhooks or top up. Through the app in-process (test/helpers/app.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES, type Scope } from '../../src/core/plans.js';
import type { RouteDef } from '../../src/http/route.js';
import { FAMILY_S_ROUTES } from '../../src/http/routes/s/index.js';
import { FAMILY_U_ROUTES } from '../../src/http/routes/u/index.js';
import { signIn } from '../oauth/helpers.js';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';

const ROUTES: RouteDef[] = [...FAMILY_U_ROUTES, ...FAMILY_S_ROUTES];

interface ErrorBody {
  error?: { type: string; code: string; message: string; param: string | null; creditsCharged: number };
}

/** A request to `route` with placeholder path values and an empty JSON body: the scope check comes first. */
async function call(s: TestApp, route: RouteDef, key: string): Promise<{ status: number; body: ErrorBody }> {
  const path = route.path.replace('{platform}', 'airbnb').replace(/\{\w+\}/g, 'x1');
  const init: RequestInit & { key: string } = { key, method: route.method.toUpperCase() };
  if (route.method === 'post') Object.assign(init, { headers: { 'content-type': 'application/json' }, body: '{}' });
  const res = await s.req(path, init);
  return { status: res.status, body: (await res.json()) as ErrorBody };
}

function expectScopeRefused(r: { status: number; body: ErrorBody }, what: string): void {
  expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(403);
  expect(r.body.error).toMatchObject({ type: 'permission_denied', code: 'scope_insufficient', param: null, creditsCharged: 0 });
}

describe('scopes on every route', () => {
  let s: TestApp;
  let a: TestAccount;
  /** For each scope, a sandbox key with every scope but that one. */
  const without = new Map<Scope, string>();
  let token: string;

  beforeAll(async () => {
    s = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '50' });
    a = await s.account({ rpm: 5000, credits: 1000 });
    for (const scope of SCOPES) {
      const k = await s.admin<{ key: string }>('key', 'create', '--account', a.id, '--env', 'sandbox', '--scopes', SCOPES.filter((x) => x !== scope).join(','));
      without.set(scope, k.key);
    }
    token = (await signIn(s, a.liveKey)).access_token;
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
  });

  it('every route declares its scopes, from the known ones', () => {
    expect(ROUTES.length).toBeGreaterThan(20);
    for (const r of ROUTES) {
      expect(Array.isArray(r.scopes), `${r.method} ${r.path}`).toBe(true);
      for (const x of r.scopes) expect(SCOPES, `${r.method} ${r.path}`).toContain(x);
    }
    // Whatever changes state beyond a lookup needs a write scope: reads never suffice.
    const needs = (m: string, p: string) => ROUTES.find((r) => r.method === m && r.path === p)!.scopes;
    expect(needs('post', '/v1/webhooks')).toEqual(['stays.read', 'webhooks.write']);
    expect(needs('delete', '/v1/webhooks/{id}')).toEqual(['webhooks.write']);
    expect(needs('post', '/v1/billing/topups')).toEqual(['billing.write']);
    expect(needs('post', '/v1/watches')).toEqual(['stays.read', 'watches.write']);
    expect(needs('delete', '/v1/watches/{id}')).toEqual(['stays.read', 'watches.write']);
  });

  it('a key without any one scope a route needs gets 403 scope_insufficient on that route', async () => {
    let checked = 0;
    for (const r of ROUTES) {
      for (const scope of r.scopes) {
        expectScopeRefused(await call(s, r, without.get(scope)!), `${r.method} ${r.path} without ${scope}`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('routes that need no scope answer any valid key of the account', async () => {
    const open = ROUTES.filter((r) => r.scopes.length === 0);
    expect(open.map((r) => `${r.method} ${r.path}`).sort()).toEqual(['get /v1/account', 'get /v1/jobs', 'get /v1/jobs/{jobId}']);
    const onlyBilling = (await s.admin<{ key: string }>('key', 'create', '--account', a.id, '--env', 'sandbox', '--scopes', 'billing.write')).key;
    for (const r of open) {
      const res = await call(s, r, onlyBilling);
      expect(res.body.error?.code, `${r.method} ${r.path}`).not.toBe('scope_insufficient');
    }
  });

  it('an OAuth token (stays.read, read-only) passes exactly the routes that need stays.read at most', async () => {
    for (const r of ROUTES) {
      const res = await call(s, r, token);
      if (r.scopes.every((x) => x === 'stays.read')) expect(res.body.error?.code, `${r.method} ${r.path}`).not.toBe('scope_insufficient');
      else expectScopeRefused(res, `token on ${r.method} ${r.path}`);
    }
  });

  it('a stays.read token cannot create or delete a webhook, but reads them, and looks up', async () => {
    const json = { 'content-type': 'application/json' };
    const hookBody = JSON.stringify({ url: 'https://example.com/hooks', events: ['job.succeeded'] });
    const refused = await s.req('/v1/webhooks', { key: token, method: 'POST', headers: json, body: hookBody });
    const refusedBody = (await refused.json()) as ErrorBody & { request_id?: string };
    expectScopeRefused({ status: refused.status, body: refusedBody }, 'POST /v1/webhooks with a token');
    expect(refusedBody.error!.message).toContain('webhooks.write');
    expect(refusedBody.request_id).toMatch(/^req_/);

    // The live key (default scopes) made one: the token sees it, cannot delete it.
    const made = await s.req('/v1/webhooks', { key: a.liveKey, method: 'POST', headers: json, body: hookBody });
    expect(made.status).toBe(201);
    const id = ((await made.json()) as { data: { id: string } }).data.id;
    const list = await s.req('/v1/webhooks', { key: token });
    expect(list.status).toBe(200);
    expect(((await list.json()) as { data: { id: string }[] }).data.map((w) => w.id)).toEqual([id]);
    expect((await s.req(`/v1/webhooks/${id}`, { key: token })).status).toBe(200);
    expect((await s.req(`/v1/webhooks/${id}/deliveries`, { key: token })).status).toBe(200);
    const del = await s.req(`/v1/webhooks/${id}`, { key: token, method: 'DELETE' });
    expectScopeRefused({ status: del.status, body: (await del.json()) as ErrorBody }, 'DELETE /v1/webhooks/{id} with a token');
    const still = (await (await s.req(`/v1/webhooks/${id}`, { key: a.liveKey })).json()) as { data: { active: boolean } };
    expect(still.data.active).toBe(true);

    // Reads and lookups (billed like the key: the consent page says so) work.
    expect((await s.req('/v1/account', { key: token })).status).toBe(200);
    const search = await s.req('/v1/search?location=Porto&limit=2', { key: token });
    expect([200, 202]).toContain(search.status);
  });

  it("keys made without --scopes get webhooks.write, watches.write and collections.write; OpenAPI names each operation's scopes", async () => {
    const shown = await s.admin<{ keys: { scopes: string[] }[] }>('account', 'show', a.id);
    expect(shown.keys.some((k) => k.scopes.join(',') === 'stays.read,account.read,webhooks.write,watches.write,collections.write')).toBe(true);
    const doc = (await (await s.req('/v1/openapi.json')).json()) as { paths: Record<string, Record<string, { security?: unknown; responses: Record<string, unknown> }>> };
    expect(doc.paths['/v1/webhooks']!.post!.security).toEqual([{ bearerAuth: ['stays.read', 'webhooks.write'] }]);
    expect(doc.paths['/v1/webhooks/{id}']!.delete!.security).toEqual([{ bearerAuth: ['webhooks.write'] }]);
    expect(doc.paths['/v1/collections/{id}']!.patch!.security).toEqual([{ bearerAuth: ['stays.read', 'collections.write'] }]);
    expect(doc.paths['/v1/account']!.get!.security).toBeUndefined();
    expect(doc.paths['/v1/search']!.get!.responses['403']).toBeDefined();
  });
});
