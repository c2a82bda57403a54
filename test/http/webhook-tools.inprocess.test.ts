// Testing a receiver (issue 22, item 20) through the app in-process: POST /v1/webhooks/trigger makes a
// sandbox job whose events reach the sandbox webhooks in order, free, and the job polls like any
// other; live keys are refused; POST /v1/webhooks/{id}/deliveries/{deliveryId}/resend queues one
// delivery again with the same event id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/assert.js';
import type { JobBody } from '../helpers/jobs.js';
import { receiverPool } from '../helpers/receiver.js';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';
import { createHook, waitForDeliveries } from '../helpers/webhooks.js';

let s: TestApp;
let a: TestAccount;
const pool = receiverPool();
beforeAll(async () => {
  s = await startApp();
  a = await s.account({ credits: 0 });
});
afterAll(async () => {
  await s.stop();
  await pool.closeAll();
});

const trigger = (key: string, event: unknown) => s.req('/v1/webhooks/trigger', { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ event }) });

interface Triggered {
  data: { event: string; job_id: string | null; poll_url: string | null; events: string[]; webhooks: number };
  request_id: string;
}

describe('POST /v1/webhooks/trigger', () => {
  it('job.succeeded: a sandbox job, queued → running → succeeded at the receiver in order, pollable, free', async () => {
    const r = await pool.start();
    await createHook(s, a.sandboxKey, r.url, ['job.queued', 'job.running', 'job.succeeded', 'job.failed']);
    const res = await trigger(a.sandboxKey, 'job.succeeded');
    const body = (await res.json()) as Triggered;
    expect(res.status, JSON.stringify(body)).toBe(200);
    const jobId = body.data.job_id!;
    expect(body.data).toEqual({
      event: 'job.succeeded',
      job_id: expect.stringMatching(/^job_[0-9A-Z]{26}$/),
      poll_url: `/v1/jobs/${jobId}`,
      events: ['job.queued', 'job.running', 'job.succeeded'],
      webhooks: 1,
    });
    const got = await r.waitFor(3);
    expect(got.map((g) => g.body.event)).toEqual(['job.queued', 'job.running', 'job.succeeded']);
    expect(got.map((g) => g.body.data.job_id)).toEqual([jobId, jobId, jobId]);
    const poll = (await (await s.req(`/v1/jobs/${jobId}`, { key: a.sandboxKey })).json()) as JobBody;
    expect(poll.data.status).toBe('completed');
    expect((poll.data.result as unknown[]).length).toBeGreaterThan(0);
    expect(poll.meta.creditsCharged).toBe(0);

    const failed = (await (await trigger(a.sandboxKey, 'job.failed')).json()) as Triggered;
    const [last] = await r.waitFor(1, 20_000, (g) => g.body.event === 'job.failed');
    expect(last!.body.data).toMatchObject({ job_id: failed.data.job_id, status: 'failed', error: { code: expect.any(String) } });
    expect(((await (await s.req(`/v1/jobs/${failed.data.job_id}`, { key: a.sandboxKey })).json()) as JobBody).data.status).toBe('failed');
    // The account had 0 credits all along: nothing was held or charged.
    expect(((await (await s.req('/v1/account', { key: a.sandboxKey })).json()) as { data: { credits: { balance: number; held: number } } }).data.credits).toMatchObject({ balance: 0, held: 0 });
  });

  it('refuses live keys (403 sandbox_key_required) and unknown events (400 invalid_parameter)', async () => {
    await expectError(await trigger(a.liveKey, 'job.succeeded'), 403, 'sandbox_key_required');
    const bad = await expectError(await trigger(a.sandboxKey, 'job.nope'), 400, 'invalid_parameter');
    expect(bad.error.param).toBe('event');
  });
});

describe('POST /v1/webhooks/{id}/deliveries/{deliveryId}/resend', () => {
  it('queues one delivery again, same event id; unknown is 404 delivery_not_found; a deleted webhook 404 webhook_not_found', async () => {
    const b = await s.account({ credits: 0 });
    const r = await pool.start();
    const hook = await createHook(s, b.sandboxKey, r.url, ['stay.cached']);
    expect((await trigger(b.sandboxKey, 'stay.cached')).status).toBe(200);
    const [first] = await r.waitFor(1);
    const [attempt] = await waitForDeliveries(s, b.sandboxKey, hook.id, 1);
    expect(attempt!.event_id).toBe(first!.body.id);

    const res = await s.req(`/v1/webhooks/${hook.id}/deliveries/${attempt!.event_id}/resend`, { key: b.sandboxKey, method: 'POST' });
    const body = (await res.json()) as { data: unknown };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.data).toEqual({ id: attempt!.event_id, webhook_id: hook.id, status: 'queued' });
    const both = await r.waitFor(2);
    expect(both[1]!.body.id).toBe(first!.body.id);
    expect(both[1]!.raw).toBe(first!.raw);

    await expectError(await s.req(`/v1/webhooks/${hook.id}/deliveries/evt_01J8ZK4R2ABCDEF0123456789A/resend`, { key: b.sandboxKey, method: 'POST' }), 404, 'delivery_not_found');
    await s.req(`/v1/webhooks/${hook.id}`, { key: b.sandboxKey, method: 'DELETE' });
    await expectError(await s.req(`/v1/webhooks/${hook.id}/deliveries/${attempt!.event_id}/resend`, { key: b.sandboxKey, method: 'POST' }), 404, 'webhook_not_found');
  });
});
