// Webhook routes (issue 10, Family S) through the app in-process (deliveries to real loopback receivers): shapes, the secret
// only on create and never at rest in plain, soft delete, another account's webhook is a 404,
// every bad input a typed 4xx whose request_id equals X-Request-Id, the Family S error envelope
// for 401/403/429 too, the per-account cap, the SSRF guard, and the OpenAPI document.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';

let s: TestApp;
let a: TestAccount;
let other: TestAccount;
beforeAll(async () => {
  s = await startApp();
  [a, other] = await Promise.all([s.account({ rpm: 100_000 }), s.account({ rpm: 100_000 })]);
});
afterAll(async () => {
  await s.stop();
});

type Body = { data?: Record<string, unknown> & { id?: string }; error?: { code: string; param: string | null; message: string; requestId: string }; request_id: string; meta?: unknown };

async function call(path: string, init: RequestInit & { key?: string; json?: unknown } = {}): Promise<{ status: number; body: Body; headers: Headers }> {
  const { json, ...rest } = init;
  const res = await s.req(
    path,
    json === undefined ? rest : { ...rest, method: rest.method ?? 'POST', body: JSON.stringify(json), headers: { 'content-type': 'application/json', ...(rest.headers as object) } },
  );
  const body = (await res.json()) as Body;
  // Family S: every body carries request_id, equal to the header.
  expect(body.request_id).toBe(res.headers.get('x-request-id'));
  expect(body.request_id).toMatch(/^req_/);
  return { status: res.status, body, headers: res.headers };
}

const create = (key: string, json: unknown) => call('/v1/webhooks', { key, json });

function expectTyped(r: { status: number; body: Body }, status: number, code: string, param?: string | null) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(Object.keys(r.body).sort()).toEqual(['error', 'request_id']);
  expect(r.body.error!.code).toBe(code);
  expect(r.body.error!.requestId).toBe(r.body.request_id);
  if (param !== undefined) expect(r.body.error!.param).toBe(param);
}

