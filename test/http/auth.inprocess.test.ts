// Authentication, permissions and the rate limit, through the app in-process (test/helpers/app.ts).
// A revocation or a grant by another process (`stays admin`) reaching a running server is in the
// e2e test/http/auth.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountSchema } from '../../src/core/schemas/resources.js';
import { expectError } from '../helpers/assert.js';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';

let s: TestApp;
let a: TestAccount;
beforeAll(async () => {
  s = await startApp();
  a = await s.account({ plan: 'pro', credits: 500 });
});
afterAll(async () => {
  await s.stop();
});

const ROUTES = ['/v1/search?location=Lisbon', '/v1/account', '/v1/reviews?platform=airbnb&listingId=1234', '/v1/jobs/job_01J8ZK4R2ABCDEF0123456789A'];

describe('authentication', () => {
  it.each(ROUTES)('%s without Authorization → 401 missing_api_key', async (path) => {
    await expectError(await s.req(path), 401, 'missing_api_key');
  });

  it.each([
    ['Bearer nope', 'malformed key'],
    ['Bearer stay_test_doesnotexist0000000000000000000', 'unknown sandbox key'],
    ['Bearer stay_live_doesnotexist0000000000000000000', 'unknown live key'],
    ['Bearer sk_live_doesnotexist00000000000000000000', 'unknown sk_live key'],
    ['Basic dXNlcjpwYXNz', 'wrong scheme'],
    ['Bearer', 'empty bearer'],
    ['Bearer stay_test_abc def', 'two tokens'],
  ])('%s → 401 invalid_api_key (%s)', async (header) => {
    await expectError(await s.req('/v1/account', { headers: { authorization: header } }), 401, 'invalid_api_key');
  });

  it('a key of one environment presented with the other prefix is invalid', async () => {
    const swapped = a.sandboxKey.replace('stay_test_', 'stay_live_');
    await expectError(await s.req('/v1/account', { key: swapped }), 401, 'invalid_api_key');
  });

  it('the error never echoes the key', async () => {
    const res = await s.req('/v1/account', { headers: { authorization: 'Bearer stay_live_secretsecretsecretsecret1234' } });
    expect(await res.text()).not.toContain('secretsecret');
  });
});

describe('permissions', () => {
  it('a key without stays.read → 403 scope_insufficient on data routes, account still readable', async () => {
    const b = await s.account({ scopes: 'billing.write' });
    await expectError(await s.req('/v1/search?location=Lisbon', { key: b.sandboxKey }), 403, 'scope_insufficient');
    expect((await s.req('/v1/account', { key: b.sandboxKey })).status).toBe(200);
  });

  it('a new key without --scopes gets stays.read, account.read, webhooks.write, watches.write and collections.write, not billing.write (D24, issues 21, 26 and 38)', async () => {
    const b = await s.account();
    const shown = await s.admin<{ keys: { scopes: string[] }[] }>('account', 'show', b.id);
    expect(shown.keys.map((k) => k.scopes)).toEqual([
      ['stays.read', 'account.read', 'webhooks.write', 'watches.write', 'collections.write'],
      ['stays.read', 'account.read', 'webhooks.write', 'watches.write', 'collections.write'],
    ]);
    for (const key of [b.sandboxKey, b.liveKey]) {
      const res = await s.req('/v1/billing/topups', { method: 'POST', key, body: JSON.stringify({ credits: 10 }), headers: { 'content-type': 'application/json' } });
      const body = await expectError(res, 403, 'scope_insufficient');
      expect(body.error.message).toMatch(/billing\.write/);
    }
    expect((await s.req('/v1/search?location=Lisbon', { key: b.sandboxKey })).status).toBe(200);
  });

  it('a key without billing.write → 403 scope_insufficient on top-ups', async () => {
    const b = await s.account({ scopes: 'stays.read' });
    const res = await s.req('/v1/billing/topups', { method: 'POST', key: b.liveKey, body: JSON.stringify({ credits: 10 }), headers: { 'content-type': 'application/json' } });
    await expectError(res, 403, 'scope_insufficient');
  });

  it('email_unverified refuses live data calls but not sandbox calls, account or job polling (D27)', async () => {
    const b = await s.account({ emailUnverified: true });
    await expectError(await s.req('/v1/search?location=Lisbon', { key: b.liveKey }), 403, 'email_unverified');
    expect((await s.req('/v1/search?location=Lisbon', { key: b.sandboxKey })).status).toBe(200);
    const acct = await s.req('/v1/account', { key: b.liveKey });
    expect(acct.status).toBe(200);
    await expectError(await s.req('/v1/jobs/job_01J8ZK4R2ABCDEF0123456789A', { key: b.liveKey }), 404, 'job_not_found');
  });
});

describe('GET /v1/account', () => {
  it('is a bare { data } with plan, key env, credits and rate limit', async () => {
    const res = await s.req('/v1/account', { key: a.liveKey });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['data']);
    const acct = AccountSchema.parse(body.data);
    expect(acct).toEqual({
      id: expect.stringMatching(/^acct_/),
      plan: { code: 'pro', name: 'Pro', status: 'active' },
      key: { env: 'live' },
      credits: { balance: 500, available: 500, held: 0, expiringSoon: 0 },
      rateLimit: { requestsPerMinute: 300 },
    });
    const sb = (await (await s.req('/v1/account', { key: a.sandboxKey })).json()) as { data: { key: { env: string } } };
    expect(sb.data.key.env).toBe('sandbox');
  });
});

describe('rate limit', () => {
  it('429 rate_limit_exceeded with an integer Retry-After once the bucket is empty', async () => {
    const b = await s.account({ rpm: 3 });
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await s.req('/v1/account', { key: b.sandboxKey });
      statuses.push(last.status);
      if (i < 3) await last.text();
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last!.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(last!.headers.get('x-ratelimit-limit')).toBe('3');
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
    const body = await expectError(last!, 429, 'rate_limit_exceeded');
    expect(body.error.retryable).toBe(true);
  });

  it('buckets are per key: another key of the same account is unaffected', async () => {
    const b = await s.account({ rpm: 1 });
    expect((await s.req('/v1/account', { key: b.sandboxKey })).status).toBe(200);
    expect((await s.req('/v1/account', { key: b.sandboxKey })).status).toBe(429);
    expect((await s.req('/v1/account', { key: b.liveKey })).status).toBe(200);
  });
});
