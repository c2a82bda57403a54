// Issue 14, money and limits across two `stays serve` instances on one PostgreSQL database:
// 300 concurrent live calls from one account spread over both instances leave an exact ledger
// (every credit charged is one an answer reported, none held, never negative, every refusal a
// typed 402 that charged nothing), and a per-key bucket of N requests per minute admits N across
// both instances, not N per instance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, type Instance, accountShow, admin, call, day, errorLogs, liveAccount, pollUntilDone, sql, startInstance, stopAll } from '../helpers/multi.js';
import { type TestDatabase, freshDatabase, pgAvailable } from '../helpers/pg.js';

const TOPUP_CAP = 1000;

describe.skipIf(!(await pgAvailable()))('money and limits across two instances', { timeout: 180_000 }, () => {
  let db: TestDatabase;
  let a: Instance;
  let b: Instance;
  beforeAll(async () => {
    db = await freshDatabase();
    const env = { STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '30', STAYS_TOPUP_MAX_PER_DAY: String(TOPUP_CAP) };
    [a, b] = await Promise.all([startInstance('A', db.url, env), startInstance('B', db.url, env)]);
  });
  afterAll(async () => {
    await stopAll();
    await db?.drop();
  });

  const PATHS = [
    '/v1/search?location=Lisbon&limit=3',
    '/v1/search?location=Porto&limit=5&platforms=airbnb,booking',
    `/v1/price?platform=airbnb&listingId=1234567&checkIn=${day(20)}&checkOut=${day(22)}`,
    `/v1/price?platform=vrbo&listingId=404&checkIn=${day(20)}&checkOut=${day(22)}`,
    '/v1/reviews?platform=booking&listingId=pt/casa-azul&limit=10',
    `/v1/availability?platform=vrbo&listingIds=4886746,4886747&startDate=${day(3)}&endDate=${day(33)}`,
    '/v1/listing/vrbo/4886746',
    '/v1/search?location=Faro&limit=4',
    `/v1/price?platform=booking&listingId=pt/casa-azul&checkIn=${day(30)}&checkOut=${day(33)}`,
    '/v1/listing/airbnb/7654321',
  ];
  /** Warmed before the burst, so the burst meets them in the cache. */
  const WARM = PATHS.slice(0, 3);

  it('300 concurrent live calls from one account over both instances: the ledger is exact, nothing held, never negative, refusals are free 402s', async () => {
    const START = 2500; // about 60% of what the calls would cost (4339 credits): the balance runs out part-way
    const acct = await liveAccount(db.url, { credits: START });
    const answers: { on: string; first: Answer; final: Answer }[] = [];
    const one = async (i: Instance, poller: Instance, path: string) => {
      const first = await call(i, acct.liveKey, path);
      // A job is polled through the other instance: its outcome is shared state.
      const final = first.status === 202 ? await pollUntilDone(poller, acct.liveKey, first.body.data!.jobId!, 120_000) : first;
      answers.push({ on: i.name, first, final });
    };
    for (const [n, path] of WARM.entries()) await one(n % 2 ? b : a, n % 2 ? a : b, path);
    await Promise.all(Array.from({ length: 300 }, (_, n) => (n % 2 ? one(b, a, PATHS[n % PATHS.length]!) : one(a, b, PATHS[n % PATHS.length]!))));

    let charged = 0;
    const seen = new Map<number, number>();
    for (const { first, final } of answers) {
      seen.set(first.status, (seen.get(first.status) ?? 0) + 1);
      expect([200, 202, 402], JSON.stringify(first.body)).toContain(first.status);
      if (first.status === 402) {
        expect(first.body.error).toMatchObject({ type: 'insufficient_credits', code: 'credit_balance_too_low', creditsCharged: 0 });
        continue;
      }
      if (first.status === 200) {
        charged += first.body.meta!.creditsCharged;
        continue;
      }
      // A job: completed (charged what its meta says) or failed (charged nothing).
      if (final.body.data!.status === 'completed') charged += final.body.meta!.creditsCharged;
      else expect(final.body.meta!.creditsCharged).toBe(0);
    }
    // The burst met the cache, started jobs, and ran out of credits part-way, on both instances.
    expect(seen.get(200) ?? 0).toBeGreaterThan(0);
    expect(seen.get(202) ?? 0).toBeGreaterThan(0);
    expect(seen.get(402) ?? 0).toBeGreaterThan(0);
    for (const name of ['A', 'B']) expect(answers.filter((x) => x.on === name && x.first.status !== 402).length).toBeGreaterThan(0);

    const show = await accountShow(db.url, acct.id);
    expect(show.credits).toMatchObject({ balance: START - charged, held: 0, spent: charged });
    const ledger = await sql<{ kind: string; amount: number; balance_after: number }>(db.url, 'SELECT kind, amount::int, balance_after::int FROM credit_ledger WHERE account_id = $1 ORDER BY id', [
      acct.id,
    ]);
    expect(ledger.filter((r) => r.kind === 'charge').reduce((n, r) => n - r.amount, 0)).toBe(charged);
    expect(ledger.reduce((n, r) => n + r.amount, 0)).toBe(START - charged);
    expect(ledger.filter((r) => r.balance_after < 0)).toEqual([]);
    expect(await sql(db.url, 'SELECT id FROM credit_holds WHERE account_id = $1', [acct.id])).toEqual([]);
    // Each job charged at most once, and no job is both completed and failed.
    const perJob = await sql<{ job_id: string; n: number }>(
      db.url,
      `SELECT job_id, COUNT(*)::int AS n FROM credit_ledger WHERE account_id = $1 AND kind = 'charge' AND job_id IS NOT NULL GROUP BY job_id HAVING COUNT(*) > 1`,
      [acct.id],
    );
    expect(perJob).toEqual([]);
    for (const i of [a, b]) expect(errorLogs(i)).toEqual([]);
  });

  it('a per-key bucket of N requests per minute admits N across both instances (not 2N); the rest are 429 with Retry-After', async () => {
    const N = 20;
    const acct = await liveAccount(db.url, { credits: 100, rpm: N });
    const t0 = Date.now();
    const answers = await Promise.all(Array.from({ length: 3 * N }, (_, n) => call(n % 2 ? b : a, acct.liveKey, '/v1/account')));
    const elapsed = Date.now() - t0;
    const ok = answers.filter((r) => r.status === 200);
    const limited = answers.filter((r) => r.status === 429);
    expect(ok.length + limited.length).toBe(3 * N);
    // The bucket refills one token per 60/N s: N, plus whatever refilled while the burst ran
    // (nothing when it takes under 3 s); per-instance buckets would admit up to 2N.
    expect(ok.length).toBeGreaterThanOrEqual(N);
    expect(ok.length).toBeLessThanOrEqual(N + Math.floor(elapsed / (60_000 / N)));
    for (const r of limited) {
      expect(r.body.error).toMatchObject({ type: 'rate_limited', code: 'rate_limit_exceeded' });
      expect(r.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      // A token comes back every 60/N s, so never more than that to wait.
      expect(Number(r.headers.get('retry-after'))).toBeLessThanOrEqual(Math.ceil(60 / N));
    }
  });

  it('concurrent live top-ups over both instances stop at the daily cap: exactly cap credits minted, the rest 403 topup_limit_exceeded', async () => {
    const acct = await admin<{ id: string }>(db.url, 'account', 'create', '--plan', 'pro', '--credits', '50', '--rpm', '1000000');
    const key = await admin<{ key: string }>(db.url, 'key', 'create', '--account', acct.id, '--env', 'live', '--scopes', 'stays.read,account.read,billing.write');
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        call(n % 2 ? b : a, key.key, '/v1/billing/topups', { method: 'POST', body: JSON.stringify({ credits: 100 }), headers: { 'content-type': 'application/json' } }),
      ),
    );
    const ok = answers.filter((r) => r.status === 200);
    expect(ok).toHaveLength(TOPUP_CAP / 100);
    for (const r of answers.filter((x) => x.status !== 200)) {
      expect(r.status, JSON.stringify(r.body)).toBe(403);
      expect(r.body.error).toMatchObject({ code: 'topup_limit_exceeded' });
    }
    const show = await accountShow(db.url, acct.id);
    expect(show.credits).toMatchObject({ balance: 50 + TOPUP_CAP, held: 0 });
    const rows = await sql<{ amount: number; balance_after: number }>(db.url, `SELECT amount::int, balance_after::int FROM credit_ledger WHERE account_id = $1 AND kind = 'topup' ORDER BY id`, [
      acct.id,
    ]);
    expect(rows.map((r) => r.balance_after)).toEqual(rows.map((_, n) => 50 + 100 * (n + 1)));
  });

  it('credits granted with `stays admin credits grant` are usable at once on both instances (credits are never cached)', async () => {
    const acct = await liveAccount(db.url, { credits: 1 });
    const path = '/v1/search?location=Viseu&limit=2';
    for (const i of [a, b]) {
      const r = await call(i, acct.liveKey, path);
      expect(r.status, JSON.stringify(r.body)).toBe(402);
      expect(r.body.error).toMatchObject({ code: 'credit_balance_too_low', creditsCharged: 0 });
    }
    await admin(db.url, 'credits', 'grant', '--account', acct.id, '--credits', '1000');
    let charged = 0;
    for (const i of [b, a]) {
      const r = await call(i, acct.liveKey, path);
      expect([200, 202], JSON.stringify(r.body)).toContain(r.status);
      const done = r.status === 202 ? await pollUntilDone(i, acct.liveKey, r.body.data!.jobId!) : r;
      charged += done.body.meta!.creditsCharged;
    }
    expect((await accountShow(db.url, acct.id)).credits).toMatchObject({ balance: 1001 - charged, held: 0 });
  });
});