describe('POST /v1/webhooks', () => {
  it('201 with the webhook, its signing secret and a note that it is shown only once', async () => {
    const r = await create(a.sandboxKey, { url: 'https://example.com/hooks?t=1', events: ['job.succeeded', 'job.failed', 'job.succeeded'] });
    expect(r.status).toBe(201);
    const d = r.body.data!;
    expect(Object.keys(d).sort()).toEqual(['active', 'consecutive_failures', 'created_at', 'description', 'disabled_at', 'disabled_reason', 'events', 'id', 'note', 'signing_secret', 'status', 'url']);
    expect(d).toMatchObject({ active: true, status: 'active', consecutive_failures: 0, disabled_at: null, disabled_reason: null });
    expect(d.id).toMatch(/^wh_[0-9A-Z]{26}$/);
    expect(d).toMatchObject({ url: 'https://example.com/hooks?t=1', events: ['job.succeeded', 'job.failed'], description: null, active: true });
    expect(new Date(d.created_at as string).toISOString()).toBe(d.created_at);
    expect(d.signing_secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(d.note).toMatch(/only once/);
  });

  it('a blank or null description is null', async () => {
    for (const description of ['  ', null]) {
      const r = await create(a.sandboxKey, { url: 'https://example.com/blank', events: ['job.queued'], description });
      expect(r.status).toBe(201);
      expect(r.body.data!.description).toBeNull();
      await call(`/v1/webhooks/${r.body.data!.id}`, { key: a.sandboxKey, method: 'DELETE' });
    }
  });

  it('keeps the description; a comma list of events is understood; the secret is never stored in plain', async () => {
    const r = await create(a.liveKey, { url: 'http://example.org/in', events: 'job.queued,stay.cached', description: 'staging receiver' });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ events: ['job.queued', 'stay.cached'], description: 'staging receiver' });
    const secret = r.body.data!.signing_secret as string;
    for (const f of readdirSync(s.dataDir)) {
      if (f === 'secret.key') continue;
      expect(readFileSync(join(s.dataDir, f)).includes(secret), f).toBe(false);
    }
    expect(s.stdout()).not.toContain(secret);
  });

  it.each([
    ['no url', { events: ['job.queued'] }, 'missing_parameter', 'url'],
    ['an ftp url', { url: 'ftp://example.com/x', events: ['job.queued'] }, 'invalid_parameter', 'url'],
    ['a relative url', { url: '/hooks', events: ['job.queued'] }, 'invalid_parameter', 'url'],
    ['a javascript: url', { url: 'javascript:alert(1)', events: ['job.queued'] }, 'invalid_parameter', 'url'],
    ['credentials in the url', { url: 'https://user:pw@example.com/x', events: ['job.queued'] }, 'invalid_parameter', 'url'],
    ['a url over 2048 characters', { url: `https://example.com/${'a'.repeat(2040)}`, events: ['job.queued'] }, 'invalid_parameter', 'url'],
    ['a url that is a number', { url: 42, events: ['job.queued'] }, 'invalid_parameter', 'url'],
    ['a url with a control character', { url: 'https://example.com/\u0001', events: ['job.queued'] }, 'invalid_parameter', 'url'],
    ['no events', { url: 'https://example.com/x' }, 'missing_parameter', 'events'],
    ['an empty event list', { url: 'https://example.com/x', events: [] }, 'invalid_parameter', 'events'],
    ['an unknown event', { url: 'https://example.com/x', events: ['job.queued', 'job.exploded'] }, 'invalid_parameter', 'events'],
    ['an event that is a number', { url: 'https://example.com/x', events: [7] }, 'invalid_parameter', 'events'],
    ['events as an object', { url: 'https://example.com/x', events: { a: 1 } }, 'invalid_parameter', 'events'],
    ['a description over 500 characters', { url: 'https://example.com/x', events: ['job.queued'], description: 'd'.repeat(501) }, 'invalid_parameter', 'description'],
    ['a description that is a list', { url: 'https://example.com/x', events: ['job.queued'], description: ['a', 'b'] }, 'invalid_parameter', 'description'],
    ['an array body', [1, 2], 'invalid_parameter', 'body'],
    ['a body nested too deep', JSON.parse(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`), 'invalid_parameter', 'body'],
  ])('%s → typed 400', async (_, body, code, param) => {
    const r = await create(a.sandboxKey, body);
    expectTyped(r, 400, code, param);
  });

  it('an unknown event is named in the message (D22)', async () => {
    const r = await create(a.sandboxKey, { url: 'https://example.com/x', events: ['job.exploded'] });
    expect(r.body.error!.message).toContain('job.exploded');
    expect(r.body.error!.message).toContain('job.succeeded');
  });

  it('malformed JSON, a text/plain body, an empty body and a 2 MiB body are typed', async () => {
    const post = (body: string, type = 'application/json') => call('/v1/webhooks', { key: a.sandboxKey, method: 'POST', body, headers: { 'content-type': type } });
    expectTyped(await post('{"url": '), 400, 'invalid_parameter', 'body');
    expectTyped(await post('url=x', 'text/plain'), 415, 'unsupported_media_type');
    expectTyped(await post(''), 400, 'missing_parameter', 'url');
    expectTyped(await post(JSON.stringify({ url: 'https://example.com', events: ['job.queued'], description: 'x'.repeat(2 * 1024 * 1024) })), 413, 'payload_too_large');
  });
});

describe('GET, DELETE and deliveries', () => {
  let id: string;
  beforeAll(async () => {
    id = (await create(a.liveKey, { url: 'https://example.net/hook', events: ['job.running'], description: 'to revoke' })).body.data!.id!;
  });

  it("GET /v1/webhooks lists the account's webhooks of the key's environment, newest first, without secrets", async () => {
    const live = await call('/v1/webhooks', { key: a.liveKey });
    const sandbox = await call('/v1/webhooks', { key: a.sandboxKey });
    expect(live.status).toBe(200);
    expect(Object.keys(live.body).sort()).toEqual(['data', 'request_id']);
    const list = live.body.data as unknown as Record<string, unknown>[];
    expect(list[0]!.id).toBe(id);
    for (const w of list) expect(Object.keys(w).sort()).toEqual(['active', 'consecutive_failures', 'created_at', 'description', 'disabled_at', 'disabled_reason', 'events', 'id', 'status', 'url']);
    // The POST tests above registered with the sandbox key: those are the sandbox key's only.
    const sandboxIds = (sandbox.body.data as unknown as { id: string }[]).map((w) => w.id);
    expect(sandboxIds.length).toBeGreaterThanOrEqual(2);
    expect(sandboxIds.filter((x) => list.some((w) => w.id === x))).toEqual([]);
    expect(JSON.stringify(live.body)).not.toContain('whsec_');
  });

  it('another account sees none of them', async () => {
    const r = await call('/v1/webhooks', { key: other.liveKey });
    expect(r.body.data).toEqual([]);
  });

  it('GET /v1/webhooks/{id}: the webhook without its secret', async () => {
    const r = await call(`/v1/webhooks/${id}`, { key: a.liveKey });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id, url: 'https://example.net/hook', events: ['job.running'], description: 'to revoke', active: true });
    expect(r.body.data).not.toHaveProperty('signing_secret');
  });

  it('GET /v1/webhooks/{id}/deliveries: none yet', async () => {
    const r = await call(`/v1/webhooks/${id}/deliveries`, { key: a.liveKey });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([]);
  });

  it("another account's id, an unknown id and a malformed id are 404 webhook_not_found on every route", async () => {
    const ids = [id, 'wh_01J8ZK4R2ABCDEF0123456789A', 'nope', 'wh_%E2%9C%93', `wh_${'A'.repeat(300)}`];
    for (const x of ids) {
      const key = x === id ? other.liveKey : a.liveKey;
      for (const [method, path] of [
        ['GET', `/v1/webhooks/${x}`],
        ['DELETE', `/v1/webhooks/${x}`],
        ['GET', `/v1/webhooks/${x}/deliveries`],
      ] as const) {
        expectTyped(await call(path, { key, method }), 404, 'webhook_not_found', 'id');
      }
    }
    // The other account's attempt changed nothing.
    expect((await call(`/v1/webhooks/${id}`, { key: a.liveKey })).body.data!.active).toBe(true);
  });

  it('DELETE revokes (soft delete): { id, revoked: true }; GET and the list show active false; deleting again answers the same', async () => {
    const r = await call(`/v1/webhooks/${id}`, { key: a.liveKey, method: 'DELETE' });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ id, revoked: true });
    expect((await call(`/v1/webhooks/${id}`, { key: a.liveKey })).body.data).toMatchObject({ id, active: false, status: 'deleted' });
    const listed = (await call('/v1/webhooks', { key: a.liveKey })).body.data as unknown as { id: string; active: boolean }[];
    expect(listed.find((w) => w.id === id)?.active).toBe(false);
    const again = await call(`/v1/webhooks/${id}`, { key: a.liveKey, method: 'DELETE' });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ id, revoked: true });
    expect((await call(`/v1/webhooks/${id}/deliveries`, { key: a.liveKey })).status).toBe(200);
  });
});

describe('limits, scopes, auth and rate limits', () => {
  it('20 active webhooks per account; a revoked one frees a place', async () => {
    const acct = await s.account({ rpm: 100_000 });
    const made: string[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await create(acct.liveKey, { url: `https://example.com/${i}`, events: ['job.queued'] });
      expect(r.status).toBe(201);
      made.push(r.body.data!.id!);
    }
    const over = await create(acct.liveKey, { url: 'https://example.com/21', events: ['job.queued'] });
    expectTyped(over, 403, 'webhook_limit_exceeded', null);
    expect(over.body.error!.message).toMatch(/20/);
    await call(`/v1/webhooks/${made[0]}`, { key: acct.liveKey, method: 'DELETE' });
    expect((await create(acct.liveKey, { url: 'https://example.com/21', events: ['job.queued'] })).status).toBe(201);
  });

  it('the cap holds under concurrent creations: 25 at once, exactly 20 created', async () => {
    const acct = await s.account({ rpm: 100_000 });
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => create(acct.liveKey, { url: `https://example.com/c${i}`, events: ['job.queued'] })));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(20);
    for (const r of answers.filter((x) => x.status !== 201)) expectTyped(r, 403, 'webhook_limit_exceeded', null);
    const listed = await call('/v1/webhooks', { key: acct.liveKey });
    expect((listed.body.data as unknown as unknown[]).length).toBe(20);
  });

  it('a key without stays.read gets 403 scope_insufficient in the Family S envelope', async () => {
    const acct = await s.account({ scopes: 'account.read' });
    expectTyped(await call('/v1/webhooks', { key: acct.liveKey }), 403, 'scope_insufficient');
    expectTyped(await create(acct.liveKey, { url: 'https://example.com', events: ['job.queued'] }), 403, 'scope_insufficient');
  });

  it('401s carry request_id beside the error (D9)', async () => {
    expectTyped(await call('/v1/webhooks'), 401, 'missing_api_key');
    expectTyped(await call('/v1/webhooks/wh_01J8ZK4R2ABCDEF0123456789A', { key: 'stay_live_nope', method: 'DELETE' }), 401, 'invalid_api_key');
    expectTyped(await call('/v1/webhooks', { json: { url: 'https://example.com', events: ['job.queued'] } }), 401, 'missing_api_key');
    // Before any handler runs: an unsupported method on a webhook path.
    const put = await call('/v1/webhooks', { key: a.liveKey, method: 'PUT' });
    expectTyped(put, 405, 'method_not_allowed');
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it('429 carries request_id beside the error, with Retry-After', async () => {
    const acct = await s.account({ rpm: 2 });
    await call('/v1/webhooks', { key: acct.liveKey });
    await call('/v1/webhooks', { key: acct.liveKey });
    const r = await call('/v1/webhooks', { key: acct.liveKey });
    expectTyped(r, 429, 'rate_limit_exceeded');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(r.headers.get('x-ratelimit-limit')).toBe('2');
  });
});

