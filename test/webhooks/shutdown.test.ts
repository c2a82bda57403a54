// Graceful shutdown with deliveries in flight (issue 10): an attempt that ends within
// STAYS_SHUTDOWN_GRACE_MS is recorded; one that does not is cut off unrecorded, stays claimed
// until its lease expires, and the next server sends it again.
import { afterEach, describe, expect, it } from 'vitest';
import { pollJob } from '../helpers/jobs.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';
import { type Stays, startStays, tempDir } from '../helpers/stays.js';
import { waitForDeliveries, createHook } from '../helpers/webhooks.js';

const ENV = { STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '100', STAYS_SIM_FAIL: '', STAYS_JOB_LEASE_MS: '1500', STAYS_WEBHOOK_TIMEOUT_MS: '2000' };
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function server(dataDir: string, grace: string): Promise<Stays> {
  const s = await startStays({ ...ENV, STAYS_SHUTDOWN_GRACE_MS: grace }, dataDir);
  cleanup.push(async () => (s.child.exitCode === null && s.child.signalCode === null ? s.stop('SIGKILL', { keepData: true }) : null));
  return s;
}

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const r = await startReceiver(...args);
  cleanup.push(() => r.close());
  return r;
}

async function setup(r: Receiver, grace: string) {
  const dir = tempDir();
  const s = await server(dir, grace);
  const a = await s.account({ credits: 10_000, rpm: 100_000 });
  const hook = await createHook(s, a.liveKey, r.url, ['job.succeeded']);
  const res = await s.req('/v1/search?location=Turin&limit=2', { key: a.liveKey });
  expect(res.status).toBe(202);
  await pollJob(s, a.liveKey, ((await res.json()) as { data: { jobId: string } }).data.jobId);
  return { dir, s, a, hook };
}

describe('stays serve shutting down with a delivery in flight', () => {
  it('an attempt that ends within the grace period is recorded before the server exits', async () => {
    const r = await receiver(() => ({ delayMs: 400, status: 202 }));
    const { dir, s, a, hook } = await setup(r, '5000');
    await r.waitFor(1);
    expect(await s.stop('SIGTERM', { keepData: true })).toBe(0);
    const next = await server(dir, '5000');
    const log = await waitForDeliveries(next, a.liveKey, hook.id, 1);
    expect(log.map((l) => [l.attempt, l.status_code, l.delivered])).toEqual([[1, 202, true]]);
    await new Promise((res) => setTimeout(res, 1_000));
    expect(r.received).toHaveLength(1);
  }, 30_000);

  it('one still in flight at the end of the grace period is cut off, and sent again by the next server after the lease', async () => {
    const r = await receiver((n) => (n === 1 ? { delayMs: 20_000 } : { status: 200 }));
    const { dir, s, a, hook } = await setup(r, '300');
    const [first] = await r.waitFor(1);
    const t0 = Date.now();
    expect(await s.stop('SIGTERM', { keepData: true })).toBe(0);
    // Within the grace period and the time to close, not the receiver's 20 s.
    expect(Date.now() - t0).toBeLessThan(10_000);
    const next = await server(dir, '5000');
    const got = await r.waitFor(2, 20_000);
    expect(got[1]!.body.id).toBe(first!.body.id);
    // Claimed for STAYS_WEBHOOK_TIMEOUT_MS + STAYS_JOB_LEASE_MS (3.5 s).
    expect(got[1]!.at - first!.at).toBeGreaterThanOrEqual(3_000);
    const log = await waitForDeliveries(next, a.liveKey, hook.id, 1);
    expect(log.map((l) => [l.attempt, l.status_code, l.delivered])).toEqual([[1, 200, true]]);
  }, 40_000);
});
