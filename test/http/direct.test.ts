// The in-process transport's direct way (src/http/direct.ts) gives the Hono app's answers: the same
// status, headers and body bytes (request ids aside) for the requests it takes, and declines the
// rest. Each request goes to an app and to the direct way, each with its own rate limiters, on one
// runtime with a stopped clock.
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { createAccount, createKey } from '../../src/core/admin.js';
import { createApp } from '../../src/app.js';
import { type DirectRequest, createDirect } from '../../src/http/direct.js';
import { createPipeline } from '../../src/http/pipeline.js';
import { API_ROUTES } from '../../src/http/routes/index.js';
import { type Runtime, createRuntime } from '../../src/runtime.js';
import { tempDir } from '../helpers/stays.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  for (const r of runtimes.splice(0)) await r.close();
});

async function setup(rpm?: number) {
  const rt = createRuntime({ config: { dataDir: tempDir(), upstream: 'none' }, clock: manualClock(Date.now()) });
  runtimes.push(rt);
  const acct = await createAccount(rt, { plan: 'pro', credits: 1000, ...(rpm ? { rpm } : {}) });
  const sandbox = (await createKey(rt, { accountId: acct.id, env: 'sandbox' })).key;
  const live = (await createKey(rt, { accountId: acct.id, env: 'live' })).key;
  const noScopes = (await createKey(rt, { accountId: acct.id, env: 'sandbox', scopes: [] })).key;
  const app = createApp(rt, {}, createPipeline(rt, API_ROUTES));
  const direct = createDirect(createPipeline(rt, API_ROUTES));
  const viaApp = async (req: DirectRequest) => {
    const res = await app.fetch(new Request(`http://in-process${req.path}`, { method: req.method, headers: req.headers, body: req.body }));
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      headers[k] = v;
    });
    return { status: res.status, headers, body: await res.text() };
  };
  return { sandbox, live, noScopes, viaApp, direct };
}

/** Request ids differ between the two (one id generator); everything else must not. */
const norm = (r: unknown) => JSON.parse(JSON.stringify(r).replace(/req_[0-9A-Za-z]{26}/g, 'req_X')) as unknown;

describe('in-process direct calls', () => {
  it('answer as the app does: results, errors, headers and bodies', async () => {
    const { sandbox, live, noScopes, viaApp, direct } = await setup();
    const auth = (k: string) => ({ authorization: `Bearer ${k}`, 'user-agent': 'stays-test' });
    const requests: DirectRequest[] = [
      { method: 'GET', path: '/v1/search?location=Lisbon', headers: auth(sandbox) },
      { method: 'GET', path: '/v1/search?location=Lisbon&limit=3&platforms=airbnb,booking&sort=price_asc', headers: { Authorization: `Bearer ${sandbox}` } },
      { method: 'GET', path: '/v1/search?location=New+York&limit=2', headers: auth(sandbox) },
      { method: 'GET', path: '/v1/search?location=S%C3%A3o%20Paulo&limit=2&limit=3', headers: auth(sandbox) },
      { method: 'GET', path: '/v1/search?location=Lisbon&checkIn=2031-03-01&checkOut=2031-03-04&adults=2&limit=2', headers: { ...auth(sandbox), prefer: 'wait=5' } },
      { method: 'GET', path: '/v1/search?location=Lisbon&limit=99', headers: auth(sandbox) },
      { method: 'GET', path: '/v1/search?location=Lisbon&bogus=1', headers: auth(sandbox) },
      { method: 'GET', path: '/v1/search', headers: auth(sandbox) },
      { method: 'GET', path: '/v1/search?location=Lisbon', headers: {} },
      { method: 'GET', path: '/v1/search?location=Lisbon', headers: auth('stay_test_nope') },
      { method: 'GET', path: '/v1/search?location=Lisbon', headers: auth(noScopes) },
      { method: 'GET', path: '/v1/search?location=Lisbon', headers: auth(live) },
      { method: 'GET', path: '/v1/account', headers: auth(sandbox) },
      { method: 'GET', path: '/v1/account', headers: auth(live) },
      { method: 'GET', path: '/v1/jobs?limit=5', headers: auth(sandbox) },
      { method: 'GET', path: '/v1/reviews?platform=airbnb&listingId=5551234&limit=3', headers: auth(sandbox) },
      { method: 'GET', path: '/v1/price?platform=booking&listingId=pt/casa-azul&checkIn=2031-03-01&checkOut=2031-03-04', headers: auth(sandbox) },
      { method: 'GET', path: '/v1/price-compare?location=Lisbon', headers: auth(sandbox) },
      { method: 'GET', path: '/v1/availability?platform=airbnb&listingId=5551234&from=2031-03-01&to=2031-03-10', headers: auth(sandbox) },
    ];
    const statuses = new Set<number>();
    for (const req of requests) {
      const a = await viaApp(req);
      statuses.add(a.status);
      const d = await direct.send(req);
      expect(d, `${req.method} ${req.path}`).toBeDefined();
      expect(norm(d), `${req.method} ${req.path}`).toEqual(norm(a));
      expect(Object.keys(d!.headers), `${req.method} ${req.path}`).toEqual(Object.keys(a.headers));
    }
    expect([...statuses].sort()).toEqual([200, 400, 401, 403, 503]);
  });

  it('answers a rate-limited key as the app does', async () => {
    const { sandbox, viaApp, direct } = await setup(2);
    const req = { method: 'GET', path: '/v1/account', headers: { authorization: `Bearer ${sandbox}` } };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const a = await viaApp(req);
      const d = await direct.send(req);
      expect(norm(d)).toEqual(norm(a));
      statuses.push(a.status);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('leaves to the app what it does not take', async () => {
    const { sandbox, direct } = await setup();
    const auth = { authorization: `Bearer ${sandbox}` };
    for (const req of [
      { method: 'POST', path: '/v1/search', headers: auth, body: '{"location":"Lisbon"}' },
      { method: 'HEAD', path: '/v1/account', headers: auth },
      { method: 'GET', path: '/v1/search/?location=Lisbon', headers: auth },
      { method: 'GET', path: '/v1/health', headers: {} },
      { method: 'GET', path: '/v1/listing/airbnb/5551234', headers: auth },
      { method: 'GET', path: '/v1/jobs/job_1', headers: auth },
      { method: 'GET', path: '/v1/webhooks', headers: auth },
      { method: 'GET', path: '/v1/account', headers: { authorization: ` Bearer ${sandbox}` } },
      { method: 'GET', path: '/v1/account', headers: { authorization: `Bearer ${sandbox}\n` } },
    ]) {
      expect(direct.send(req), `${req.method} ${req.path}`).toBeUndefined();
    }
  });
});
