// Waiting on 202 jobs, the CLI run in this process (staysIn): against a fake job service (timing,
// failures, timeouts) and against a real server (serve-in.ts) with the simulated upstream (a live job
// waited to completion, --no-wait, jobs get/wait/cancel). Ctrl-C while waiting (a real process
// sent SIGINT) is jobs.test.ts's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/stays.js';
import { type FakeJobs, startFakeJobs } from './fake-jobs.js';
import { SPINNER_FRAMES, type Sandbox, freshSandbox, json, staysIn } from './helpers.js';
import { type Served, serveIn } from './serve-in.js';

let fake: FakeJobs;
let sim: Served;
let a: TestAccount;
let box: Sandbox;
beforeAll(async () => {
  [fake, sim] = await Promise.all([startFakeJobs(), serveIn({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '1200', STAYS_SIM_FAIL: '' })]);
  a = await sim.account({ credits: 100_000 });
  box = freshSandbox();
});
afterAll(async () => {
  await Promise.all([fake.close(), sim.stop()]);
});

const viaFake = (...args: string[]) => staysIn([...args, '--base-url', fake.url, '--api-key', 'stay_live_fake'], box.env);

describe('waiting on jobs (fake job service)', () => {
  it('polls after Retry-After until completed and prints the result like a synchronous call', async () => {
    const r = await viaFake('search', 'done', '--json');
    expect(r.code).toBe(0);
    expect(json<{ data: { name: string }[] }>(r).data[0]!.name).toBe('Fake flat');
    const polls = fake.seen.filter((x) => x.url === '/v1/jobs/job_done');
    expect(polls).toHaveLength(2);
    const start = fake.seen.find((x) => x.url.startsWith('/v1/search?location=done'))!;
    expect(polls[0]!.at - start.at).toBeGreaterThanOrEqual(950); // Retry-After: 1
    expect(polls.every((p) => p.auth === 'Bearer stay_live_fake')).toBe(true);
    // Not a TTY: a plain status line, no spinner.
    expect(r.stderr).toMatch(/^stays: waiting for job job_done \(pending\)$/m);
    expect(r.stderr).not.toMatch(SPINNER_FRAMES);
  });

  it('--no-wait prints the 202 body and exits 0', async () => {
    const r = await viaFake('search', 'later', '--no-wait');
    expect(r.code).toBe(0);
    expect(json<{ data: { jobId: string; status: string } }>(r).data).toMatchObject({ jobId: 'job_later', status: 'pending' });
    expect(fake.seen.some((x) => x.url === '/v1/jobs/job_later')).toBe(false);
  });

  it('a failed job exits 7 (upstream) with its error and job id; a not_found job exits 3', async () => {
    const r = await viaFake('search', 'fails', '--json');
    expect(r.code).toBe(7);
    expect(JSON.parse(r.stderr.trim().split('\n').pop()!)).toMatchObject({ error: { type: 'upstream_timeout', code: 'actor_timeout', jobId: 'job_fails' } });
    expect((await viaFake('search', 'missing')).code).toBe(3);
  });

  it('--timeout bounds the wait: exit 8 and how to resume', async () => {
    const started = Date.now();
    const r = await viaFake('search', 'slow', '--timeout', '2s');
    expect(r.code).toBe(8);
    expect(Date.now() - started).toBeLessThan(6000);
    expect(r.stderr).toMatch(/still running[\s\S]*stays jobs wait job_slow/);
  });

  it('jobs get shows one poll; jobs wait waits for the result', async () => {
    const got = await viaFake('jobs', 'get', 'job_slow', '--json');
    expect(json<{ data: { status: string } }>(got).data.status).toBe('running');
    const waited = await viaFake('jobs', 'wait', 'job_waitme', '-o', 'jsonl');
    expect(waited.code).toBe(0);
    expect(JSON.parse(waited.stdout.trim())).toMatchObject({ platform: 'airbnb', name: 'Fake flat' });
  });

  it('retries a 429 after its Retry-After and succeeds', async () => {
    const r = await viaFake('search', 'busy-once', '--json', '--debug');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/→ 429[\s\S]*→ 200 .*attempt 2/);
  });
});

