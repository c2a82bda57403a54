// Live jobs in-process (issue 8), what only a real process shows: Ctrl-C (SIGINT) stops the job the
// command runs, and a command killed (SIGKILL) leaves a lease that the next command cleans up.
// --no-wait finishing the job and --timeout stopping it are in-process-jobs.inprocess.test.ts's.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/stays.js';
import { type Sandbox, freshSandbox, stays } from './helpers.js';

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
