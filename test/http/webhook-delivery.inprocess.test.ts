// Webhook deliveries (issue 10): the app in-process (test/helpers/app.ts) with the simulated
// upstream and its dispatcher, a real receiver on loopback. A live job's events in order and
// signed; stay.cached for a live listing lookup; the attempt log; the retry schedule (at once,
// then 1 s and 6 s after failures, 3 attempts) on a manual clock, so no test waits it out.
// Deliveries from real `stays serve` processes (restarts, two processes, shutdown) are in the
// e2e test/webhooks/*.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../src/webhooks/sign.js';
import { pollJob } from '../helpers/jobs.js';
import { receiverPool } from '../helpers/receiver.js';
import { manualClock } from '../../src/core/clock.js';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';
import { createHook, deliveries, waitForDeliveries } from '../helpers/webhooks.js';

let s: TestApp;
let a: TestAccount;
const pool = receiverPool();
beforeAll(async () => {
  s = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '300', STAYS_SIM_FAIL: '' });
  a = await s.account({ credits: 100_000, rpm: 100_000 });
});
afterAll(async () => {
  await s.stop();
  await pool.closeAll();
});

const receiver = pool.start;

describe('webhook deliveries from stays serve', () => {
  it("a live job's lifecycle: job.queued → job.running → job.succeeded, signed, with the event id in header and body", async () => {
    const r = await receiver();
    const hook = await createHook(s, a.liveKey, r.url, ['job.queued', 'job.running', 'job.succeeded', 'job.failed']);
    const res = await s.req('/v1/search?location=Lisbon&limit=2', { key: a.liveKey });
    expect(res.status).toBe(202);
    const jobId = ((await res.json()) as { data: { jobId: string } }).data.jobId;
    const job = await pollJob(s, a.liveKey, jobId);
    expect(job.data.status).toBe('completed');
    const got = await r.waitFor(3);
    expect(got.map((g) => g.body.event)).toEqual(['job.queued', 'job.running', 'job.succeeded']);
    const ids = new Set<string>();
    for (const g of got) {
      expect(g.headers['content-type']).toBe('application/json');
      expect(g.headers['user-agent']).toMatch(/^stays-webhooks\/\d+\.\d+\.\d+/);
      expect(g.headers['x-service-event-id']).toBe(g.body.id);
      expect(g.body.id).toMatch(/^evt_[0-9A-Z]{26}$/);
      ids.add(g.body.id);
      expect(verifyWebhook(g.raw, g.headers['x-service-signature'] as string, hook.secret)).toMatchObject({ ok: true });
      // Tampered or signed with another secret: refused.
      expect(verifyWebhook(g.raw.replace('"job.', '"jab.'), g.headers['x-service-signature'] as string, hook.secret)).toEqual({ ok: false, reason: 'mismatch' });
      expect(verifyWebhook(g.raw, g.headers['x-service-signature'] as string, 'whsec_other')).toEqual({ ok: false, reason: 'mismatch' });
      expect(Object.keys(g.body).sort()).toEqual(['created_at', 'data', 'event', 'id']);
      expect(new Date(g.body.created_at).toISOString()).toBe(g.body.created_at);
      expect(g.body.data).toMatchObject({ job_id: jobId, operation: 'search', platforms: ['vrbo', 'booking', 'airbnb', 'google'], poll_url: `/v1/jobs/${jobId}` });
      expect(new Date(g.body.data.created_at as string).toISOString()).toBe(g.body.data.created_at);
    }
    expect(ids.size).toBe(3);
    expect(got.map((g) => g.body.data.status)).toEqual(['pending', 'running', 'completed']);
    // Each delivered at the first attempt, and logged so; the answer of a loopback receiver is never shown (issue 21).
    const log = await waitForDeliveries(s, a.liveKey, hook.id, 3);
    expect(log.map((l) => [l.event, l.attempt, l.status_code, l.delivered, l.response_preview])).toEqual([
      ['job.succeeded', 1, 200, true, null],
      ['job.running', 1, 200, true, null],
      ['job.queued', 1, 200, true, null],
    ]);
    expect(log.map((l) => l.event_id)).toEqual(got.map((g) => g.body.id).reverse());
  });

  it('stay.cached: a live listing lookup refreshed in the cache names the platform, id, stays_id and expiry', async () => {
    const r = await receiver();
    await createHook(s, a.liveKey, r.url, ['stay.cached']);
    const res = await s.req('/v1/listing/airbnb/7654321', { key: a.liveKey });
    expect(res.status).toBe(202);
    const jobId = ((await res.json()) as { data: { jobId: string } }).data.jobId;
    await pollJob(s, a.liveKey, jobId);
    const [g] = await r.waitFor(1);
    expect(g!.body.event).toBe('stay.cached');
    expect(Object.keys(g!.body.data).sort()).toEqual(['cache_expires_at', 'id', 'platform', 'stays_id']);
    expect(g!.body.data).toMatchObject({ platform: 'airbnb', id: '7654321', stays_id: 'stays_airbnb_7654321' });
    const ttl = Date.parse(g!.body.data.cache_expires_at as string) - Date.parse(g!.body.created_at);
    expect(ttl).toBeGreaterThan(23 * 3_600_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3_600_000);
    // Served from the cache the second time: no refresh, no event.
    const again = await s.req('/v1/listing/airbnb/7654321', { key: a.liveKey });
    expect(again.status).toBe(200);
    await new Promise((res2) => setTimeout(res2, 1500));
    expect(r.received).toHaveLength(1);
  });

  it('a receiver failing twice then succeeding gets exactly 3 attempts, 1 s and then 6 s apart at least (a manual clock)', async () => {
    // The runtime's clock only moves when the test moves it: each retry is due exactly 1 s, then
    // 6 s, after the failed attempt, and is sent once the clock gets there.
    const clock = manualClock(Date.now());
    const t = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0', STAYS_SIM_FAIL: '' }, { clock });
    try {
      const b = await t.account({ credits: 100_000, rpm: 100_000 });
      const r = await receiver((n) => (n <= 2 ? { status: 503, body: `busy ${n}` } : { status: 204 }));
      const hook = await createHook(t, b.liveKey, r.url, ['job.succeeded']);
      const res = await t.req('/v1/search?location=Porto&limit=2', { key: b.liveKey });
      expect(res.status).toBe(202);
      const log = (n: number) => waitForDeliveries(t, b.liveKey, hook.id, n);

      await r.waitFor(1);
      await log(1);
      const first = clock.now();
      // The second attempt is due 1 s after the first failed, not before.
      expect(await t.runtime.store.nextDeliveryAt()).toBe(first + 1_000);
      expect(r.received).toHaveLength(1);
      clock.advance(1_000);
      t.runtime.dispatcher.wake();
      await r.waitFor(2);
      await log(2);
      // The third, 6 s after the second failed.
      expect(await t.runtime.store.nextDeliveryAt()).toBe(first + 1_000 + 6_000);
      expect(r.received).toHaveLength(2);
      clock.advance(6_000);
      t.runtime.dispatcher.wake();
      const got = await r.waitFor(3);

      expect(new Set(got.map((g) => g.body.id)).size).toBe(1);
      expect(new Set(got.map((g) => g.raw)).size).toBe(1);
      for (const g of got) {
        expect(g.headers['x-service-event-id']).toBe(g.body.id);
        expect(verifyWebhook(g.raw, g.headers['x-service-signature'] as string, hook.secret).ok).toBe(true);
      }
      expect((await log(3)).map((l) => [l.attempt, l.status_code, l.delivered, l.response_preview])).toEqual([
        [3, 204, true, null],
        [2, 503, false, null],
        [1, 503, false, null],
      ]);
      // Delivered: nothing is scheduled, so no fourth attempt.
      expect(await t.runtime.store.nextDeliveryAt()).toBeNull();
      expect(r.received).toHaveLength(3);
      expect(await deliveries(t, b.liveKey, hook.id)).toHaveLength(3);
    } finally {
      await t.stop();
    }
  });
  it("STAYS_TEST_WEBHOOK_RETRY_MS (the test suite's setting) replaces the 1 s and 6 s waits: 50 ms, then 300 ms (a manual clock)", async () => {
    // What the e2e webhook tests set so no test sits out the spec's waits; unset (the test
    // above), the dispatcher keeps the spec's.
    const clock = manualClock(Date.now());
    const t = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0', STAYS_SIM_FAIL: '', STAYS_TEST_WEBHOOK_RETRY_MS: '50,300' }, { clock });
    try {
      const b = await t.account({ credits: 100_000, rpm: 100_000 });
      const r = await receiver(() => ({ status: 500 }));
      const hook = await createHook(t, b.liveKey, r.url, ['job.succeeded']);
      expect((await t.req('/v1/search?location=Faro&limit=2', { key: b.liveKey })).status).toBe(202);
      await r.waitFor(1);
      await waitForDeliveries(t, b.liveKey, hook.id, 1);
      const first = clock.now();
      expect(await t.runtime.store.nextDeliveryAt()).toBe(first + 50);
      clock.advance(50);
      t.runtime.dispatcher.wake();
      await r.waitFor(2);
      await waitForDeliveries(t, b.liveKey, hook.id, 2);
      expect(await t.runtime.store.nextDeliveryAt()).toBe(first + 50 + 300);
      clock.advance(300);
      t.runtime.dispatcher.wake();
      await r.waitFor(3);
      // Three attempts in all, as with the spec's waits: nothing more is scheduled.
      expect((await waitForDeliveries(t, b.liveKey, hook.id, 3)).map((l) => [l.attempt, l.delivered])).toEqual([
        [3, false],
        [2, false],
        [1, false],
      ]);
      expect(await t.runtime.store.nextDeliveryAt()).toBeNull();
    } finally {
      await t.stop();
    }
  });
});
