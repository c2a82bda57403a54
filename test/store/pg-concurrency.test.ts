// PostgreSQL only, under real concurrency: two store instances on one fresh database act as two
// `stays serve` processes. Credits never overdraw and every charge has its ledger row; a job
// ends exactly once when its owner and another instance's sweep race; two instances never claim
// one webhook delivery.
import { afterEach, describe, expect, it } from 'vitest';
import type { LedgerEntry, Store } from '../../src/core/ports/store.js';
import { addAccount, backings, pgKind, T0 } from './stores.js';

/** A small deterministic generator, so a failure can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s % n;
  };
}

/** Each ledger row's balance follows from the one before it (the rows are in commit order per account). */
function expectChained(ledger: LedgerEntry[]) {
  let balance = 0;
  for (const l of ledger) {
    balance += l.amount;
    expect(l.balanceAfter, `ledger row ${l.id}`).toBe(balance);
    expect(l.balanceAfter, `ledger row ${l.id}`).toBeGreaterThanOrEqual(0);
  }
  return balance;
}

const FAILED = { type: 'upstream_unavailable', code: 'upstream_degraded', message: 'lease expired', retryable: true };

// Hundreds of concurrent transactions: a generous bound for a busy machine, not a measurement.
describe.skipIf(!pgKind.available)('PostgreSQL under concurrency', { timeout: 120_000 }, () => {
  const dbs = backings(pgKind);
  afterEach(() => dbs.cleanup());

  async function two(): Promise<[Store, Store]> {
    const db = await dbs.fresh();
    const a = db.open();
    const b = db.open();
    await Promise.all([a.ready(), b.ready()]);
    return [a, b];
  }

  it('300 concurrent holds and settlements over two instances never overdraw; charges, balance and ledger agree', async () => {
    const [a, b] = await two();
    await addAccount(a, 'acct_1', 1000);
    const next = rng(1);
    const plan = Array.from({ length: 300 }, (_, i) => {
      const amount = 1 + next(20);
      return { i, amount, charge: next(amount + 1) };
    });
    // More is asked than the balance covers, so some holds must be refused.
    expect(plan.reduce((x, p) => x + p.charge, 0)).toBeGreaterThan(1000);
    const seen: number[] = [];
    let refused = 0;
    const results = await Promise.all(
      plan.map(async ({ i, amount, charge }) => {
        const s = i % 2 === 0 ? a : b;
        const lease = { owner: i % 2 === 0 ? 'inst_a' : 'inst_b', expiresAt: T0 + 60_000 };
        const h = await s.hold({ id: `hold_${i}`, accountId: 'acct_1', amount, requestId: `req_${i}`, jobId: null, at: T0, freeTierBudget: null, lease });
        seen.push(h.credits.balance - h.credits.held);
        if (!h.ok) {
          expect(h.reason).toBe('balance');
          refused++;
          return 0;
        }
        const after = await s.settleHold(`hold_${i}`, charge, { requestId: `req_${i}`, jobId: null, at: T0 + 1 });
        expect(after).not.toBeNull();
        seen.push(after!.balance - after!.held);
        return charge;
      }),
    );
    // What the balance minus holds was, as each call saw it: never below zero.
    expect(Math.min(...seen)).toBeGreaterThanOrEqual(0);
    const charged = results.reduce((x, y) => x + y, 0);
    const credits = await b.getCredits('acct_1');
    expect(credits).toEqual({ balance: 1000 - charged, held: 0, spent: charged, expiringSoon: 0 });
    const ledger = await a.ledger('acct_1');
    expect(expectChained(ledger)).toBe(credits.balance);
    const charges = ledger.filter((l) => l.kind === 'charge');
    expect(charges.reduce((x, l) => x - l.amount, 0)).toBe(charged);
    // One row per settlement that charged something, each naming its request.
    expect(charges.map((l) => l.requestId).sort()).toEqual(
      plan
        .filter((_p, k) => results[k]! > 0)
        .map((p) => `req_${p.i}`)
        .sort(),
    );
    expect(refused).toBeGreaterThan(0);
  });

  it('the free-tier budget holds across instances: lifetime spend never passes it', async () => {
    const [a, b] = await two();
    await addAccount(a, 'acct_f', 10_000, { planCode: 'free', planName: 'Free', freeTierBudget: 200 });
    const next = rng(2);
    let refused = 0;
    const charged = await Promise.all(
      Array.from({ length: 300 }, async (_, i) => {
        const s = i % 2 === 0 ? a : b;
        const amount = 1 + next(10);
        const h = await s.hold({ id: `hold_${i}`, accountId: 'acct_f', amount, requestId: `req_${i}`, jobId: null, at: T0, freeTierBudget: 200, lease: { owner: 'x', expiresAt: T0 + 60_000 } });
        expect(h.credits.spent + h.credits.held).toBeLessThanOrEqual(200);
        if (!h.ok) {
          expect(h.reason).toBe('free_tier');
          refused++;
          return 0;
        }
        await s.settleHold(`hold_${i}`, amount, { requestId: `req_${i}`, jobId: null, at: T0 + 1 });
        return amount;
      }),
    );
    const total = charged.reduce((x, y) => x + y, 0);
    expect(refused).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(200);
    expect(await a.getCredits('acct_f')).toEqual({ balance: 10_000 - total, held: 0, spent: total, expiringSoon: 0 });
    expect(expectChained(await b.ledger('acct_f'))).toBe(10_000 - total);
  });

  it('a job’s owner finishing it races another instance’s sweep of its expired lease: exactly one wins, charged at most once', async () => {
    const [a, b] = await two();
    await addAccount(a, 'acct_1', 10_000);
    const N = 40;
    const ids = Array.from({ length: N }, (_, i) => `job_${String(i).padStart(3, '0')}`);
    for (const id of ids) {
      const lease = { owner: 'inst_a', expiresAt: T0 + 1000 };
      expect((await a.hold({ id: `hold_${id}`, accountId: 'acct_1', amount: 30, requestId: `req_${id}`, jobId: id, at: T0, freeTierBudget: null, lease })).ok).toBe(true);
      await a.createJob({ id, accountId: 'acct_1', env: 'live', requestId: `req_${id}`, operation: 'price', platforms: ['airbnb'], estimatedSeconds: 1, createdAt: T0, lease });
      expect(await a.startJob(id, 'inst_a', T0)).toBe(true);
    }
    // Every job's lease has expired; the owner, late, finishes each while b sweeps, all at once.
    const finishes = ids.map((id) =>
      a.finishJob({
        jobId: id,
        owner: 'inst_a',
        holdId: `hold_${id}`,
        charge: 7,
        requestId: `req_${id}`,
        status: 'completed',
        result: { id },
        meta: { creditsCharged: 7 },
        at: T0 + 1500,
        expiresAt: T0 + 90_000_000,
      }),
    );
    const sweeps = Array.from({ length: 8 }, () => b.failExpired(FAILED, T0 + 1000, T0 + 90_000_000));
    const finished = await Promise.all(finishes);
    const swept = (await Promise.all(sweeps)).flatMap((s) => s.jobs);
    expect(new Set(swept).size).toBe(swept.length);
    const won = ids.filter((_, i) => finished[i]);
    expect([...won, ...swept].sort()).toEqual(ids);
    for (const id of ids) {
      const job = await b.getJob(id);
      expect(job).toMatchObject(won.includes(id) ? { status: 'completed', result: { id }, owner: null } : { status: 'failed', error: FAILED, result: null, owner: null });
    }
    const charges = (await a.ledger('acct_1')).filter((l) => l.kind === 'charge');
    expect(charges.map((l) => l.jobId).sort()).toEqual(won);
    expect(await b.getCredits('acct_1')).toEqual({ balance: 10_000 - 7 * won.length, held: 0, spent: 7 * won.length, expiringSoon: 0 });
  });

  it('renewed leases keep jobs from another instance’s sweep; abandon fails only the caller’s work', async () => {
    const [a, b] = await two();
    await addAccount(a, 'acct_1', 1000);
    const start = async (s: Store, id: string, owner: string) => {
      const lease = { owner, expiresAt: T0 + 1000 };
      await s.hold({ id: `hold_${id}`, accountId: 'acct_1', amount: 50, requestId: `req_${id}`, jobId: id, at: T0, freeTierBudget: null, lease });
      await s.createJob({ id, accountId: 'acct_1', env: 'live', requestId: `req_${id}`, operation: 'price', platforms: ['airbnb'], estimatedSeconds: 1, createdAt: T0, lease });
    };
    await start(a, 'job_a1', 'inst_a');
    await start(a, 'job_a2', 'inst_a');
    await start(b, 'job_b1', 'inst_b');
    await a.hold({ id: 'hold_loose', accountId: 'acct_1', amount: 5, requestId: 'req_l', jobId: null, at: T0, freeTierBudget: null, lease: { owner: 'inst_a', expiresAt: T0 + 1000 } });
    // Each heartbeat runs while the other instance sweeps.
    await Promise.all([
      a.renewLeases('inst_a', T0 + 5000, { jobs: ['job_a1', 'job_a2'], holds: ['hold_job_a1', 'hold_job_a2', 'hold_loose'], flights: [] }),
      b.renewLeases('inst_b', T0 + 5000, { jobs: ['job_b1'], holds: ['hold_job_b1'], flights: [] }),
    ]);
    expect(await b.failExpired(FAILED, T0 + 4000, T0 + 90_000_000)).toEqual({ jobs: [], holds: 0 });
    expect(await b.getCredits('acct_1')).toMatchObject({ held: 155 });
    expect((await b.getJob('job_a1'))!.leaseExpiresAt).toBe(T0 + 5000);

    const [gone, sweep] = await Promise.all([a.abandon('inst_a', FAILED, T0 + 4100, T0 + 90_000_000), b.failExpired(FAILED, T0 + 4100, T0 + 90_000_000)]);
    expect(sweep).toEqual({ jobs: [], holds: 0 });
    expect(gone.jobs.sort()).toEqual(['job_a1', 'job_a2']);
    expect(gone.holds).toBe(3);
    expect(await b.getJob('job_b1')).toMatchObject({ status: 'pending', owner: 'inst_b' });
    expect(await a.getCredits('acct_1')).toEqual({ balance: 1000, held: 50, spent: 0, expiringSoon: 0 });
    expect(
      await b.finishJob({
        jobId: 'job_b1',
        owner: 'inst_b',
        holdId: 'hold_job_b1',
        charge: 10,
        requestId: 'req_job_b1',
        status: 'completed',
        result: [],
        meta: {},
        at: T0 + 4200,
        expiresAt: T0 + 90_000_000,
      }),
    ).toBe(true);
    expect(await a.getCredits('acct_1')).toEqual({ balance: 990, held: 0, spent: 10, expiringSoon: 0 });
  });

  it('two instances claiming deliveries at once never claim one twice', async () => {
    const [a, b] = await two();
    await addAccount(a, 'acct_1', 0);
    for (let w = 0; w < 10; w++) {
      await a.createWebhook({
        id: `wh_${w}`,
        accountId: 'acct_1',
        env: 'live' as const,
        url: `http://127.0.0.1:9/${w}`,
        events: ['job.succeeded'],
        description: null,
        secretEnc: 'v1.x',
        createdAt: T0,
      });
    }
    const all = Array.from({ length: 300 }, (_, i) => ({ id: `evt_${String(i).padStart(3, '0')}`, webhookId: `wh_${i % 10}`, event: 'job.succeeded' as const, body: '{}', createdAt: T0 + (i % 7) }));
    await a.enqueueDeliveries(all);
    const claimed: string[][] = [[], [], [], []];
    // Four claimers (two per instance), each claiming small batches until nothing is left.
    await Promise.all(
      claimed.map(async (mine, k) => {
        const s = k % 2 === 0 ? a : b;
        for (;;) {
          const got = await s.claimDeliveries(`inst_${k}`, T0 + 10, T0 + 600_000, 7);
          if (got.length === 0) return;
          mine.push(...got.map((d) => d.id));
        }
      }),
    );
    const flat = claimed.flat();
    expect(flat.length).toBe(all.length);
    expect(new Set(flat).size).toBe(all.length);
    // More than one claimer got work: the claims really overlapped.
    expect(claimed.filter((c) => c.length > 0).length).toBeGreaterThan(1);
  });

  it('onePerWebhook claims from two instances: one delivery of a webhook in flight at a time, in queue order', async () => {
    const [a, b] = await two();
    await addAccount(a, 'acct_1', 0);
    for (let w = 0; w < 5; w++) {
      await a.createWebhook({
        id: `wh_${w}`,
        accountId: 'acct_1',
        env: 'live' as const,
        url: `http://127.0.0.1:9/${w}`,
        events: ['job.succeeded'],
        description: null,
        secretEnc: 'v1.x',
        createdAt: T0,
      });
    }
    const all = Array.from({ length: 100 }, (_, i) => ({ id: `evt_${String(i).padStart(3, '0')}`, webhookId: `wh_${i % 5}`, event: 'job.succeeded' as const, body: '{}', createdAt: T0 }));
    await a.enqueueDeliveries(all);
    const inFlight = new Set<string>();
    const order = new Map<string, string[]>();
    const violations: string[] = [];
    await Promise.all(
      [0, 1, 2, 3].map(async (k) => {
        const s = k % 2 === 0 ? a : b;
        const owner = `inst_${k}`;
        for (let idle = 0; idle < 3; ) {
          const got = await s.claimDeliveries(owner, T0 + 10, T0 + 600_000, 3, { onePerWebhook: true });
          if (got.length === 0) {
            // Others may still hold the last deliveries of a webhook: look again a few times.
            idle++;
            await new Promise((r) => setTimeout(r, 20));
            continue;
          }
          idle = 0;
          if (new Set(got.map((d) => d.webhookId)).size !== got.length) violations.push(`two of one webhook in one claim: ${got.map((d) => d.id)}`);
          for (const d of got) {
            if (inFlight.has(d.webhookId)) violations.push(`${d.id}: ${d.webhookId} already in flight`);
            inFlight.add(d.webhookId);
            order.set(d.webhookId, [...(order.get(d.webhookId) ?? []), d.id]);
          }
          for (const d of got) {
            // Out of flight before the record commits: a claim can only see it free after that.
            inFlight.delete(d.webhookId);
            expect(await s.recordAttempt({ deliveryId: d.id, owner, attempt: 1, statusCode: 200, responsePreview: '', delivered: true, at: T0 + 11, retryAt: null })).toBe(true);
          }
        }
      }),
    );
    expect(violations).toEqual([]);
    expect(await a.pendingDeliveries(all.map((d) => d.id))).toEqual([]);
    for (let w = 0; w < 5; w++) expect(order.get(`wh_${w}`)).toEqual(all.filter((d) => d.webhookId === `wh_${w}`).map((d) => d.id));
  });
});
