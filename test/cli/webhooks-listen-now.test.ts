// Webhooks of a server whose clock is moved (STAYS_NOW) reach `stays webhooks listen` (issue 36,
// item 18): the signature is transport, dated by the real clock the receiver checks against, while
// the payload keeps the service's time. The built CLI as a child process against `stays serve`.
import { untilOutput } from '../helpers/until.js';
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, type Stays, type TestAccount, startStays } from '../helpers/stays.js';
import { freshSandbox } from './helpers.js';

const NOW = '2027-06-01T08:00:00.000Z';
let s: Stays;
let a: TestAccount;
beforeAll(async () => {
  s = await startStays({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '50', STAYS_SIM_FAIL: '', STAYS_NOW: NOW });
  a = await s.account({ credits: 100_000, rpm: 100_000 });
});
afterAll(async () => {
  await s.stop();
});

const CLEARED = ['STAYS_BASE_URL', 'STAYS_API_KEY', 'STAYS_PROFILE', 'STAYS_DEBUG', 'NO_COLOR', 'FORCE_COLOR', 'CI', 'STAYS_DATA_DIR', 'STAYS_CONFIG_DIR', 'STAYS_NOW'];

describe('stays webhooks listen against a server on STAYS_NOW', () => {
  it('verifies its deliveries (signed at the real time); the payload carries the service time', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const k of CLEARED) delete env[k];
    const child: ChildProcess = spawn(process.execPath, [BIN, 'webhooks', 'listen', '--events', 'job.succeeded', '--base-url', s.url, '--api-key', a.liveKey], {
      env: { ...env, ...freshSandbox().env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const exit = new Promise<number | null>((r) => child.once('close', (code) => r(code)));
    try {
      await untilOutput(() => err, /Signing secret whsec_/, 15_000);
      const res = await s.req('/v1/search?location=Porto&limit=2', { key: a.liveKey });
      expect(res.status).toBe(202);
      const jobId = ((await res.json()) as { data: { jobId: string } }).data.jobId;
      // Either it is verified and printed, or listen says why it rejected it: no waiting out a timeout.
      await untilOutput(() => out + err, /"event":"job\.succeeded"|rejected a delivery/, 30_000);
      expect(err).not.toMatch(/rejected a delivery/);
      const line = JSON.parse(out.trim().split('\n')[0]!) as { event: string; created_at: string; data: { job_id: string } };
      expect(line).toMatchObject({ event: 'job.succeeded', data: { job_id: jobId } });
      // The service's time: a moment after STAYS_NOW, far from today's date.
      expect(line.created_at.slice(0, 10)).toBe(NOW.slice(0, 10));
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exit).toBe(0);
  });
});