describe('waiting on jobs (simulated upstream, live key)', () => {
  it('waits for a live job to completion', async () => {
    const r = await staysIn(['search', 'Madrid', '--limit', '2', '--json', '--base-url', sim.url, '--api-key', a.liveKey], box.env);
    expect(r.code, r.stderr).toBe(0);
    const out = json<{ data: unknown[]; meta: { creditsCharged: number; sandbox: boolean } }>(r);
    expect(out.data).toHaveLength(8);
    expect(out.meta).toMatchObject({ sandbox: false });
    expect(out.meta.creditsCharged).toBeGreaterThan(0);
    expect(r.stderr).toMatch(/waiting for job job_\w+/);
  });

  it('--no-wait prints the 202 job; jobs wait picks it up', async () => {
    const r = await staysIn(['search', 'Seville', '--limit', '2', '--no-wait', '--base-url', sim.url, '--api-key', a.liveKey], box.env);
    expect(r.code).toBe(0);
    const accepted = json<{ data: { jobId: string; status: string; pollUrl: string } }>(r);
    expect(accepted.data).toMatchObject({ status: 'pending', pollUrl: `/v1/jobs/${accepted.data.jobId}` });
    const waited = await staysIn(['jobs', 'wait', accepted.data.jobId, '--json', '--base-url', sim.url, '--api-key', a.liveKey], box.env);
    expect(waited.code, waited.stderr).toBe(0);
    expect(json<{ data: unknown[] }>(waited).data).toHaveLength(8);
  });

  // Issue 22, item 18: a table or CSV of a completed job showed its id and status, never its result.
  it('jobs get of a completed job: the table shows the job and its result; csv is the result rows', async () => {
    const live = (...args: string[]) => staysIn([...args, '--base-url', sim.url, '--api-key', a.liveKey], box.env, { timeoutMs: 60_000 });
    const r = await live('search', 'Cordoba', '--limit', '2', '--platforms', 'airbnb,booking', '--no-wait');
    const jobId = json<{ data: { jobId: string } }>(r).data.jobId;
    const waited = await live('jobs', 'wait', jobId, '-o', 'csv');
    expect(waited.code, waited.stderr).toBe(0);

    const csv = await live('jobs', 'get', jobId, '-o', 'csv');
    expect(csv.code, csv.stderr).toBe(0);
    // The rows the call printed, as jobs wait prints them; stderr says they are the job's result.
    expect(csv.stdout).toBe(waited.stdout);
    expect(csv.stdout.split('\n')[0]).toMatch(/^name,platform,listing_id,id,/);
    expect(csv.stderr).toContain(`stays: job ${jobId} completed; below are its result's rows (the job's own fields: --json)`);

    const table = await live('jobs', 'get', jobId, '-o', 'table', '--no-color');
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`^JOB ID +${jobId}\nSTATUS +completed\n\nNAME +PLATFORM`));
    const rows = await live('jobs', 'wait', jobId, '-o', 'jsonl');
    const ids = rows.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { platformListingId: string }).platformListingId);
    expect(ids).toHaveLength(4);
    for (const id of ids) expect(table.stdout).toContain(id);
    expect(table.stderr).toMatch(/credits charged/);

    // JSON stays the poll as returned.
    const polled = json<{ data: { jobId: string; status: string; result: unknown[] } }>(await live('jobs', 'get', jobId, '--json'));
    expect(polled.data).toMatchObject({ jobId, status: 'completed' });
    expect(polled.data.result).toHaveLength(4);
  });
});

describe('canceling jobs (a server whose platforms take 30 s: the job is surely running when canceled)', () => {
  let slow: Served;
  beforeAll(async () => {
    slow = await serveIn({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '30000', STAYS_SIM_FAIL: '' });
  });
  afterAll(async () => {
    await slow.stop('SIGKILL');
  });

  it('jobs cancel stops a running job (nothing charged); a second cancel exits 2, an unknown job 3', async () => {
    const c = await slow.account({ credits: 10_000 });
    const cli = (...args: string[]) => staysIn([...args, '--base-url', slow.url, '--api-key', c.liveKey], box.env);
    const r = await cli('search', 'Valencia', '--limit', '2', '--no-wait');
    const jobId = json<{ data: { jobId: string } }>(r).data.jobId;
    const canceled = await cli('jobs', 'cancel', jobId);
    expect(canceled.code, canceled.stderr).toBe(0);
    // Piped: the job as `jobs get` prints it (tsv), now failed with job_canceled.
    expect(canceled.stdout).toMatch(new RegExp(`^${jobId}\tfailed\t\tjob_canceled\t`));
    const got = await cli('jobs', 'get', jobId, '--json');
    expect(json<{ data: { status: string; error: { code: string } } }>(got).data).toMatchObject({ status: 'failed', error: { code: 'job_canceled' } });
    // Waiting on it now: a failed job (exit 7), with its job_canceled error.
    const waited = await cli('jobs', 'wait', jobId, '--json');
    expect(waited.code).toBe(7);
    expect(JSON.parse(waited.stderr)).toMatchObject({ error: { code: 'job_canceled' } });
    const again = await cli('jobs', 'cancel', jobId, '--json');
    expect(again.code).toBe(2);
    expect(JSON.parse(again.stderr)).toMatchObject({ error: { code: 'job_not_cancelable' } });
    const account = json<{ data: { credits: { balance: number; held: number } } }>(await cli('account', '--json'));
    expect(account.data.credits).toMatchObject({ balance: 10_000, held: 0 });
    expect((await cli('jobs', 'cancel', 'job_01J8ZK4R2ABCDEF0123456789A')).code).toBe(3);
  });
});
