// Ctrl-C while waiting on a 202 job: a real process sent SIGINT, against a fake job service (the
// job keeps running) and a real server (--cancel-on-interrupt cancels it). Waiting itself (timing,
// failures, timeouts, live jobs, --no-wait, jobs get/wait/cancel) is jobs.inprocess.test.ts's.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, type Stays, startStays } from '../helpers/stays.js';
import { type FakeJobs, startFakeJobs } from './fake-jobs.js';
import { type Sandbox, freshSandbox, json, stays } from './helpers.js';

let fake: FakeJobs;
let box: Sandbox;
beforeAll(async () => {
  fake = await startFakeJobs();
  box = freshSandbox();
});
afterAll(async () => {
  await fake.close();
});

/** Runs the built CLI and sends it Ctrl-C once it says it is waiting for a job; its exit code and stderr. */
async function interruptWhileWaiting(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...box.env } });
  let stderr = '';
  let sent = false;
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    if (!sent && stderr.includes('waiting for job')) sent = child.kill('SIGINT');
  });
  const code = await new Promise<number | null>((r) => child.once('close', r));
  return { code, stderr };
}

describe('waiting on jobs (fake job service)', () => {
  it('Ctrl-C while waiting exits 130 and says the job keeps running', async () => {
    const { code, stderr } = await interruptWhileWaiting(['search', 'slow', '--base-url', fake.url, '--api-key', 'stay_live_fake']);
    expect(code).toBe(130);
    expect(stderr).toMatch(/interrupted; job job_slow keeps running: stays jobs wait job_slow \(or stop it, nothing charged: stays jobs cancel job_slow\)/);
  });
});

describe('canceling jobs (a server whose platforms take 30 s: the job is surely running when canceled)', () => {
  let slow: Stays;
  beforeAll(async () => {
    slow = await startStays({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '30000', STAYS_SIM_FAIL: '' });
  });
  afterAll(async () => {
    await slow.stop('SIGKILL');
  });

  it('--cancel-on-interrupt: Ctrl-C while waiting cancels the job, nothing charged, exit 130', async () => {
    const c = await slow.account({ credits: 10_000 });
    const { code, stderr } = await interruptWhileWaiting(['search', 'Bilbao', '--limit', '2', '--cancel-on-interrupt', '--base-url', slow.url, '--api-key', c.liveKey]);
    expect(code).toBe(130);
    const jobId = /canceled job (job_[0-9A-Z]{26}); nothing was charged/.exec(stderr)?.[1];
    expect(jobId, stderr).toBeDefined();
    const got = await stays(['jobs', 'get', jobId!, '--json', '--base-url', slow.url, '--api-key', c.liveKey], box.env);
    expect(json<{ data: { status: string; error: { code: string } } }>(got).data).toMatchObject({ status: 'failed', error: { code: 'job_canceled' } });
    const account = json<{ data: { credits: { balance: number; held: number } } }>(await stays(['account', '--json', '--base-url', slow.url, '--api-key', c.liveKey], box.env));
    expect(account.data.credits).toMatchObject({ balance: 10_000, held: 0 });
  });
});
