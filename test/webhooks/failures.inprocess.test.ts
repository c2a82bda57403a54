// Deliveries that go wrong (issue 10): a failed job's event, a dead receiver (3 recorded failures),
// a revoked webhook (nothing more), a slow receiver (a timeout that blocks neither the API nor
// another webhook's deliveries). The app in-process (test/helpers/app.ts) on a manual clock: the
// retries (1 s, then 6 s) are due when the test moves the clock, so no test waits them out; jobs,
// the receivers and the delivery timeout run on real timers. Deliveries from real `stays serve`
// processes (restarts, two processes, shutdown, private targets) are the e2e test/webhooks/*.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { verifyWebhook } from '../../src/webhooks/sign.js';
import { type TestApp, startApp } from '../helpers/app.js';
import { pollJob } from '../helpers/jobs.js';
import { receiverPool, startReceiver } from '../helpers/receiver.js';
import type { TestAccount } from '../helpers/stays.js';
import { createHook, deliveries, revokeHook, waitForDeliveries } from '../helpers/webhooks.js';

let s: TestApp;
let a: TestAccount;
const clock = manualClock(Date.now());
const pool = receiverPool();
/** Moves the runtime's clock and has the dispatcher look at the outbox at once. */
const advance = (ms: number) => {
  clock.advance(ms);
  s.runtime.dispatcher.wake();
};
beforeAll(async () => {
  s = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '300', STAYS_SIM_FAIL: 'vrbo=all_actors_failed', STAYS_WEBHOOK_TIMEOUT_MS: '1000' }, { clock });
  a = await s.account({ credits: 100_000, rpm: 100_000 });
});
afterAll(async () => {
  await s.stop();
  await pool.closeAll();
});

const receiver = pool.start;

async function liveJob(path: string): Promise<string> {
  const res = await s.req(path, { key: a.liveKey });
  expect(res.status).toBe(202);
  return ((await res.json()) as { data: { jobId: string } }).data.jobId;
}

describe('deliveries that go wrong', () => {
  it('a failed job is job.failed, carrying the error a poll shows', async () => {
    const r = await receiver();
    const hook = await createHook(s, a.liveKey, r.url, ['job.failed', 'job.succeeded']);
    const jobId = await liveJob('/v1/listing/vrbo/4886746');
    const job = await pollJob(s, a.liveKey, jobId);
    expect(job.data.status).toBe('failed');
    const [g] = await r.waitFor(1);
    expect(g!.body.event).toBe('job.failed');
    expect(g!.body.data).toEqual({
      job_id: jobId,
      status: 'failed',
      operation: 'listing',
      platforms: ['vrbo'],
      poll_url: `/v1/jobs/${jobId}`,
      created_at: expect.any(String),
      error: job.data.error,
    });
    expect(Object.keys(g!.body.data.error as object).sort()).toEqual(['code', 'message', 'retryable', 'type']);
    expect(verifyWebhook(g!.raw, g!.headers['x-service-signature'] as string, hook.secret).ok).toBe(true);
  });

  it('a dead receiver (nothing listening) gets 3 attempts, each recorded as failed, then no more', async () => {
    const closed = await startReceiver();
    const url = closed.url;
    await closed.close();
    const hook = await createHook(s, a.liveKey, url, ['job.succeeded']);
    const jobId = await liveJob('/v1/search?location=Seville&limit=2');
    await pollJob(s, a.liveKey, jobId);
    await waitForDeliveries(s, a.liveKey, hook.id, 1);
    // Attempt 2 is due 1 s after the first failed, attempt 3 6 s after the second.
    advance(1_000);
    await waitForDeliveries(s, a.liveKey, hook.id, 2);
    advance(6_000);
    const log = await waitForDeliveries(s, a.liveKey, hook.id, 3);
    expect(log.map((l) => [l.event, l.attempt, l.status_code, l.delivered])).toEqual([
      ['job.succeeded', 3, null, false],
      ['job.succeeded', 2, null, false],
      ['job.succeeded', 1, null, false],
    ]);
    for (const l of log) expect(l.response_preview).toMatch(/ECONNREFUSED/);
    expect(new Set(log.map((l) => l.event_id)).size).toBe(1);
    const at = log.map((l) => Date.parse(l.attempted_at)).reverse();
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(1_000);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(6_000);
    // Out of attempts: no longer queued, so nothing more however far the clock moves.
    expect(await s.runtime.store.pendingDeliveries([log[0]!.event_id])).toEqual([]);
    advance(60_000);
    expect(await deliveries(s, a.liveKey, hook.id)).toHaveLength(3);
  });

  it('a revoked webhook gets nothing more: neither new events nor the retries it had queued', async () => {
    const failing = await receiver(() => ({ status: 500, body: 'down' }));
    const revoked = await createHook(s, a.liveKey, failing.url, ['job.succeeded']);
    const control = await receiver();
    await createHook(s, a.liveKey, control.url, ['job.succeeded']);
    await pollJob(s, a.liveKey, await liveJob('/v1/search?location=Bilbao&limit=2'));
    await failing.waitFor(1);
    await control.waitFor(1);
    // Revoked with its retry queued (due 1 s after the failure, on a clock that has not moved).
    const [failed] = await waitForDeliveries(s, a.liveKey, revoked.id, 1);
    expect(await s.runtime.store.pendingDeliveries([failed!.event_id])).toEqual([failed!.event_id]);
    await revokeHook(s, a.liveKey, revoked.id);
    expect(await s.runtime.store.pendingDeliveries([failed!.event_id])).toEqual([]);
    await pollJob(s, a.liveKey, await liveJob('/v1/search?location=Valencia&limit=2'));
    await control.waitFor(2);
    // Past the retry's due time; then the next event, claimed after that, reaches the control webhook.
    advance(2_500);
    await pollJob(s, a.liveKey, await liveJob('/v1/search?location=Murcia&limit=2'));
    await control.waitFor(3);
    expect(failing.received).toHaveLength(1);
    expect(await deliveries(s, a.liveKey, revoked.id)).toHaveLength(1);
  });

  it('a slow receiver times out (recorded) while another webhook gets its events and the API answers', async () => {
    const slow = await receiver(() => ({ delayMs: 4_000 }));
    const slowHook = await createHook(s, a.liveKey, slow.url, ['job.queued']);
    const fast = await receiver();
    await createHook(s, a.liveKey, fast.url, ['job.queued', 'job.running', 'job.succeeded']);
    const t0 = Date.now();
    const jobId = await liveJob('/v1/search?location=Granada&limit=2');
    await slow.waitFor(1);
    // While the slow receiver holds its attempt: the API answers at once, the other webhook gets all three.
    const t1 = Date.now();
    const acct = await s.req('/v1/account', { key: a.liveKey });
    expect(acct.status).toBe(200);
    expect(Date.now() - t1).toBeLessThan(1_000);
    await pollJob(s, a.liveKey, jobId);
    const got = await fast.waitFor(3);
    expect(got.map((g) => g.body.event)).toEqual(['job.queued', 'job.running', 'job.succeeded']);
    // The slow one's first attempt: a timeout after STAYS_WEBHOOK_TIMEOUT_MS (1000).
    const log = await waitForDeliveries(s, a.liveKey, slowHook.id, 1);
    expect(log[0]).toMatchObject({ attempt: 1, status_code: null, delivered: false });
    expect(log[0]!.response_preview).toMatch(/no answer within 1000 ms \(timeout\)/);
    expect(got[2]!.at - t0).toBeLessThan(4_000);
  });
});
