// Live jobs in-process (issue 8): with no server, the CLI itself runs the job. --no-wait finishes
// it before exiting (and says so); a --timeout or a crash never leaves it running with credits
// held: a timeout stops it at once, a crash leaves a lease that the next command cleans up.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/stays.js';
import { type Sandbox, freshSandbox, json, stays } from './helpers.js';

const LEASE_MS = 1500;
let box: Sandbox;
let live: string;
let accountId: string;
const env = (latency: string) => ({ ...box.env, STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: latency, STAYS_JOB_LEASE_MS: String(LEASE_MS) });

beforeAll(async () => {
  box = freshSandbox();
  const acct = await stays(['admin', 'account', 'create', '--plan', 'pro', '--credits', '5000', '--json'], box.env);
  accountId = (JSON.parse(acct.stdout) as { id: string }).id;
  const key = await stays(['admin', 'key', 'create', '--account', accountId, '--env', 'live', '--json'], box.env);
  live = (JSON.parse(key.stdout) as { key: string }).key;
});

function db<T>(f: (d: Database.Database) => T): T {
  const d = new Database(join(box.dataDir, 'stays.db'), { readonly: true });
  try {
    return f(d);
  } finally {
    d.close();
  }
}
const credits = () => db((d) => d.prepare('SELECT balance, held FROM credit_balances WHERE account_id = ?').get(accountId) as { balance: number; held: number });
const jobRow = (id: string) => db((d) => d.prepare('SELECT status, error FROM jobs WHERE id = ?').get(id) as { status: string; error: string | null });
const JOB_ID = /job_[0-9A-HJKMNP-TV-Z]{26}/;

describe('live jobs in-process', () => {
  it('--no-wait prints the 202 job, finishes the job before exiting, and says so on stderr', async () => {
    const before = credits();
    const r = await stays(['search', 'Lisbon', '--limit', '2', '--api-key', live, '--no-wait'], env('1500'));
    expect(r.code, r.stderr).toBe(0);
    const { data } = json<{ data: { jobId: string; status: string } }>(r);
    expect(data.status).toBe('pending');
    expect(r.stderr).toMatch(new RegExp(`job ${data.jobId} runs in this command \\(in-process\\); finishing it before exiting`));
    expect(r.stderr).toMatch(new RegExp(`job ${data.jobId} finished; see it with: stays jobs get ${data.jobId}`));
    expect(jobRow(data.jobId).status).toBe('completed');
    const got = await stays(['jobs', 'get', data.jobId, '--api-key', live, '--json'], env('1500'));
    expect(got.code, got.stderr).toBe(0);
    expect(json<{ data: { status: string } }>(got).data.status).toBe('completed');
    const after = credits();
    expect(after.held).toBe(0);
    expect(after.balance).toBeLessThan(before.balance);
  });

  it('--timeout stops the job when the command gives up: exit 8, failed retryable, hold released, nothing charged', async () => {
    const before = credits();
    const r = await stays(['search', 'Porto', '--limit', '2', '--api-key', live, '--timeout', '1s'], env('8000'));
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toMatch(/ran in this command \(in-process\) and is stopped: nothing was charged/);
    const id = JOB_ID.exec(r.stderr)![0];
    const row = jobRow(id);
    expect(row.status).toBe('failed');
    expect(JSON.parse(row.error!)).toMatchObject({ code: 'upstream_degraded', retryable: true });
    expect(credits()).toEqual(before);
  });

  it('Ctrl-C stops the job it runs: exit 130, failed retryable, nothing charged, and the message says so', async () => {
    const before = credits();
    const child = spawn(process.execPath, [BIN, 'search', 'Braga', '--limit', '2', '--api-key', live], { env: { ...process.env, ...env('30000') }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    for (let i = 0; !JOB_ID.test(stderr); i++) {
      if (i > 400) throw new Error(`no job: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const id = JOB_ID.exec(stderr)![0];
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toMatch(new RegExp(`interrupted; job ${id} ran in this command and was stopped, nothing charged`));
    expect(jobRow(id).status).toBe('failed');
    expect(credits()).toEqual(before);
  });

  it('a command killed mid-job leaves a lease; the next command fails the job once it expires and releases its hold', async () => {
    const before = credits();
    const child = spawn(process.execPath, [BIN, 'search', 'Faro', '--limit', '2', '--api-key', live], { env: { ...process.env, ...env('30000') }, stdio: 'ignore' });
    let id: string | undefined;
    for (let i = 0; !id; i++) {
      if (i > 400) throw new Error('the job did not start');
      await new Promise((r) => setTimeout(r, 50));
      id = db((d) => d.prepare(`SELECT id FROM jobs WHERE status = 'running' AND request_id IN (SELECT request_id FROM credit_holds)`).pluck().get() as string | undefined);
    }
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(credits().held).toBeGreaterThan(0);
    // Any later in-process command cleans up, but only once the dead command's lease has expired.
    for (let i = 0; jobRow(id).status !== 'failed'; i++) {
      if (i > 40) throw new Error(`job ${id} still ${jobRow(id).status}`);
      const r = await stays(['account', '--api-key', live, '--json'], env('10'));
      expect(r.code, r.stderr).toBe(0);
      await new Promise((r) => setTimeout(r, LEASE_MS / 3));
    }
    expect(JSON.parse(jobRow(id).error!)).toMatchObject({ code: 'upstream_degraded', retryable: true });
    expect(credits()).toEqual(before);
  });
});
