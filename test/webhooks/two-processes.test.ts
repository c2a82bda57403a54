// Two servers on one data directory (issue 10): both run a dispatcher over the same outbox, and
// a delivery is claimed under a lease, so every event reaches its receiver exactly once, whichever
// server queued it and whichever sends it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollJob } from '../helpers/jobs.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';
import { type Stays, startStays, tempDir } from '../helpers/stays.js';
import { createHook, deliveries } from '../helpers/webhooks.js';

const ENV = { STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '50', STAYS_SIM_FAIL: '' };
let s1: Stays;
let s2: Stays;
let r1: Receiver;
let r2: Receiver;
beforeAll(async () => {
  const dir = tempDir();
  s1 = await startStays(ENV, dir);
  s2 = await startStays(ENV, dir);
  r1 = await startReceiver();
  // A receiver that takes its time, so claims by both servers overlap in time.
  r2 = await startReceiver(() => ({ delayMs: 30 }));
});
afterAll(async () => {
  await s2.stop('SIGTERM', { keepData: true });
  await s1.stop();
  await r1.close();
  await r2.close();
});

describe('two processes on one data directory', () => {
  it('never send one delivery twice', async () => {
    const a = await s1.account({ credits: 100_000, rpm: 100_000 });
    const events = ['job.queued', 'job.running', 'job.succeeded'];
    const h1 = await createHook(s1, a.liveKey, r1.url, events);
    const h2 = await createHook(s2, a.liveKey, r2.url, events);
    // Jobs on both servers at once: each queues its events, either may deliver them.
    const jobs = await Promise.all(
      Array.from({ length: 16 }, async (_, i) => {
        const s = i % 2 === 0 ? s1 : s2;
        const res = await s.req(`/v1/search?location=City${i}&limit=2`, { key: a.liveKey });
        expect(res.status).toBe(202);
        const jobId = ((await res.json()) as { data: { jobId: string } }).data.jobId;
        await pollJob(s, a.liveKey, jobId);
        return jobId;
      }),
    );
    const expected = jobs.length * events.length;
    for (const r of [r1, r2]) {
      const got = await r.waitFor(expected, 30_000);
      expect(new Set(got.map((g) => g.body.id)).size).toBe(expected);
      // Each job's three events, in order, to each receiver.
      for (const jobId of jobs) {
        expect(got.filter((g) => g.body.data.job_id === jobId).map((g) => g.body.event)).toEqual(events);
      }
    }
    // Nothing more arrives (no second send after a lease or a poll), and the log has one attempt per event.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(r1.received).toHaveLength(expected);
    expect(r2.received).toHaveLength(expected);
    for (const h of [h1, h2]) {
      const log = await deliveries(s2, a.liveKey, h.id);
      expect(log).toHaveLength(expected);
      expect(log.every((l) => l.attempt === 1 && l.delivered)).toBe(true);
    }
  }, 60_000);
});
