// Issue 14: an instance killed (SIGKILL) mid-job on a shared PostgreSQL database. Once the
// jobs' owner lease (STAYS_JOB_LEASE_MS) expires, the surviving instance's sweeper fails them
// (retryable, nothing charged, every hold released), while the jobs it runs itself complete and
// are charged once; no job is both completed and failed, none charged twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Instance, accountShow, call, day, errorLogs, liveAccount, pollUntilDone, sql, startInstance, stopAll } from '../helpers/multi.js';
import { type TestDatabase, freshDatabase, pgAvailable } from '../helpers/pg.js';

describe.skipIf(!(await pgAvailable()))('an instance killed mid-job', { timeout: 180_000 }, () => {
  let db: TestDatabase;
  let a: Instance;
  let b: Instance;
  beforeAll(async () => {
    db = await freshDatabase();
    // A's upstream answers in a minute, so its jobs are surely in flight when it is killed however
    // slow the machine (with 5 s, a loaded one once finished one first); B's in 5 s.
    const env = { STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '5000', STAYS_JOB_LEASE_MS: '1500' };
    [a, b] = await Promise.all([startInstance('A', db.url, { ...env, STAYS_SIM_LATENCY_MS: '60000' }), startInstance('B', db.url, env)]);
  });
  afterAll(async () => {
    await stopAll();
    await db?.drop();
  });

  it("kill -9 A mid-job: after the lease expires B fails A's jobs (retryable, free); B's own jobs complete and are charged once", async () => {
    const START = 5000;
    const acct = await liveAccount(db.url, { credits: START });
    const create = async (i: Instance, path: string) => {
      const r = await call(i, acct.liveKey, path);
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      return r.body.data!.jobId!;
    };
    // Distinct questions on each instance, so no job waits on the other instance's upstream call.
    const onA = [
      await create(a, '/v1/search?location=Rome&limit=2'),
      await create(a, `/v1/price?platform=airbnb&listingId=42424242&checkIn=${day(9)}&checkOut=${day(11)}`),
      await create(a, '/v1/reviews?platform=booking&listingId=it/casa-roma&limit=5'),
    ];
    const onB = [await create(b, '/v1/search?location=Milan&limit=2'), await create(b, `/v1/price?platform=airbnb&listingId=53535353&checkIn=${day(9)}&checkOut=${day(11)}`)];
    // A's jobs are still in flight (a minute of upstream latency) and hold credits.
    const inFlight = await sql<{ id: string; status: string }>(db.url, 'SELECT id, status FROM jobs WHERE id = ANY($1)', [onA]);
    expect(
      inFlight.map((j) => j.status).every((st) => st === 'pending' || st === 'running'),
      JSON.stringify(inFlight),
    ).toBe(true);
    expect((await accountShow(db.url, acct.id)).credits.held).toBeGreaterThan(0);

    a.child.kill('SIGKILL');
    await new Promise((r) => (a.child.exitCode !== null || a.child.signalCode !== null ? r(null) : a.child.once('exit', r)));

    const [failed, done] = await Promise.all([Promise.all(onA.map((id) => pollUntilDone(b, acct.liveKey, id, 60_000))), Promise.all(onB.map((id) => pollUntilDone(b, acct.liveKey, id, 60_000)))]);
    for (const j of failed) {
      expect(j.body.data!.status, JSON.stringify(j.body)).toBe('failed');
      expect(j.body.data!.error).toMatchObject({ retryable: true });
      expect(j.body.meta!.creditsCharged).toBe(0);
    }
    let charged = 0;
    for (const j of done) {
      expect(j.body.data!.status, JSON.stringify(j.body)).toBe('completed');
      expect(j.body.meta!.creditsCharged).toBeGreaterThan(0);
      charged += j.body.meta!.creditsCharged;
    }

    // Nothing charged for A's jobs; B's charged once each; nothing held.
    expect((await accountShow(db.url, acct.id)).credits).toMatchObject({ balance: START - charged, held: 0 });
    expect(await sql(db.url, 'SELECT id FROM credit_holds WHERE account_id = $1', [acct.id])).toEqual([]);
    const charges = await sql<{ job_id: string | null; amount: number }>(db.url, `SELECT job_id, amount::int FROM credit_ledger WHERE account_id = $1 AND kind = 'charge'`, [acct.id]);
    expect(charges.filter((c) => onA.includes(c.job_id ?? ''))).toEqual([]);
    for (const id of onB) expect(charges.filter((c) => c.job_id === id)).toHaveLength(1);
    expect(charges.reduce((n, c) => n - c.amount, 0)).toBe(charged);
    const rows = await sql<{ id: string; status: string }>(db.url, 'SELECT id, status FROM jobs WHERE id = ANY($1) ORDER BY id', [[...onA, ...onB]]);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual(Object.fromEntries([...onA.map((id) => [id, 'failed']), ...onB.map((id) => [id, 'completed'])]));

    // The answers stay put: polled again, each job reads as it ended.
    await new Promise((r) => setTimeout(r, 1000));
    for (const id of onA) expect((await call(b, acct.liveKey, `/v1/jobs/${id}`)).body.data!.status).toBe('failed');
    for (const id of onB) expect((await call(b, acct.liveKey, `/v1/jobs/${id}`)).body.data!.status).toBe('completed');
    expect(errorLogs(b)).toEqual([]);
  });

  it('SIGTERM an instance mid-job: it shuts down cleanly and its unfinished jobs read as failed (retryable, free) through the other', async () => {
    const c = await startInstance('C', db.url, { STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '5000', STAYS_JOB_LEASE_MS: '1500', STAYS_SHUTDOWN_GRACE_MS: '300' });
    const START = 2000;
    const acct = await liveAccount(db.url, { credits: START });
    const r = await call(c, acct.liveKey, '/v1/search?location=Naples&limit=2');
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const jobId = r.body.data!.jobId!;
    const exited = new Promise<number | null>((res) => c.child.once('exit', (code) => res(code)));
    c.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const job = await pollUntilDone(b, acct.liveKey, jobId, 60_000);
    expect(job.body.data!.status, JSON.stringify(job.body)).toBe('failed');
    expect(job.body.data!.error).toMatchObject({ retryable: true, message: expect.stringContaining('shut down') });
    expect(job.body.meta!.creditsCharged).toBe(0);
    expect((await accountShow(db.url, acct.id)).credits).toMatchObject({ balance: START, held: 0 });
    expect(errorLogs(c)).toEqual([]);
  });
});
