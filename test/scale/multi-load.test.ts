// Issue 21 (3): 1,000 concurrent live calls from one account over two `stays serve` instances on
// one PostgreSQL database, with a short job lease. Overload is a typed, retryable 503 (never a
// 500); no job is failed as "the process running this job stopped" while both instances live
// (lease renewal has its own connections); at the end nothing is held and the ledger equals the
// sum of the charges the clients were told about.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STOPPED_OWNER } from '../../src/jobs/leases.js';
import { type Answer, type Instance, accountShow, call, liveAccount, sql, startInstance, stopAll } from '../helpers/multi.js';
import { type TestDatabase, freshDatabase, pgAvailable } from '../helpers/pg.js';

const N = 1000;
/** Short enough that a lease not renewed runs out within the test; long enough that a loaded machine renews in time. */
const LEASE_MS = 15_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!(await pgAvailable()))('1,000 concurrent live calls over two instances', { timeout: 300_000 }, () => {
  let db: TestDatabase;
  let a: Instance;
  let b: Instance;
  beforeAll(async () => {
    db = await freshDatabase();
    const env = { STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '200', STAYS_JOB_LEASE_MS: String(LEASE_MS) };
    [a, b] = await Promise.all([startInstance('A', db.url, env), startInstance('B', db.url, env)]);
  });
  afterAll(async () => {
    await stopAll();
    await db?.drop();
  });

  /** GET /v1/jobs/:id until it ends, sitting out typed 503s; every 2 s, as a client keeping to Retry-After would (a thousand pollers at 500 ms were most of the load). */
  async function ended(i: Instance, key: string, jobId: string): Promise<Answer> {
    const until = Date.now() + 180_000;
    for (;;) {
      await sleep(2000);
      const r = await call(i, key, `/v1/jobs/${jobId}`);
      if (r.status === 200 && (r.body.data?.status === 'completed' || r.body.data?.status === 'failed')) return r;
      if (r.status !== 200 && r.status !== 503) throw new Error(`GET /v1/jobs/${jobId}: ${r.status} ${JSON.stringify(r.body)}`);
      if (Date.now() > until) throw new Error(`job ${jobId} did not end`);
    }
  }

  it('no 500, no job failed while its instance lived, nothing held at the end, the ledger exact', async () => {
    const START = 2_000_000;
    const refusals: Answer[] = [];
    const acct = await liveAccount(db.url, { credits: START });
    const answers = await Promise.all(
      Array.from({ length: N }, async (_, n) => {
        const i = n % 2 ? b : a;
        // 100 distinct questions asked ten times each: cache hits, coalesced calls and new jobs.
        const path = `/v1/search?location=${['Lisbon', 'Porto', 'Faro', 'Braga'][n % 4]}&limit=${1 + (n % 25)}`;
        // A refusal (typed 503, Retry-After) is asked again after it, as a client would: on a loaded
        // machine the door refuses many, and every call is still served in the end.
        let first = await call(i, acct.liveKey, path);
        for (let tries = 0; first.status === 503 && tries < 60; tries++) {
          refusals.push(first);
          await sleep(Number(first.headers.get('retry-after') ?? 1) * 1000 * (1 + Math.random()));
          first = await call(i, acct.liveKey, path);
        }
        const final = first.status === 202 ? await ended(n % 2 ? a : b, acct.liveKey, first.body.data!.jobId!) : undefined;
        return { first, final };
      }),
    );
    expect(a.child.exitCode).toBeNull();
    expect(b.child.exitCode).toBeNull();

    let charged = 0;
    const seen = new Map<string, number>();
    for (const { first, final } of answers) {
      const label = `${first.status} ${first.body.error?.code ?? final?.body.data?.status ?? ''}`.trim();
      seen.set(label, (seen.get(label) ?? 0) + 1);
      expect([200, 202, 402, 503], JSON.stringify(first.body)).toContain(first.status);
      if (first.status >= 400) {
        expect(first.body.error!.creditsCharged).toBe(0);
        if (first.status === 503) {
          expect(first.body.error).toMatchObject({ type: 'upstream_unavailable', code: 'service_overloaded', retryable: true });
          expect(Number(first.headers.get('retry-after'))).toBeGreaterThan(0);
        }
        continue;
      }
      if (first.status === 200) charged += first.body.meta!.creditsCharged;
      else if (final!.body.data!.status === 'completed') charged += final!.body.meta!.creditsCharged;
      else {
        // A failed job failed for a reason of its own, never as a dead process's while both lived.
        expect(final!.body.data!.error, JSON.stringify(final!.body)).not.toMatchObject({ message: STOPPED_OWNER.message });
        expect(final!.body.meta!.creditsCharged).toBe(0);
      }
    }
    const reasons = new Map<string, number>();
    for (const { final } of answers)
      if (final?.body.data?.status === 'failed') {
        const k = JSON.stringify(final.body.data.error);
        reasons.set(k, (reasons.get(k) ?? 0) + 1);
      }
    // Every refusal was typed, free and retryable; and every call was served in the end.
    for (const r of refusals) {
      expect(r.body.error).toMatchObject({ type: 'upstream_unavailable', code: 'service_overloaded', retryable: true, creditsCharged: 0 });
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect((seen.get('200') ?? 0) + (seen.get('202 completed') ?? 0), JSON.stringify([...seen, ...reasons])).toBe(N);

    const holds = await sql<{ n: number }>(db.url, `SELECT COUNT(*)::int AS n FROM credit_holds WHERE account_id = $1`, [acct.id]);
    expect(holds[0]!.n).toBe(0);
    const show = await accountShow(db.url, acct.id);
    expect(show.credits).toMatchObject({ balance: START - charged, held: 0, spent: charged });
    const ledger = await sql<{ n: number }>(db.url, `SELECT COALESCE(-SUM(amount), 0)::int AS n FROM credit_ledger WHERE account_id = $1 AND kind = 'charge'`, [acct.id]);
    expect(ledger[0]!.n).toBe(charged);
    const negative = await sql<{ n: number }>(db.url, `SELECT COUNT(*)::int AS n FROM credit_ledger WHERE account_id = $1 AND balance_after < 0`, [acct.id]);
    expect(negative[0]!.n).toBe(0);
  });
});
