// Canceling a job across instances on PostgreSQL (issue 22, item 19): a job that instance A runs
// is canceled through instance B; A's platform answer arrives later and charges nothing (the
// store took the job from A). And a triggered sandbox job (item 20) on the same store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobBody } from '../helpers/jobs.js';
import { type Instance, accountShow, admin, startInstance, stopAll } from '../helpers/multi.js';
import { type TestDatabase, freshDatabase, pgAvailable } from '../helpers/pg.js';

const available = await pgAvailable();

describe.skipIf(!available)('PostgreSQL: cancel across instances', () => {
  let db: TestDatabase;
  let a: Instance;
  let b: Instance;
  let acct: string;
  let liveKey: string;
  let sandboxKey: string;
  beforeAll(async () => {
    db = await freshDatabase();
    // Platforms answer after 5 s: the job is surely running when it is canceled.
    const env = { STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '5000', STAYS_SIM_FAIL: '' };
    [a, b] = await Promise.all([startInstance('a', db.url, env), startInstance('b', db.url, env)]);
    acct = (await admin<{ id: string }>(db.url, 'account', 'create', '--plan', 'pro', '--credits', '10000', '--rpm', '1000000')).id;
    liveKey = (await admin<{ key: string }>(db.url, 'key', 'create', '--account', acct, '--env', 'live')).key;
    sandboxKey = (await admin<{ key: string }>(db.url, 'key', 'create', '--account', acct, '--env', 'sandbox')).key;
  });
  afterAll(async () => {
    await stopAll();
    await db?.drop();
  });

  it("B cancels A's running job: hold released at once; after A ends (its shutdown drains the job), nothing was charged", async () => {
    const res = await a.req('/v1/search?location=Lisbon&platforms=airbnb&limit=2', { key: liveKey });
    expect(res.status).toBe(202);
    const jobId = ((await res.json()) as JobBody).data.jobId;
    const del = (await (await b.req(`/v1/jobs/${jobId}`, { key: liveKey, method: 'DELETE' })).json()) as JobBody;
    expect(del.data).toMatchObject({ jobId, status: 'failed', error: { code: 'job_canceled' } });
    expect((await accountShow(db.url, acct)).credits).toMatchObject({ balance: 10_000, held: 0 });
    await a.stop(20_000);
    const shown = await accountShow(db.url, acct);
    expect(shown.credits).toMatchObject({ balance: 10_000, held: 0, spent: 0 });
    expect(shown.ledger.filter((l) => l.kind === 'charge')).toEqual([]);
    const poll = (await (await b.req(`/v1/jobs/${jobId}`, { key: liveKey })).json()) as JobBody;
    expect(poll.data.error?.code).toBe('job_canceled');
  }, 60_000);

  it('a triggered sandbox job goes through the PostgreSQL store (a hold of 0) and polls completed', async () => {
    const res = await b.req('/v1/webhooks/trigger', { key: sandboxKey, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ event: 'job.succeeded' }) });
    const body = (await res.json()) as { data: { job_id: string } };
    expect(res.status, JSON.stringify(body)).toBe(200);
    const poll = (await (await b.req(`/v1/jobs/${body.data.job_id}`, { key: sandboxKey })).json()) as JobBody;
    expect(poll.data.status).toBe('completed');
  });
});
