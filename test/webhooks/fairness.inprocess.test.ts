// Issue 21 item 6, the in-process part: a webhook that keeps failing is slowed (its pauses double
// from 1 s) and then disabled, which GET /v1/webhooks says; it gets nothing more. The app
// in-process (test/helpers/app.ts) on a manual clock: each pause and retry is due when the test
// moves the clock, so no test waits them out. One tenant's backlog not holding back another's
// first attempt (on SQLite and across two PostgreSQL instances) is e2e: test/webhooks/fairness.test.ts.
import { afterAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { type TestApp, startApp } from '../helpers/app.js';
import { pollJob } from '../helpers/jobs.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';
import { createHook, deliveries, waitForDeliveries } from '../helpers/webhooks.js';

const ALL_FAIL = 'airbnb=all_actors_failed,booking=all_actors_failed,vrbo=all_actors_failed,google=all_actors_failed';
const JOB_EVENTS = ['job.queued', 'job.running', 'job.succeeded', 'job.failed'];

const receivers: Receiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

const search = async (s: TestApp, key: string, location: string) => {
  const res = await s.req(`/v1/search?location=${location}&limit=2`, { key });
  expect(res.status).toBe(202);
  return ((await res.json()) as { data: { jobId: string } }).data.jobId;
};

describe('fair webhook deliveries (issue 21)', () => {
  it('a webhook that keeps failing waits longer and longer, then is disabled and says so; it gets nothing more', async () => {
    const clock = manualClock(Date.now());
    const s = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '20', STAYS_SIM_FAIL: ALL_FAIL, STAYS_WEBHOOK_DISABLE_AFTER: '6' }, { clock });
    try {
      const a = await s.account({ credits: 10_000, rpm: 100_000 });
      const r = await startReceiver(() => ({ status: 500, body: 'down' }));
      receivers.push(r);
      const hook = await createHook(s, a.liveKey, r.url, JOB_EVENTS);
      // Two failing jobs: 6 deliveries, each worth 3 attempts.
      for (const city of ['Lisbon', 'Porto']) await pollJob(s, a.liveKey, await search(s, a.liveKey, city));
      // Each failure recorded, the clock goes to when the next attempt is due (a retry or the end
      // of the webhook's pause, whichever the store says), and the dispatcher looks at once.
      for (let n = 1; n < 6; n++) {
        await r.waitFor(n);
        await waitForDeliveries(s, a.liveKey, hook.id, n);
        const next = await s.runtime.store.nextDeliveryAt();
        expect(next).not.toBeNull();
        if (next! > clock.now()) clock.set(next!);
        s.runtime.dispatcher.wake();
      }
      await r.waitFor(6);
      // From the 3rd failure in a row the next attempt waits 1 s, then 2 s, then 4 s (lower bounds),
      // on the runtime's clock: the attempt log's times, oldest first.
      const at = (await waitForDeliveries(s, a.liveKey, hook.id, 6)).map((l) => Date.parse(l.attempted_at)).reverse();
      expect(at[3]! - at[2]!).toBeGreaterThanOrEqual(1_000);
      expect(at[4]! - at[3]!).toBeGreaterThanOrEqual(2_000);
      expect(at[5]! - at[4]!).toBeGreaterThanOrEqual(4_000);
      // The 6th failure disables it: GET says so, in the list and alone.
      const view = ((await (await s.req(`/v1/webhooks/${hook.id}`, { key: a.liveKey })).json()) as { data: Record<string, unknown> }).data;
      expect(view).toMatchObject({ id: hook.id, status: 'disabled', active: false, consecutive_failures: 6 });
      expect(new Date(view.disabled_at as string).toISOString()).toBe(view.disabled_at);
      expect(view.disabled_reason).toMatch(/^6 delivery attempts in a row failed \(the last: HTTP 500\)/);
      const list = (await (await s.req('/v1/webhooks', { key: a.liveKey })).json()) as { data: Record<string, unknown>[] };
      expect(list.data.find((w) => w.id === hook.id)).toMatchObject({ status: 'disabled', disabled_reason: view.disabled_reason });
      // What it had queued is cancelled (nothing is due, however far the clock moves), and new
      // events are not queued for it: a control webhook gets the next job's events, claimed after
      // the clock moved past every pause and retry.
      expect(await s.runtime.store.nextDeliveryAt()).toBeNull();
      clock.advance(3_600_000);
      const control = await startReceiver();
      receivers.push(control);
      await createHook(s, a.liveKey, control.url, JOB_EVENTS);
      await pollJob(s, a.liveKey, await search(s, a.liveKey, 'Faro'));
      await control.waitFor(3);
      expect(r.received).toHaveLength(6);
      expect(await deliveries(s, a.liveKey, hook.id)).toHaveLength(6);
    } finally {
      await s.stop();
    }
  });
});
