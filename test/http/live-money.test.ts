// Credits are money: many concurrent live calls from several keys of one account, then the
// ledger in the real SQLite file must match every creditsCharged returned, to the credit; and a
// server killed mid-job charges nothing for those jobs.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type JobBody, pollJob } from '../helpers/jobs.js';
import { type Stays, day, startStays, tempDir } from '../helpers/stays.js';

const servers: Stays[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
});

const credits = async (s: Stays, key: string) => ((await (await s.req('/v1/account', { key })).json()) as { data: { credits: { balance: number; held: number } } }).data.credits;

describe('concurrency', () => {
  it('200+ concurrent live calls: ledger charges equal the creditsCharged returned; never negative; nothing left held', async () => {
    const s = await startStays({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '30' });
    servers.push(s);
    const acct = await s.account({ credits: 3000, rpm: 1_000_000 });
    const extra = await Promise.all([1, 2].map(() => s.admin<{ key: string }>('key', 'create', '--account', acct.id, '--env', 'live')));
    const keys = [acct.liveKey, ...extra.map((k) => k.key)];
    const paths = [
      '/v1/search?location=Lisbon&limit=3',
      '/v1/search?location=Porto&limit=5&platforms=airbnb,booking',
      `/v1/price?platform=airbnb&listingId=1234567&checkIn=${day(20)}&checkOut=${day(22)}`,
      `/v1/price?platform=vrbo&listingId=404&checkIn=${day(20)}&checkOut=${day(22)}`,
      '/v1/reviews?platform=booking&listingId=pt/casa-azul&limit=10',
      `/v1/availability?platform=vrbo&listingIds=4886746,4886747&startDate=${day(3)}&endDate=${day(33)}`,
      '/v1/listing/vrbo/4886746',
    ];
    const calls = Array.from({ length: 210 }, (_, i) => ({ key: keys[i % keys.length]!, path: paths[i % paths.length]! }));
    const statuses: number[] = [];
    const run = (wave: typeof calls) =>
      Promise.all(
        wave.map(async ({ key, path }) => {
          const res = await s.req(path, { key });
          statuses.push(res.status);
          const body = (await res.json()) as JobBody & { error?: { creditsCharged: number } };
          if (res.status === 200) return body.meta.creditsCharged;
          if (res.status === 202) {
            const job = await pollJob(s, key, body.data.jobId, 60_000);
            return job.data.status === 'completed' ? job.meta.creditsCharged : 0;
          }
          expect(body.error!.creditsCharged).toBe(0);
          expect(res.status).toBe(402); // the only refusal expected: the balance ran out
          return 0;
        }),
      );
    // Two waves of 105 concurrent calls: the first fills the cache (202 jobs, coalesced legs), the
    // second mixes cache hits (200) with jobs and, as the balance runs out, 402 refusals.
    const charged = [...(await run(calls.slice(0, 105))), ...(await run(calls.slice(105)))];
    const total = charged.reduce((a, b) => a + b, 0);
    expect(statuses.filter((x) => x === 202).length).toBeGreaterThan(0);
    expect(statuses.filter((x) => x === 200).length).toBeGreaterThan(0);
    expect(statuses.filter((x) => x === 402).length).toBeGreaterThan(0);
    const after = await credits(s, acct.liveKey);
    expect(after.held).toBe(0);
    expect(after.balance).toBe(3000 - total);

    const db = new Database(join(s.dataDir, 'stays.db'), { readonly: true });
    try {
      const rows = db.prepare(`SELECT kind, amount, balance_after FROM credit_ledger WHERE account_id = ? ORDER BY id`).all(acct.id) as { kind: string; amount: number; balance_after: number }[];
      expect(rows.filter((r) => r.kind === 'charge').reduce((a, r) => a - r.amount, 0)).toBe(total);
      expect(rows.every((r) => r.balance_after >= 0)).toBe(true);
      expect(db.prepare('SELECT COUNT(*) AS n FROM credit_holds').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});

describe('crash', () => {
  it('kill -9 mid-job, restart: once their lease expires those jobs are failed (retryable), every hold released, nothing charged', async () => {
    const dataDir = tempDir();
    const env = { STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '5000', STAYS_JOB_LEASE_MS: '1500' };
    const s1 = await startStays(env, dataDir);
    const acct = await s1.account({ credits: 500 });
    const jobIds: string[] = [];
    for (const path of ['/v1/search?location=Rome&limit=2', `/v1/price?platform=airbnb&listingId=42424242&checkIn=${day(9)}&checkOut=${day(11)}`]) {
      const res = await s1.req(path, { key: acct.liveKey });
      expect(res.status).toBe(202);
      jobIds.push(((await res.json()) as { data: { jobId: string } }).data.jobId);
    }
    expect((await credits(s1, acct.liveKey)).held).toBeGreaterThan(0);
    s1.child.kill('SIGKILL');
    await new Promise((r) => s1.child.once('exit', r));
    // A call killed between its hold and its settlement with no job (a cache hit): its hold too
    // must not outlive the process.
    const db = new Database(join(dataDir, 'stays.db'));
    db.prepare(`INSERT INTO credit_holds (id, account_id, amount, request_id, job_id, created_at) VALUES ('hold_orphan', ?, 7, 'req_x', NULL, 0)`).run(acct.id);
    db.prepare('UPDATE credit_balances SET held = held + 7 WHERE account_id = ?').run(acct.id);
    db.close();

    const s2 = await startStays(env, dataDir);
    servers.push(s2);
    for (const id of jobIds) {
      const job = await pollJob(s2, acct.liveKey, id);
      expect(job.data.status).toBe('failed');
      expect(job.data.error).toMatchObject({ retryable: true });
      expect(job.meta.creditsCharged).toBe(0);
    }
    expect(await credits(s2, acct.liveKey)).toMatchObject({ balance: 500, held: 0 });
  });
});
