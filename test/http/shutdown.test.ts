// Graceful shutdown (issue 8): on SIGTERM a server stops accepting, answers `Prefer: wait`
// callers with their job's 202 at once, lets running jobs finish within STAYS_SHUTDOWN_GRACE_MS,
// fails the rest (retryable, holds released, nothing charged) and exits 0.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { day, startStays, tempDir } from '../helpers/stays.js';

const dirs: string[] = [];
afterAll(async () => {
  const { rmSync } = await import('node:fs');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('SIGTERM', () => {
  it('answers waiting callers with 202 at once, finishes what fits in the grace period, fails the rest, exits 0', async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    // airbnb jobs take 4 s, booking jobs 120 s; the grace period is 8 s.
    const s = await startStays({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: 'airbnb=4000,booking=120000,vrbo=10,google=10', STAYS_SHUTDOWN_GRACE_MS: '8000' }, dataDir);
    const acct = await s.account({ credits: 10_000 });
    const stay = `checkIn=${day(30)}&checkOut=${day(32)}`;
    const quick = s.req(`/v1/price?platform=airbnb&listingId=8100001&${stay}`, { key: acct.liveKey, headers: { prefer: 'wait=30' } });
    const slow = s.req(`/v1/price?platform=booking&listingId=pt/slow-house&${stay}`, { key: acct.liveKey, headers: { prefer: 'wait=30' } });
    const db = new Database(join(dataDir, 'stays.db'), { readonly: true });
    try {
      const running = () => (db.prepare(`SELECT COUNT(*) AS n FROM jobs WHERE status = 'running'`).get() as { n: number }).n;
      for (let i = 0; running() < 2; i++) {
        if (i > 400) throw new Error('jobs did not start');
        await new Promise((r) => setTimeout(r, 50));
      }
      const exited = new Promise<number | null>((r) => s.child.once('exit', (code) => r(code)));
      s.child.kill('SIGTERM');

      // Both waiting callers get their job's 202 now, not at the end of their wait.
      const answers = await Promise.all([quick, slow]);
      expect(answers.map((r) => r.status)).toEqual([202, 202]);
      const [q, w] = (await Promise.all(answers.map((r) => r.json()))) as { data: { jobId: string; status: string } }[];
      expect(q!.data.status).toBe('pending');
      expect(answers.every((r) => r.headers.get('connection') === 'close')).toBe(true);

      expect(await exited).toBe(0);
      const job = (id: string) => db.prepare('SELECT status, error FROM jobs WHERE id = ?').get(id) as { status: string; error: string | null };
      // The 4 s job finished inside the grace period and was charged once; the 120 s one was failed.
      expect(job(q!.data.jobId).status).toBe('completed');
      const slowJob = job(w!.data.jobId);
      expect(slowJob.status).toBe('failed');
      expect(JSON.parse(slowJob.error!)).toMatchObject({ code: 'upstream_degraded', retryable: true, message: expect.stringMatching(/shut down/) });
      const charges = db.prepare(`SELECT job_id, amount FROM credit_ledger WHERE kind = 'charge'`).all() as { job_id: string; amount: number }[];
      expect(charges.map((c) => c.job_id)).toEqual([q!.data.jobId]);
      expect(db.prepare('SELECT COUNT(*) AS n FROM credit_holds').get()).toEqual({ n: 0 });
      const balance = db.prepare('SELECT balance, held FROM credit_balances WHERE account_id = ?').get(acct.id);
      expect(balance).toEqual({ balance: 10_000 + charges[0]!.amount, held: 0 });
    } finally {
      db.close();
    }
  });
});