describe('STAYS_WEBHOOK_DENY_PRIVATE=1', () => {
  let p: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    p = await startApp({ STAYS_WEBHOOK_DENY_PRIVATE: '1' });
    acct = await p.account();
  });
  afterAll(async () => {
    await p.stop();
  });
  const post = async (url: string) => {
    const res = await p.req('/v1/webhooks', { key: acct.liveKey, method: 'POST', body: JSON.stringify({ url, events: ['job.queued'] }), headers: { 'content-type': 'application/json' } });
    return { status: res.status, body: (await res.json()) as Body };
  };

  it.each([
    'http://127.0.0.1:8080/x',
    'http://10.1.2.3/',
    'http://172.20.0.1/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/',
    'http://[fe80::1]/',
    'http://[fd00::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://0.0.0.0/',
    'http://2130706433/',
    'http://localhost:9/',
    'http://nowhere.invalid/',
  ])('refuses %s with invalid_parameter url', async (url) => {
    const r = await post(url);
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_parameter', param: 'url' });
    expect(r.body.error!.message).toMatch(/STAYS_WEBHOOK_DENY_PRIVATE/);
  });

  it('accepts a public address', async () => {
    expect((await post('https://93.184.215.14/hook')).status).toBe(201);
  });

  it('without the setting, loopback targets are fine (self-hosters deliver to internal services)', async () => {
    expect((await create(a.liveKey, { url: 'http://127.0.0.1:9/x', events: ['job.queued'] })).status).toBe(201);
  });
});

describe('OpenAPI', () => {
  it('lists the webhook routes, with Family S envelopes, and stays a valid 3.1 document', async () => {
    const doc = (await (await s.req('/v1/openapi.json')).json()) as { paths: Record<string, Record<string, { responses: Record<string, { content?: { 'application/json': { schema: unknown } } }> }>> };
    expect(Object.keys(doc.paths['/v1/webhooks']!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/v1/webhooks/{id}']!).sort()).toEqual(['delete', 'get']);
    expect(Object.keys(doc.paths['/v1/webhooks/{id}/deliveries']!)).toEqual(['get']);
    const created = doc.paths['/v1/webhooks']!.post!.responses;
    expect(created['201']).toBeDefined();
    expect(JSON.stringify(created['201'])).toContain('request_id');
    expect(JSON.stringify(created['400'])).toContain('ErrorEnvelopeS');
    const result = await new Validator().validate(doc as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
  });
});
