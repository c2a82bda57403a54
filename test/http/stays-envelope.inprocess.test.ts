// D9, D11: on every Family S route, errors raised before the route runs (authentication, scope,
// rate limit, body size, method, media type) take the S envelope `{ error, request_id }`, with
// request_id equal to X-Request-Id and to error.requestId. POST /v1/search takes it when its body
// is an S body (D8), and keeps Family U's `{ error }` for a U body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/assert.js';
import { type SInit, expectSError, expectSOk, sCall } from '../helpers/s.js';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';

let s: TestApp;
let a: TestAccount;
beforeAll(async () => {
  // A generous anonymous budget: this file sends many unauthenticated requests on purpose.
  s = await startApp({ STAYS_ANON_RPM: '100000' });
  a = await s.account({ rpm: 100_000 });
});
afterAll(async () => {
  await s.stop();
});

const S_BODY = { location: 'Lisbon', maxItems: 2 };
const U_BODY = { location: 'Lisbon', limit: 2 };

/** One call per kind of Family S route. */
const CALLS: [string, string, unknown][] = [
  ['GET', '/v1/stays/12345', undefined],
  ['GET', '/v1/stays/12345/photos', undefined],
  ['GET', `/v1/stays/by-url?url=${encodeURIComponent('https://www.airbnb.com/rooms/1')}`, undefined],
  ['GET', '/v1/stays/by-address', undefined],
  ['POST', '/v1/stays/batch', { entries: [{ id: '1' }] }],
  ['POST', '/v1/search/with-details', S_BODY],
  ['POST', '/v1/listings/superhost', S_BODY],
  ['POST', '/v1/listings/luxury', S_BODY],
  ['POST', '/v1/listings/instant-book', S_BODY],
  ['POST', '/v1/search', S_BODY],
];

const call = (method: string, path: string, json: unknown, init: SInit = {}) => sCall(s, path, method === 'POST' ? { ...init, json } : init);

describe('401 before the route', () => {
  it.each(CALLS)('%s %s: no key → 401 missing_api_key; a malformed or unknown key → 401 invalid_api_key, as { error, request_id }', async (method, path, json) => {
    expectSError(await call(method, path, json), 401, 'missing_api_key');
    expectSError(await call(method, path, json, { key: 'nope' }), 401, 'invalid_api_key');
    expectSError(await call(method, path, json, { key: 'stay_test_0000000000000000000000000000000000' }), 401, 'invalid_api_key');
    expectSError(await call(method, path, json, { headers: { authorization: 'Basic abc' } }), 401, 'invalid_api_key');
  });

  it('POST /v1/search: an S body gets { error, request_id } on 401, a U body { error } only', async () => {
    expectSError(await call('POST', '/v1/search', S_BODY), 401, 'missing_api_key');
    expectSError(await call('POST', '/v1/search', { locationQueries: ['Lisbon'] }, { key: 'nope' }), 401, 'invalid_api_key');
    for (const key of [undefined, 'nope']) {
      const res = await s.req('/v1/search', { method: 'POST', ...(key ? { key } : {}), body: JSON.stringify(U_BODY), headers: { 'content-type': 'application/json' } });
      const body = await expectError(res.clone(), 401, key ? 'invalid_api_key' : 'missing_api_key');
      expect(Object.keys(body)).toEqual(['error']);
    }
  });

  it('a revoked key → 401 revoked_api_key in the S envelope', async () => {
    const b = await s.account();
    expectSOk(await sCall(s, '/v1/stays/1', { key: b.sandboxKey }));
    await s.admin('key', 'revoke', b.sandboxKeyId);
    // Revocation is seen within a bound (auth.test.ts); poll for it, bounded.
    let r = await sCall(s, '/v1/stays/1', { key: b.sandboxKey });
    for (let i = 0; i < 100 && r.status === 200; i++) {
      await new Promise((res) => setTimeout(res, 50));
      r = await sCall(s, '/v1/stays/1', { key: b.sandboxKey });
    }
    expectSError(r, 401, 'revoked_api_key');
    expectSError(await sCall(s, '/v1/stays/batch', { key: b.sandboxKey, json: { entries: [{ id: '1' }] } }), 401, 'revoked_api_key');
  });
});

describe('403 before the route', () => {
  it.each(CALLS.filter(([, p]) => !p.includes('by-address')))('%s %s: a key without stays.read → 403 scope_insufficient as { error, request_id }', async (method, path, json) => {
    const narrow = await s.account({ scopes: 'account.read' });
    expectSError(await call(method, path, json, { key: narrow.sandboxKey }), 403, 'scope_insufficient');
  });

  it('an unverified email locks the live key (403 email_unverified, S envelope), not the sandbox key', async () => {
    const u = await s.account({ emailUnverified: true });
    expectSError(await sCall(s, '/v1/stays/1', { key: u.liveKey }), 403, 'email_unverified');
    expectSError(await sCall(s, '/v1/search', { key: u.liveKey, json: S_BODY }), 403, 'email_unverified');
    expectSOk(await sCall(s, '/v1/stays/1', { key: u.sandboxKey }));
  });
});

