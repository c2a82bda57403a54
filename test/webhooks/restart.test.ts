// Deliveries are durable (issue 10): a server killed (SIGKILL) between two attempts, or during one,
// leaves them queued in the store; the next server on the same data directory resumes them, a
// claim held by the dead process only once its lease has expired.
import { afterEach, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../helpers/receiver.js';
import { type Stays, startStays, tempDir } from '../helpers/stays.js';
import { createHook, waitForDeliveries } from '../helpers/webhooks.js';
import { pollJob } from '../helpers/jobs.js';

const ENV = { STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '200', STAYS_SIM_FAIL: '', STAYS_JOB_LEASE_MS: '1500', STAYS_WEBHOOK_TIMEOUT_MS: '1000' };
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function server(dataDir: string): Promise<Stays> {
  const s = await startStays(ENV, dataDir);
  // stop() waits for an exit: not for a process already killed.
  cleanup.push(async () => (s.child.exitCode === null && s.child.signalCode === null ? s.stop('SIGKILL', { keepData: true }) : null));
  return s;
}

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const r = await startReceiver(...args);
  cleanup.push(() => r.close());
  return r;
}

async function firstJob(s: Stays, key: string): Promise<void> {
  const res = await s.req('/v1/search?location=Lyon&limit=2', { key });
  expect(res.status).toBe(202);
  await pollJob(s, key, ((await res.json()) as { data: { jobId: string } }).data.jobId);
}

describe('a server killed with deliveries pending', () => {
  it('between attempts: the next server sends the retry (attempt 2), at least 1 s after the first', async () => {
    const dir = tempDir();
    const r = await receiver((n) => (n === 1 ? { status: 500, body: 'not yet' } : { status: 200 }));
    const s1 = await server(dir);
    const a = await s1.account({ credits: 10_000, rpm: 100_000 });
    const hook = await createHook(s1, a.liveKey, r.url, ['job.succeeded']);
    await firstJob(s1, a.liveKey);
    await r.waitFor(1);
    // The failed attempt is recorded with its retry due in 1 s: kill now.
    await waitForDeliveries(s1, a.liveKey, hook.id, 1);
    await s1.stop('SIGKILL', { keepData: true });
    const s2 = await server(dir);
    const got = await r.waitFor(2, 15_000);
    expect(got[1]!.body.id).toBe(got[0]!.body.id);
    expect(got[1]!.raw).toBe(got[0]!.raw);
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(1_000);
    const log = await waitForDeliveries(s2, a.liveKey, hook.id, 2);
    expect(log.map((l) => [l.attempt, l.status_code, l.delivered])).toEqual([
      [2, 200, true],
      [1, 500, false],
    ]);
  }, 40_000);

  it('a job left running by the killed server is failed by the next one, which sends its job.failed', async () => {
    const dir = tempDir();
    const r = await receiver();
    const s1 = await startStays({ ...ENV, STAYS_SIM_LATENCY_MS: '20000' }, dir);
    cleanup.push(async () => (s1.child.exitCode === null && s1.child.signalCode === null ? s1.stop('SIGKILL', { keepData: true }) : null));
    const a = await s1.account({ credits: 10_000, rpm: 100_000 });
    const hook = await createHook(s1, a.liveKey, r.url, ['job.running', 'job.failed']);
    const res = await s1.req('/v1/search?location=Ghent&limit=2', { key: a.liveKey });
    expect(res.status).toBe(202);
    const jobId = ((await res.json()) as { data: { jobId: string } }).data.jobId;
    await r.waitFor(1);
    // Killed once job.running's delivery is recorded: a kill between the receiver's answer and
    // that record makes the next server send job.running again (at least once, the same event id),
    // which is right but not what this test is about.
    await waitForDeliveries(s1, a.liveKey, hook.id, 1);
    await s1.stop('SIGKILL', { keepData: true });
    const s2 = await server(dir);
    const got = await r.waitFor(2, 20_000);
    expect(got.map((g) => g.body.event)).toEqual(['job.running', 'job.failed']);
    const job = await pollJob(s2, a.liveKey, jobId);
    expect(got[1]!.body.data).toMatchObject({ job_id: jobId, status: 'failed', error: job.data.error });
    expect(job.data.error).toMatchObject({ retryable: true });
  }, 40_000);

  it('during an attempt: the claim outlives the dead server by its lease, then the next server sends it again', async () => {
    const dir = tempDir();
    // The first request hangs until the server is dead; the next one is answered.
    const r = await receiver((n) => (n === 1 ? { delayMs: 30_000 } : { status: 200 }));
    const s1 = await server(dir);
    const a = await s1.account({ credits: 10_000, rpm: 100_000 });
    const hook = await createHook(s1, a.liveKey, r.url, ['job.succeeded']);
    await firstJob(s1, a.liveKey);
    const [first] = await r.waitFor(1);
    await s1.stop('SIGKILL', { keepData: true });
    await server(dir);
    const got = await r.waitFor(2, 20_000);
    expect(got[1]!.body.id).toBe(first!.body.id);
    // The lease: STAYS_WEBHOOK_TIMEOUT_MS + STAYS_JOB_LEASE_MS = 2.5 s from the claim.
    expect(got[1]!.at - first!.at).toBeGreaterThanOrEqual(2_000);
    const s3 = await server(dir);
    // The dead server's attempt was never recorded: the one that got through is attempt 1.
    const log = await waitForDeliveries(s3, a.liveKey, hook.id, 1);
    expect(log.map((l) => [l.attempt, l.status_code, l.delivered])).toEqual([[1, 200, true]]);
  }, 40_000);
});
