// Service-level behaviour: health, OpenAPI, unknown routes, body limits, malformed JSON,
// request ids and rate-limit headers on every response.
import { connect } from 'node:net';
import { Validator } from '@seriousme/openapi-schema-validator';
import pkg from '../../package.json' with { type: 'json' };
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_ID_PATTERN } from '../../src/core/schemas/resources.js';
import { expectError } from '../helpers/assert.js';
import { type Stays, type TestAccount, startStays } from '../helpers/stays.js';

let s: Stays;
let a: TestAccount;
beforeAll(async () => {
  s = await startStays();
  a = await s.account();
});
afterAll(async () => {
  await s.stop();
});

describe('service basics', () => {
  it('GET /v1/health answers without auth', async () => {
    const res = await s.req('/v1/health');
    expect(res.status).toBe(200);
    // The version and what serves each platform (no secrets), for `stays doctor` against a server.
    const body = (await res.json()) as { status: string; version: string; upstream: { kind: string; platforms: Record<string, unknown> } };
    expect(body).toMatchObject({ status: 'ok', version: pkg.version, upstream: { kind: expect.stringMatching(/^(none|simulated|apify)$/) } });
    expect(Object.keys(body.upstream.platforms).sort()).toEqual(['airbnb', 'booking', 'google', 'vrbo']);
    expect(JSON.stringify(body)).not.toMatch(/token|secret|stay_(live|test)_/i);
    expect(res.headers.get('x-request-id')).toMatch(REQUEST_ID_PATTERN);
  });

  it('GET /v1/openapi.json is a valid OpenAPI 3.1 document, version 1.0.0, listing every route', async () => {
    const res = await s.req('/v1/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; info: { version: string }; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    const validator = new Validator();
    const result = await validator.validate(doc as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    for (const p of ['/v1/search', '/v1/reviews', '/v1/price', '/v1/price-compare', '/v1/availability', '/v1/listing/{platform}/{id}', '/v1/account', '/v1/jobs/{jobId}', '/v1/billing/topups']) {
      expect(Object.keys(doc.paths)).toContain(p);
    }
    expect(Object.keys(doc.paths['/v1/search']!).sort()).toEqual(['get', 'post']);
  });

  it('unknown routes are a typed 404, with or without a key', async () => {
    await expectError(await s.req('/v1/nope'), 404, 'route_not_found');
    await expectError(await s.req('/v2/search', { key: a.sandboxKey }), 404, 'route_not_found');
    await expectError(await s.req('/'), 404, 'route_not_found');
  });

  it('a known path with the wrong method is a typed 405', async () => {
    await expectError(await s.req('/v1/account', { method: 'DELETE', key: a.sandboxKey }), 405, 'method_not_allowed');
  });

  it('a 405 lists the allowed methods in Allow (RFC 9110), and they are allowed', async () => {
    const cases: [string, string, string][] = [
      ['DELETE', '/v1/account', 'GET, HEAD'],
      // A GET that may be billed has no HEAD (its answer must carry the charge).
      ['PUT', '/v1/search', 'GET, POST'],
      ['POST', '/v1/reviews', 'GET'],
      ['PATCH', '/v1/billing/topups', 'POST'],
      ['POST', '/v1/listing/airbnb/1', 'GET'],
      ['DELETE', '/v1/stays/1', 'GET'],
      ['GET', '/v1/stays/batch', 'POST'],
      ['DELETE', '/v1/webhooks', 'GET, HEAD, POST'],
      ['POST', '/v1/jobs/job_x', 'GET, HEAD, DELETE'],
      ['POST', '/v1/health', 'GET, HEAD'],
      ['PUT', '/v1/openapi.json', 'GET, HEAD'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await s.req(path, { method, key: a.sandboxKey });
      expect(res.headers.get('allow'), `${method} ${path}`).toBe(allow);
      await expectError(res, 405, 'method_not_allowed');
    }
    const head = await s.req('/v1/health', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('x-request-id')).toMatch(REQUEST_ID_PATTERN);
  });

  it('HEAD of a GET that may be billed is 405 (Allow: GET), before authentication; free GETs keep HEAD', async () => {
    for (const path of ['/v1/search?location=Lisbon', '/v1/listing/airbnb/1', '/v1/stays/1', '/v1/stays/1/photos']) {
      for (const key of [a.sandboxKey, undefined]) {
        const res = await s.req(path, { method: 'HEAD', ...(key ? { key } : {}) });
        expect(res.status, path).toBe(405);
        expect(res.headers.get('allow'), path).toBe('GET');
        expect(res.headers.get('x-request-id')).toMatch(REQUEST_ID_PATTERN);
      }
    }
    expect((await s.req('/v1/account', { method: 'HEAD', key: a.sandboxKey })).status).toBe(200);
  });

  it('malformed JSON is a typed 400 naming the body', async () => {
    const res = await s.req('/v1/search', { method: 'POST', key: a.sandboxKey, body: '{"location": "Lisbon",', headers: { 'content-type': 'application/json' } });
    await expectError(res, 400, 'invalid_parameter', 'body');
  });

  it('a JSON body that is not an object is a typed 400', async () => {
    const res = await s.req('/v1/search', { method: 'POST', key: a.sandboxKey, body: '["Lisbon"]', headers: { 'content-type': 'application/json' } });
    await expectError(res, 400, 'invalid_parameter', 'body');
  });

  it('a body over 1 MiB is a typed 413', async () => {
    const big = JSON.stringify({ location: 'Lisbon', pad: 'x'.repeat(1024 * 1024 + 10) });
    const res = await s.req('/v1/search', { method: 'POST', key: a.sandboxKey, body: big, headers: { 'content-type': 'application/json' } });
    await expectError(res, 413, 'payload_too_large');
  });

  it('a non-JSON content type is a typed 415', async () => {
    const res = await s.req('/v1/search', { method: 'POST', key: a.sandboxKey, body: 'location=Lisbon', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    await expectError(res, 415, 'unsupported_media_type');
  });

  it('every response carries X-Request-Id and the rate-limit headers', async () => {
    for (const [path, key] of [
      ['/v1/health', undefined],
      ['/v1/account', a.sandboxKey],
      ['/v1/search', a.sandboxKey],
      ['/v1/nope', undefined],
      ['/v1/account', undefined],
    ] as const) {
      const res = await s.req(path, key ? { key } : {});
      expect(res.headers.get('x-request-id'), path).toMatch(REQUEST_ID_PATTERN);
      expect(Number(res.headers.get('x-ratelimit-limit')), path).toBeGreaterThan(0);
      expect(res.headers.get('x-ratelimit-remaining'), path).toMatch(/^\d+$/);
      expect(Number(res.headers.get('x-ratelimit-reset')), path).toBeGreaterThan(Date.now() / 1000 - 1);
    }
  });

  it('request ids are unique per request', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) ids.add((await s.req('/v1/health')).headers.get('x-request-id')!);
    expect(ids.size).toBe(20);
  });

  it('the docUrl base is configurable', async () => {
    const t = await startStays({ STAYS_DOCS_URL: 'https://docs.example.test/api/' });
    try {
      const body = await expectError(await t.req('/v1/account'), 401, 'missing_api_key');
      expect(body.error.docUrl).toBe('https://docs.example.test/api/errors/missing_api_key');
    } finally {
      await t.stop();
    }
  });

  it('SIGTERM shuts the server down cleanly', async () => {
    const t = await startStays();
    expect(await t.stop('SIGTERM')).toBe(0);
  });
});

describe('request log', () => {
  it('a client that disconnects mid-request is one info line, never an error', async () => {
    const t = await startStays({ STAYS_LOG_LEVEL: 'info' });
    try {
      const b = await t.account();
      const { port } = new URL(t.url);
      // Headers promise 1,000 bytes of body; a few arrive, then the connection is reset.
      await new Promise<void>((resolve, reject) => {
        const sock = connect(Number(port), '127.0.0.1', () => {
          sock.write(`POST /v1/search HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${b.sandboxKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"location":`);
          setTimeout(() => sock.resetAndDestroy(), 100);
        });
        sock.on('error', () => {});
        sock.on('close', () => resolve());
        sock.setTimeout(10_000, () => reject(new Error('no close')));
      });
      const lines = () =>
        t
          .stdout()
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { level: number; msg: string });
      for (let i = 0; i < 100 && !lines().some((l) => l.msg === 'client disconnected'); i++) await new Promise((r) => setTimeout(r, 50));
      expect(
        lines()
          .filter((l) => l.msg === 'client disconnected')
          .map((l) => l.level),
      ).toEqual([30]);
      expect(lines().filter((l) => l.level >= 50)).toEqual([]);
      // The server is fine afterwards.
      expect((await t.req('/v1/health')).status).toBe(200);
    } finally {
      await t.stop();
    }
  });

  it('stays serve writes one JSON line per request, with the request id and never the key', async () => {
    const t = await startStays({ STAYS_LOG_LEVEL: 'info' });
    try {
      const b = await t.account();
      const r1 = await t.req('/v1/search?location=Lisbon&limit=1', { key: b.sandboxKey });
      const r2 = await t.req('/v1/nope');
      await new Promise((r) => setTimeout(r, 200));
      const lines = t
        .stdout()
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const requests = lines.filter((l) => l.msg === 'request');
      expect(requests.map((l) => [l.reqId, l.method, l.path, l.status])).toEqual([
        [r1.headers.get('x-request-id'), 'GET', '/v1/search', 200],
        [r2.headers.get('x-request-id'), 'GET', '/v1/nope', 404],
      ]);
      expect(requests.every((l) => typeof l.ms === 'number' && typeof l.time === 'number')).toBe(true);
      expect(t.stdout()).not.toContain(b.sandboxKey);
      expect(t.stdout()).not.toContain('stay_test_');
    } finally {
      await t.stop();
    }
  });
});
