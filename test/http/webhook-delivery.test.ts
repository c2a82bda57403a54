// Webhook deliveries end to end (issue 10): a real `stays serve` with the simulated upstream, a
// real receiver on loopback. A live job's events in order and signed; stay.cached for a live
// listing lookup; the attempt log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../src/webhooks/sign.js';
import { pollJob } from '../helpers/jobs.js';
import { receiverPool } from '../helpers/receiver.js';
import { type Stays, type TestAccount, startStays } from '../helpers/stays.js';
import { createHook, deliveries, waitForDeliveries } from '../helpers/webhooks.js';

let s: Stays;
let a: TestAccount;
const pool = receiverPool();
beforeAll(async () => {
  s = await startStays({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '300', STAYS_SIM_FAIL: '' });
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

  it('a receiver failing twice then succeeding gets exactly 3 attempts, 1 s and then 6 s apart at least', async () => {
    const r = await receiver((n) => (n <= 2 ? { status: 503, body: `busy ${n}` } : { status: 204 }));
    const hook = await createHook(s, a.liveKey, r.url, ['job.succeeded']);
    const res = await s.req('/v1/search?location=Porto&limit=2', { key: a.liveKey });
    expect(res.status).toBe(202);
    const got = await r.waitFor(3, 30_000);
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(1_000);
    expect(got[2]!.at - got[1]!.at).toBeGreaterThanOrEqual(6_000);
    expect(new Set(got.map((g) => g.body.id)).size).toBe(1);
    expect(new Set(got.map((g) => g.raw)).size).toBe(1);
    for (const g of got) {
      expect(g.headers['x-service-event-id']).toBe(g.body.id);
      expect(verifyWebhook(g.raw, g.headers['x-service-signature'] as string, hook.secret).ok).toBe(true);
    }
    const log = await waitForDeliveries(s, a.liveKey, hook.id, 3);
    expect(log.map((l) => [l.attempt, l.status_code, l.delivered, l.response_preview])).toEqual([
      [3, 204, true, null],
      [2, 503, false, null],
      [1, 503, false, null],
    ]);
    // Delivered: no fourth attempt.
    await new Promise((res2) => setTimeout(res2, 2_000));
    expect(r.received).toHaveLength(3);
    expect(await deliveries(s, a.liveKey, hook.id)).toHaveLength(3);
  }, 40_000);
});
