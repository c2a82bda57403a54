// Live jobs in-process (issue 8), the CLI run in this process (staysIn): with no server, the CLI
// itself runs the job. --no-wait finishes it before exiting (and says so); a --timeout never leaves
// it running with credits held, it stops it at once. Ctrl-C and a killed command (real processes
// signalled) are in-process-jobs.test.ts's.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, freshSandbox, json, staysIn } from './helpers.js';

const LEASE_MS = 1500;
let box: Sandbox;
let live: string;
let accountId: string;
const env = (latency: string) => ({ ...box.env, STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: latency, STAYS_JOB_LEASE_MS: String(LEASE_MS) });

beforeAll(async () => {
  box = freshSandbox();
  const acct = await staysIn(['admin', 'account', 'create', '--plan', 'pro', '--credits', '5000', '--json'], box.env);
  accountId = (JSON.parse(acct.stdout) as { id: string }).id;
  const key = await staysIn(['admin', 'key', 'create', '--account', accountId, '--env', 'live', '--json'], box.env);
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
    const r = await staysIn(['search', 'Lisbon', '--limit', '2', '--api-key', live, '--no-wait'], env('1500'));
    expect(r.code, r.stderr).toBe(0);
    const { data } = json<{ data: { jobId: string; status: string } }>(r);
    expect(data.status).toBe('pending');
    expect(r.stderr).toMatch(new RegExp(`job ${data.jobId} runs in this command \\(in-process\\); finishing it before exiting`));
    expect(r.stderr).toMatch(new RegExp(`job ${data.jobId} finished; see it with: stays jobs get ${data.jobId}`));
    expect(jobRow(data.jobId).status).toBe('completed');
    const got = await staysIn(['jobs', 'get', data.jobId, '--api-key', live, '--json'], env('1500'));
    expect(got.code, got.stderr).toBe(0);
    expect(json<{ data: { status: string } }>(got).data.status).toBe('completed');
    const after = credits();
    expect(after.held).toBe(0);
    expect(after.balance).toBeLessThan(before.balance);
  });

  it('--timeout stops the job when the command gives up: exit 8, failed retryable, hold released, nothing charged', async () => {
    const before = credits();
    const r = await staysIn(['search', 'Porto', '--limit', '2', '--api-key', live, '--timeout', '1s'], env('8000'));
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toMatch(/ran in this command \(in-process\) and is stopped: nothing was charged/);
    const id = JOB_ID.exec(r.stderr)![0];
    const row = jobRow(id);
    expect(row.status).toBe('failed');
    expect(JSON.parse(row.error!)).toMatchObject({ code: 'upstream_degraded', retryable: true });
    expect(credits()).toEqual(before);
  });
});
