// Issue 14, D19 across instances: two identical live calls, one on each of two `stays serve`
// instances over one PostgreSQL database, share one upstream call (the fake scraping platform
// counts the actor's runs: one, not two), and each caller is billed as for its own call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTORS, FIXTURES, IDS } from '../fakes/apify/fixtures.js';
import { type ApifyFake, startApifyFake } from '../fakes/apify/server.js';
import { type Instance, accountShow, call, day, errorLogs, liveAccount, pollUntilDone, startInstance, stopAll } from '../helpers/multi.js';
import { type TestDatabase, freshDatabase, pgAvailable } from '../helpers/pg.js';
import { actorsSetting } from '../sources/apify/helpers.js';

describe.skipIf(!(await pgAvailable()))('upstream coalescing across instances (D19)', { timeout: 180_000 }, () => {
  let db: TestDatabase;
  let fake: ApifyFake;
  let a: Instance;
  let b: Instance;
  beforeAll(async () => {
    db = await freshDatabase();
    fake = await startApifyFake({ syncLimitMs: 20_000 });
    const env = {
      STAYS_UPSTREAM: 'apify',
      STAYS_APIFY_TOKEN: fake.token,
      STAYS_APIFY_BASE_URL: fake.url,
      STAYS_APIFY_RETRIES: '0',
      STAYS_ACTORS: actorsSetting(),
      STAYS_JOB_LEASE_MS: '1500',
    };
    [a, b] = await Promise.all([startInstance('A', db.url, env), startInstance('B', db.url, env)]);
  });
  afterAll(async () => {
    await stopAll();
    await fake?.close();
    await db?.drop();
  });

  it('the same question on A and on B at once: one actor run, and each caller billed for its own call', async () => {
    const actor = ACTORS.airbnb.price!;
    // A slow run (3 s), so the second call arrives while the first is still upstream.
    fake.script(actor, { kind: 'items', items: FIXTURES.airbnb.price!.normal, runMs: 3000 });
    const runs = () => fake.calls.filter((c) => c.actor === actor && c.method === 'POST').length;
    expect(runs()).toBe(0);
    const START = 1000;
    const [x, y] = await Promise.all([liveAccount(db.url, { credits: START }), liveAccount(db.url, { credits: START })]);
    const path = `/v1/price?platform=airbnb&listingId=${IDS.airbnb}&checkIn=${day(40)}&checkOut=${day(42)}`;
    const ask = async (i: Instance, key: string) => {
      const first = await call(i, key, path);
      expect([200, 202], JSON.stringify(first.body)).toContain(first.status);
      return first.status === 202 ? pollUntilDone(i, key, first.body.data!.jobId!, 60_000) : first;
    };
    const [onA, onB] = await Promise.all([ask(a, x.liveKey), ask(b, y.liveKey)]);
    for (const r of [onA, onB]) {
      if (r.body.data!.status !== undefined) expect(r.body.data!.status, JSON.stringify(r.body)).toBe('completed');
      expect(r.body.meta!.creditsCharged).toBeGreaterThan(0);
    }
    // One upstream call served both (a second caller meets the flight or, later, the cache).
    expect(runs()).toBe(1);
    const result = (r: typeof onA) => (r.body.data!.status === 'completed' ? r.body.data!.result : r.body.data);
    expect(result(onB)).toEqual(result(onA));
    // Each caller pays as for its own call.
    expect(onB.body.meta!.creditsCharged).toBe(onA.body.meta!.creditsCharged);
    expect((await accountShow(db.url, x.id)).credits).toMatchObject({ balance: START - onA.body.meta!.creditsCharged, held: 0 });
    expect((await accountShow(db.url, y.id)).credits).toMatchObject({ balance: START - onB.body.meta!.creditsCharged, held: 0 });
    for (const i of [a, b]) expect(errorLogs(i)).toEqual([]);
  });

  it("the instance leading a flight dies: once the flight's lease expires the waiting instance asks the upstream itself; its caller is served and billed, the dead one's caller is not billed", async () => {
    const actor = ACTORS.airbnb.price!;
    fake.script(actor, { kind: 'items', items: FIXTURES.airbnb.price!.normal, runMs: 60_000 });
    const runs = () => fake.calls.filter((c) => c.actor === actor && c.method === 'POST').length;
    const before = runs();
    const START = 1000;
    const [x, y] = await Promise.all([liveAccount(db.url, { credits: START }), liveAccount(db.url, { credits: START })]);
    const path = `/v1/price?platform=airbnb&listingId=${IDS.airbnb}&checkIn=${day(50)}&checkOut=${day(52)}`;
    // A leads: its job's upstream run has started (and runs a minute).
    const onA = await call(a, x.liveKey, path);
    expect(onA.status, JSON.stringify(onA.body)).toBe(202);
    for (let n = 0; runs() === before; n++) {
      if (n > 600) throw new Error('A never asked the upstream');
      await new Promise((r) => setTimeout(r, 50));
    }
    // B asks the same question: it waits on A's flight, then (A killed) takes it over.
    fake.script(actor, { kind: 'items', items: FIXTURES.airbnb.price!.normal, runMs: 200 });
    const onB = await call(b, y.liveKey, path);
    expect(onB.status, JSON.stringify(onB.body)).toBe(202);
    a.child.kill('SIGKILL');
    await new Promise((r) => (a.child.exitCode !== null || a.child.signalCode !== null ? r(null) : a.child.once('exit', r)));

    const jobB = await pollUntilDone(b, y.liveKey, onB.body.data!.jobId!, 60_000);
    expect(jobB.body.data!.status, JSON.stringify(jobB.body)).toBe('completed');
    expect(jobB.body.meta!.creditsCharged).toBeGreaterThan(0);
    const jobA = await pollUntilDone(b, x.liveKey, onA.body.data!.jobId!, 60_000);
    expect(jobA.body.data!.status, JSON.stringify(jobA.body)).toBe('failed');
    expect(jobA.body.data!.error).toMatchObject({ retryable: true });
    expect(runs()).toBe(before + 2);
    expect((await accountShow(db.url, x.id)).credits).toMatchObject({ balance: START, held: 0 });
    expect((await accountShow(db.url, y.id)).credits).toMatchObject({ balance: START - jobB.body.meta!.creditsCharged, held: 0 });
    expect(errorLogs(b)).toEqual([]);
  });
});
