// STAYS_WEBHOOK_DENY_PRIVATE=1 (issue 10, SSRF): a target on a private network is refused at
// delivery too, not only at creation: a webhook registered before the setting was turned on (or a
// name that resolves elsewhere later) is recorded as one failed attempt saying why, never retried,
// and the receiver gets nothing. The app in-process (test/helpers/app.ts), twice on one data
// directory; the same refusal by a real `stays serve` on 0.0.0.0 is in test/webhooks/ssrf-default.test.ts.
import { afterAll, describe, expect, it } from 'vitest';
import { type TestApp, startApp } from '../helpers/app.js';
import { pollJob } from '../helpers/jobs.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';
import { tempDir } from '../helpers/stays.js';
import { createHook, deliveries, waitForDeliveries } from '../helpers/webhooks.js';

const ENV = { STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '100', STAYS_SIM_FAIL: '' };
let s: TestApp | undefined;
let r: Receiver | undefined;
afterAll(async () => {
  await s?.stop();
  await r?.close();
});

describe('STAYS_WEBHOOK_DENY_PRIVATE at delivery', () => {
  it('refuses a loopback target: one failed attempt naming the reason, no retry, nothing sent', async () => {
    const dir = tempDir();
    r = await startReceiver();
    const open = await startApp(ENV, { dataDir: dir });
    const a = await open.account({ credits: 10_000, rpm: 100_000 });
    const hook = await createHook(open, a.liveKey, r.url, ['job.succeeded']);
    await open.stop({ keepData: true });

    s = await startApp({ ...ENV, STAYS_WEBHOOK_DENY_PRIVATE: '1' }, { dataDir: dir });
    const res = await s.req('/v1/search?location=Nice&limit=2', { key: a.liveKey });
    expect(res.status).toBe(202);
    await pollJob(s, a.liveKey, ((await res.json()) as { data: { jobId: string } }).data.jobId);
    const [row] = await waitForDeliveries(s, a.liveKey, hook.id, 1);
    expect(row).toMatchObject({ event: 'job.succeeded', attempt: 1, status_code: null, delivered: false });
    expect(row!.response_preview).toMatch(/^not sent: 127\.0\.0\.1 is a loopback, private or link-local address.*STAYS_WEBHOOK_DENY_PRIVATE/);
    // Not retried: no longer queued (a retry would be, due 1 s later).
    expect(await s.runtime.store.pendingDeliveries([row!.event_id])).toEqual([]);
    expect(await deliveries(s, a.liveKey, hook.id)).toHaveLength(1);
    expect(r.received).toEqual([]);
  });
});
