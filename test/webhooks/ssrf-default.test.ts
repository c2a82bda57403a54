// Issue 21 item 4 (SSRF by default): a server reachable from other hosts (it listens on 0.0.0.0,
// or STAYS_PUBLIC_URL is set) refuses private webhook targets without any setting, in every
// spelling (IPv4-mapped, IPv4-compatible, 6to4, NAT64, Teredo…), at creation and at delivery; a
// loopback-only server allows loopback targets but never shows what such a target answered
// (response_preview null); STAYS_WEBHOOK_DENY_PRIVATE=0/1 forces either way. Here, with real
// `stays serve` processes: the loopback server, then the same data on `--host 0.0.0.0`, and the
// setting's usage error. STAYS_PUBLIC_URL, the operator's 0/1 and the loopback default at creation
// are in-process: test/webhooks/ssrf-default.inprocess.test.ts.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { pollJob } from '../helpers/jobs.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';
import { type Stays, runCli, startStays, tempDir } from '../helpers/stays.js';
import { createHook, deliveries, waitForDeliveries } from '../helpers/webhooks.js';

const ENV = { STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '100', STAYS_SIM_FAIL: '', STAYS_WEBHOOK_DENY_PRIVATE: '', STAYS_PUBLIC_URL: '' };
const PRIVATE = [
  'http://127.0.0.1:8080/admin',
  'http://127.1/',
  'http://2130706433/',
  'http://0x7f000001/',
  'http://10.1.2.3/',
  'http://172.20.0.1/',
  'http://192.168.1.1/',
  'http://169.254.169.254/latest/meta-data',
  'http://100.64.0.1/',
  'http://0.0.0.0/',
  'http://224.0.0.1/',
  'http://[::1]/',
  'http://[::]/',
  'http://[fe80::1]/',
  'http://[fd00::1]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:a9fe:a9fe]/',
  'http://[::7f00:1]/',
  'http://[::127.0.0.1]/',
  'http://[::ffff:0:7f00:1]/',
  'http://[2002:7f00:1::1]/',
  'http://[2002:a00:1::]/',
  'http://[64:ff9b::7f00:1]/',
  'http://[64:ff9b::a9fe:a9fe]/',
  'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
  'http://[ff02::1]/',
  'http://localhost:9/',
];
// Literal public addresses (nothing is resolved or contacted at creation).
const PUBLIC = ['https://93.184.215.14/hook', 'https://[2606:4700::1]/hook', 'https://[2002:5db8:d70e::1]/hook', 'https://[64:ff9b::5db8:d70e]/hook'];

type ErrorBody = { error?: { type: string; code: string; param: string | null; message: string } };
const post = async (s: Stays, key: string, url: string) => {
  const res = await s.req('/v1/webhooks', { key, method: 'POST', body: JSON.stringify({ url, events: ['job.queued'] }), headers: { 'content-type': 'application/json' } });
  return { status: res.status, body: (await res.json()) as ErrorBody };
};
const expectRefused = async (s: Stays, key: string, url: string) => {
  const r = await post(s, key, url);
  expect(r.status, `${url}: ${JSON.stringify(r.body)}`).toBe(400);
  expect(r.body.error, url).toMatchObject({ type: 'invalid_request', code: 'invalid_parameter', param: 'url' });
  expect(r.body.error!.message).toMatch(/private/);
};
const search = async (s: Stays, key: string, location: string) => {
  const res = await s.req(`/v1/search?location=${location}&limit=2`, { key });
  expect(res.status).toBe(202);
  await pollJob(s, key, ((await res.json()) as { data: { jobId: string } }).data.jobId);
};

const servers: Stays[] = [];
let r: Receiver | undefined;
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});
afterAll(async () => {
  await r?.close();
});

describe('private webhook targets by default (issue 21)', () => {
  it('a loopback-only server allows a loopback receiver but never shows its answer; the same data on 0.0.0.0 refuses every private form, at creation and at delivery', async () => {
    const dir = tempDir();
    r = await startReceiver(() => ({ status: 200, body: 'internal secret: hunter2' }));
    const local = await startStays(ENV, dir);
    const a = await local.account({ credits: 10_000, rpm: 100_000 });
    const hook = await createHook(local, a.liveKey, r.url, ['job.succeeded']);
    await search(local, a.liveKey, 'Nice');
    const [row] = await waitForDeliveries(local, a.liveKey, hook.id, 1);
    expect(row).toMatchObject({ event: 'job.succeeded', attempt: 1, status_code: 200, delivered: true, response_preview: null });
    expect(r.received).toHaveLength(1);
    await local.stop('SIGTERM', { keepData: true });

    // Retries after 100 ms (the test suite's STAYS_TEST_WEBHOOK_RETRY_MS), so a short wait shows there is none.
    const open = await startStays({ ...ENV, STAYS_TEST_WEBHOOK_RETRY_MS: '100,100' }, dir, ['--host', '0.0.0.0']);
    servers.push(open);
    expect(open.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
    for (const url of PRIVATE) await expectRefused(open, a.liveKey, url);
    for (const url of PUBLIC) expect((await post(open, a.liveKey, url)).status, url).toBe(201);
    // The webhook registered while the server was loopback-only: refused at delivery, not retried, nothing sent.
    await search(open, a.liveKey, 'Porto');
    const [refused] = await waitForDeliveries(open, a.liveKey, hook.id, 2);
    expect(refused).toMatchObject({ attempt: 1, status_code: null, delivered: false });
    expect(refused!.response_preview).toMatch(/^not sent: 127\.0\.0\.1 is a loopback, private or link-local address/);
    await new Promise((res) => setTimeout(res, 1_000));
    expect(await deliveries(open, a.liveKey, hook.id)).toHaveLength(2);
    expect(r.received).toHaveLength(1);
  }, 60_000);

  it('an unknown STAYS_WEBHOOK_DENY_PRIVATE value is a usage error naming the setting', async () => {
    const r2 = await runCli(['serve', '--port', '0', '--data-dir', tempDir()], { ...ENV, STAYS_WEBHOOK_DENY_PRIVATE: 'maybe' });
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/STAYS_WEBHOOK_DENY_PRIVATE/);
  });
});