describe('429 before the route', () => {
  it.each(CALLS)('%s %s: the second request of an rpm-1 key → 429 rate_limit_exceeded with Retry-After, S envelope', async (method, path, json) => {
    const slow = await s.account({ rpm: 1 });
    const first = await call(method, path, json, { key: slow.sandboxKey });
    expect(first.status).not.toBe(429);
    const r = await call(method, path, json, { key: slow.sandboxKey });
    const e = expectSError(r, 429, 'rate_limit_exceeded');
    expect(e.type).toBe('rate_limited');
    expect(e.retryable).toBe(true);
    expect(r.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  });

  it('POST /v1/search with a U body keeps { error } on 429', async () => {
    const slow = await s.account({ rpm: 1 });
    await (await s.req('/v1/search', { method: 'POST', key: slow.sandboxKey, body: JSON.stringify(U_BODY), headers: { 'content-type': 'application/json' } })).text();
    const res = await s.req('/v1/search', { method: 'POST', key: slow.sandboxKey, body: JSON.stringify(U_BODY), headers: { 'content-type': 'application/json' } });
    expect(Object.keys(await expectError(res, 429, 'rate_limit_exceeded'))).toEqual(['error']);
  });
});

describe('413, 405, 415', () => {
  const big = JSON.stringify({ entries: [{ id: '1' }], pad: 'x'.repeat(1024 * 1024 + 10) });

  it.each(['/v1/stays/batch', '/v1/search/with-details', '/v1/listings/superhost', '/v1/listings/luxury', '/v1/listings/instant-book'])(
    'POST %s with a body over 1 MiB → 413 payload_too_large as { error, request_id }',
    async (path) => {
      for (const key of [a.sandboxKey, undefined]) {
        const r = await sCall(s, path, { method: 'POST', ...(key ? { key } : {}), body: big, headers: { 'content-type': 'application/json' } });
        expectSError(r, 413, 'payload_too_large');
      }
    },
  );

  it.each([
    // A billed GET has no HEAD (its answer could not report the charge); the free by-address keeps it.
    ['DELETE', '/v1/stays/12345', 'GET'],
    ['POST', '/v1/stays/12345', 'GET'],
    ['DELETE', '/v1/stays/12345/photos', 'GET'],
    ['PUT', '/v1/stays/by-url', 'GET'],
    ['DELETE', '/v1/stays/by-address', 'GET, HEAD'],
    ['DELETE', '/v1/stays/batch', 'POST'],
    ['GET', '/v1/search/with-details', 'POST'],
    ['GET', '/v1/listings/superhost', 'POST'],
    ['DELETE', '/v1/listings/instant-book', 'POST'],
  ])('%s %s → 405 method_not_allowed with Allow, as { error, request_id }', async (method, path, allow) => {
    for (const key of [a.sandboxKey, undefined]) {
      const r = await sCall(s, path, { method, ...(key ? { key } : {}) });
      expectSError(r, 405, 'method_not_allowed');
      expect(r.headers.get('allow')).toBe(allow);
    }
  });

  it('GET /v1/stays/batch → 405 Allow: POST (not a lookup of a stay called "batch"), S envelope', async () => {
    const r = await sCall(s, '/v1/stays/batch', { key: a.sandboxKey });
    expectSError(r, 405, 'method_not_allowed');
    expect(r.headers.get('allow')).toBe('POST');
  });

  it.each(['/v1/stays/12345', '/v1/stays/12345/photos', `/v1/stays/by-url?url=${encodeURIComponent('https://www.airbnb.com/rooms/1')}`])(
    'HEAD %s (a billed GET) → 405 Allow: GET, with X-Request-Id',
    async (path) => {
      const res = await s.req(path, { method: 'HEAD', key: a.sandboxKey });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET');
      expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    },
  );

  it.each(['/v1/stays/12345/', '/v1/stays//photos', '/v1/stays/12345/nope', '/v1/listings/cheap', '/v1/webhooks/wh_1/nope'])(
    'an unknown path under a Family S prefix (%s) → 404 route_not_found in the S envelope',
    async (path) => {
      expectSError(await sCall(s, path, { key: a.sandboxKey }), 404, 'route_not_found');
    },
  );

  it.each(['/v1/stays/batch', '/v1/search/with-details', '/v1/listings/superhost', '/v1/listings/luxury', '/v1/listings/instant-book'])(
    'POST %s with a non-JSON content type → 415 unsupported_media_type as { error, request_id }',
    async (path) => {
      const r = await sCall(s, path, { method: 'POST', key: a.sandboxKey, body: 'entries=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expectSError(r, 415, 'unsupported_media_type');
    },
  );

  it.each(['/v1/stays/batch', '/v1/search/with-details', '/v1/listings/luxury'])('POST %s with malformed JSON or a non-object body → 400 invalid_parameter body, S envelope', async (path) => {
    for (const body of ['{', '[1,2]', '"x"', 'null']) {
      expectSError(await sCall(s, path, { method: 'POST', key: a.sandboxKey, body, headers: { 'content-type': 'application/json' } }), 400, 'invalid_parameter', 'body');
    }
  });
});

describe('X-Request-Id on every Family S answer (D11)', () => {
  it('every answer, success or error, carries X-RateLimit-Limit/Remaining/Reset (D23)', async () => {
    const rs = [
      await sCall(s, '/v1/stays/1', { key: a.sandboxKey }),
      await sCall(s, '/v1/stays/404', { key: a.sandboxKey }),
      await sCall(s, '/v1/stays/by-address', { key: a.sandboxKey }),
      await sCall(s, '/v1/stays/1'),
      await sCall(s, '/v1/stays/batch', { key: a.sandboxKey, json: { entries: [] } }),
      await sCall(s, '/v1/search', { key: a.sandboxKey, json: S_BODY }),
    ];
    for (const r of rs) {
      expect(r.headers.get('x-ratelimit-limit'), r.text.slice(0, 100)).toMatch(/^\d+$/);
      expect(r.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
      expect(r.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    }
  });

  it('200s carry request_id equal to X-Request-Id, unique per request', async () => {
    const ids = new Set<string>();
    for (const [method, path, json] of CALLS.filter(([, p]) => !p.includes('by-address'))) {
      const r = await call(method, path, json, { key: a.sandboxKey });
      expectSOk(r);
      ids.add(r.body.request_id!);
    }
    expect(ids.size).toBe(CALLS.length - 1);
  });
});
