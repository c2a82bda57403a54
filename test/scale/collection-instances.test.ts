// Issue 38, item 5: two `stays serve` instances on one PostgreSQL database share a collection's
// pass (each claims items the other does not), one is killed with SIGKILL mid-pass, and once its
// items' leases run out the other makes them: every item ends once, no call is charged twice (its
// request id derives from its item), and the ledger equals what the items were charged, to the
// credit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Instance, accountShow, call, liveAccount, sql, startInstance, stopAll } from '../helpers/multi.js';
import { type TestDatabase, freshDatabase, pgAvailable } from '../helpers/pg.js';

const LEASE_MS = 10_000;
const BOX = [-40.0, 40.0, -39.95, 40.05];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const post = (body: unknown): RequestInit => ({ method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

describe.skipIf(!(await pgAvailable()))('a collection pass over two instances, one killed', { timeout: 300_000 }, () => {
  let db: TestDatabase;
  let a: Instance;
  let b: Instance;
  beforeAll(async () => {
    db = await freshDatabase();
    const env = { STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '150', STAYS_JOB_LEASE_MS: String(LEASE_MS) };
    [a, b] = await Promise.all([startInstance('A', db.url, env), startInstance('B', db.url, env)]);
  });
  afterAll(async () => {
    await stopAll();
    await db?.drop();
  });

  it('both claim items; after a kill -9 the rest is made by the other once the leases run out; nothing done or billed twice', async () => {
    const START = 1_000_000;
    const acct = await liveAccount(db.url, { credits: START });
    const made = await call(a, acct.liveKey, '/v1/collections', post({ name: 'q', bbox: BOX.join(','), platforms: 'vrbo', horizonNights: 30, maxCreditsPerDay: 900_000 }));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = (made.body.data as unknown as { id: string }).id;

    // Both make the pass at once.
    const runA = call(a, acct.liveKey, '/v1/collections/run', post({}));
    const runB = call(b, acct.liveKey, '/v1/collections/run', post({})).catch((e: Error) => e);
    // Once each holds tracking items, B dies.
    const holders = async () =>
      sql<{ owner: string; n: number }>(
        db.url,
        `SELECT claimed_by AS owner, COUNT(*)::int AS n FROM collection_items WHERE collection_id = $1 AND item LIKE 'track:%' AND done_at IS NULL AND claimed_by IS NOT NULL GROUP BY claimed_by`,
        [id],
      );
    const until = Date.now() + 120_000;
    for (;;) {
      const done = await sql<{ n: number }>(db.url, `SELECT COUNT(*)::int AS n FROM collection_items WHERE collection_id = $1 AND item LIKE 'track:%' AND done_at IS NOT NULL`, [id]);
      if ((await holders()).length === 2 && done[0]!.n >= 10) break;
      if (Date.now() > until) throw new Error('the two instances never both held tracking items');
      await sleep(50);
    }
    b.child.kill('SIGKILL');
    expect(await runB).toBeInstanceOf(Error);
    const first = await runA;
    expect(first.status, JSON.stringify(first.body)).toBe(200);

    // B's items come back once their lease ran out: A makes them on the next run.
    let runs = 0;
    for (;;) {
      const open = await sql<{ n: number }>(db.url, `SELECT COUNT(*)::int AS n FROM collection_items WHERE collection_id = $1 AND done_at IS NULL`, [id]);
      if (open[0]!.n === 0) break;
      expect(runs++).toBeLessThan(10);
      await sleep(LEASE_MS);
      const again = await call(a, acct.liveKey, '/v1/collections/run', post({}));
      expect(again.status, JSON.stringify(again.body)).toBe(200);
    }

    const items = await sql<{ item: string; outcome: string; charged: number; attempts: number }>(db.url, `SELECT item, outcome, charged, attempts FROM collection_items WHERE collection_id = $1`, [
      id,
    ]);
    expect(items.filter((i) => i.outcome !== 'done')).toEqual([]);
    // Some items were taken again after the kill.
    expect(items.some((i) => i.attempts > 1)).toBe(true);
    // No call charged twice: each request id has one charge.
    const twice = await sql(db.url, `SELECT request_id, COUNT(*)::int AS n FROM credit_ledger WHERE account_id = $1 AND kind = 'charge' GROUP BY request_id HAVING COUNT(*) > 1`, [acct.id]);
    expect(twice).toEqual([]);
    // The ledger is what the items were charged, to the credit, and nothing is held.
    const itemsCharged = items.reduce((n, i) => n + Number(i.charged), 0);
    const show = await accountShow(db.url, acct.id);
    expect(show.credits).toMatchObject({ balance: START - itemsCharged, held: 0, spent: itemsCharged });
  });
});
