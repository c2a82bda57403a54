// Issue 14: webhook deliveries on a shared PostgreSQL database. A webhook registered through one
// instance receives the events of jobs run on either instance, each event once (the outbox claim
// is shared, so two delivery workers never send the same row), signed with the one secret every
// instance can unseal (the shared STAYS_SECRET_KEY).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../src/webhooks/sign.js';
import { type Instance, call, errorLogs, liveAccount, pollUntilDone, startInstance, stopAll } from '../helpers/multi.js';
import { type TestDatabase, freshDatabase, pgAvailable } from '../helpers/pg.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';

describe.skipIf(!(await pgAvailable()))('webhook deliveries across two instances', { timeout: 180_000 }, () => {
  let db: TestDatabase;
  let a: Instance;
  let b: Instance;
  let r: Receiver | undefined;
  beforeAll(async () => {
    db = await freshDatabase();
    const env = { STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '300', STAYS_SIM_FAIL: '' };
    [a, b] = await Promise.all([startInstance('A', db.url, env), startInstance('B', db.url, env)]);
  });
  afterAll(async () => {
    await stopAll();
    await r?.close();
    await db?.drop();
  });

  it('jobs on both instances: every event delivered once, signed with the secret registered through A', async () => {
    r = await startReceiver();
    const acct = await liveAccount(db.url, { credits: 100_000 });
    const created = await call(a, acct.liveKey, '/v1/webhooks', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: r.url, events: ['job.queued', 'job.running', 'job.succeeded', 'job.failed'] }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const secret = (created.body.data as unknown as { signing_secret: string }).signing_secret;
    const cities = ['Lisbon', 'Porto', 'Faro', 'Braga', 'Evora', 'Sintra', 'Coimbra', 'Aveiro', 'Lagos', 'Tavira'];
    const jobs = await Promise.all(
      cities.map(async (city, n) => {
        const i = n % 2 ? b : a;
        const res = await call(i, acct.liveKey, `/v1/search?location=${city}&limit=2`);
        expect(res.status, JSON.stringify(res.body)).toBe(202);
        const done = await pollUntilDone(i, acct.liveKey, res.body.data!.jobId!);
        expect(done.body.data!.status).toBe('completed');
        return res.body.data!.jobId!;
      }),
    );
    const got = await r.waitFor(3 * jobs.length, 60_000);
    // Anything sent twice would arrive within a few delivery ticks; give it time.
    await new Promise((res) => setTimeout(res, 2000));
    expect(r.received).toHaveLength(3 * jobs.length);
    expect(new Set(got.map((g) => g.body.id)).size).toBe(3 * jobs.length);
    for (const g of r.received) expect(verifyWebhook(g.raw, g.headers['x-service-signature'] as string, secret)).toMatchObject({ ok: true });
    for (const id of jobs) {
      // In order, too: a webhook's deliveries go one at a time, oldest first, whichever instance sends them.
      const events = r.received.filter((g) => g.body.data.job_id === id).map((g) => g.body.event);
      expect(events, id).toEqual(['job.queued', 'job.running', 'job.succeeded']);
    }
    for (const i of [a, b]) expect(errorLogs(i)).toEqual([]);
  });
});
