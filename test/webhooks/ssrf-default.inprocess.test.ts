// Issue 21 item 4 (SSRF by default), the in-process part: a server with STAYS_PUBLIC_URL refuses
// private webhook targets at creation although it listens on 127.0.0.1; STAYS_WEBHOOK_DENY_PRIVATE=0
// allows them on 0.0.0.0 and =1 refuses them on 127.0.0.1; a 127.0.0.1 server without settings
// allows loopback targets. The app in-process (test/helpers/app.ts) with the address it would
// listen on. The loopback server and the same data on a real `stays serve --host 0.0.0.0` (at
// creation and at delivery), and the setting's usage error, are e2e: test/webhooks/ssrf-default.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';

const ENV = { STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '100', STAYS_SIM_FAIL: '', STAYS_WEBHOOK_DENY_PRIVATE: '', STAYS_PUBLIC_URL: '' };
// Literal public addresses (nothing is resolved or contacted at creation).
const PUBLIC = ['https://93.184.215.14/hook'];

type ErrorBody = { error?: { type: string; code: string; param: string | null; message: string } };
const post = async (s: TestApp, key: string, url: string) => {
  const res = await s.req('/v1/webhooks', { key, method: 'POST', body: JSON.stringify({ url, events: ['job.queued'] }), headers: { 'content-type': 'application/json' } });
  return { status: res.status, body: (await res.json()) as ErrorBody };
};
const expectRefused = async (s: TestApp, key: string, url: string) => {
  const r = await post(s, key, url);
  expect(r.status, `${url}: ${JSON.stringify(r.body)}`).toBe(400);
  expect(r.body.error, url).toMatchObject({ type: 'invalid_request', code: 'invalid_parameter', param: 'url' });
  expect(r.body.error!.message).toMatch(/private/);
};

const servers: TestApp[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

describe('private webhook targets by default (issue 21)', () => {
  it('STAYS_PUBLIC_URL set: refused although the server listens on 127.0.0.1', async () => {
    const s = await startApp({ ...ENV, STAYS_PUBLIC_URL: 'https://stays.example.com' });
    servers.push(s);
    const a: TestAccount = await s.account();
    for (const url of ['http://127.0.0.1:9/x', 'http://[::7f00:1]/', 'http://[2002:7f00:1::1]/', 'http://169.254.169.254/', 'http://localhost/']) await expectRefused(s, a.liveKey, url);
    expect((await post(s, a.liveKey, PUBLIC[0]!)).status).toBe(201);
  });

  it('the operator opts in: STAYS_WEBHOOK_DENY_PRIVATE=0 allows private targets on 0.0.0.0; =1 refuses them on 127.0.0.1', async () => {
    const allow = await startApp({ ...ENV, STAYS_WEBHOOK_DENY_PRIVATE: '0' }, { listenHost: '0.0.0.0' });
    servers.push(allow);
    const a = await allow.account();
    for (const url of ['http://127.0.0.1:9/x', 'http://10.1.2.3/', 'http://[::7f00:1]/']) expect((await post(allow, a.liveKey, url)).status, url).toBe(201);
    const deny = await startApp({ ...ENV, STAYS_WEBHOOK_DENY_PRIVATE: '1' });
    servers.push(deny);
    const b = await deny.account();
    await expectRefused(deny, b.liveKey, 'http://127.0.0.1:9/x');
    await expectRefused(deny, b.liveKey, 'http://[2002:7f00:1::1]/');
  });

  it('a 127.0.0.1 server without settings allows loopback targets (local development)', async () => {
    const s = await startApp(ENV);
    servers.push(s);
    const a = await s.account();
    for (const url of ['http://127.0.0.1:9/x', 'http://localhost:9/x', 'http://[::1]:9/x']) expect((await post(s, a.liveKey, url)).status, url).toBe(201);
  });
});
