// Job ownership across processes sharing a data directory (issue 8): a second server started
// while the first has jobs in flight (the usual restart) leaves them alone; the first finishes and
// charges each once; after a kill -9 the second fails the dead one's jobs only once their lease
// has expired, releasing their holds.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { pollJob } from '../helpers/jobs.js';
import { type Stays, day, startStays, tempDir } from '../helpers/stays.js';

const LEASE_MS = 3000;
const servers: Stays[] = [];
afterAll(async () => {
  for (const s of servers.reverse()) if (s.child.exitCode === null && s.child.signalCode === null) await s.stop('SIGKILL');
});

function readDb<T>(dataDir: string, f: (db: Database.Database) => T): T {
  const db = new Database(join(dataDir, 'stays.db'), { readonly: true });
  try {
    return f(db);
  } finally {
    db.close();
  }
}

const unfinished = (dataDir: string) => readDb(dataDir, (db) => (db.prepare(`SELECT COUNT(*) AS n FROM jobs WHERE status IN ('pending', 'running')`).get() as { n: number }).n);

async function until(what: string, cond: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('two servers on one data directory', () => {
  it('the second leaves the first one’s 20 jobs alone; after kill -9 it fails the dead one’s jobs once their lease expires', async () => {
    const dataDir = tempDir();
    const env = { STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '2500', STAYS_JOB_LEASE_MS: String(LEASE_MS), STAYS_LOG_LEVEL: 'info' };
    const s1 = await startStays(env, dataDir);
    servers.push(s1);
    const acct = await s1.account({ credits: 100_000, rpm: 1000 });
    const price = (i: number) => `/v1/price?platform=airbnb&listingId=${7_100_000 + i}&checkIn=${day(20)}&checkOut=${day(23)}`;

    // 20 callers waiting on their jobs (Prefer: wait), then a second server starts on the same directory.
    const answers = Array.from({ length: 20 }, (_, i) => s1.req(price(i), { key: acct.liveKey, headers: { prefer: 'wait=25' } }));
    await until('20 jobs in flight', () => unfinished(dataDir) === 20);
    const s2 = await startStays(env, dataDir);
    servers.push(s2);

    const responses = await Promise.all(answers);
    const bodies = (await Promise.all(responses.map((r) => r.json()))) as { meta: { creditsCharged: number } }[];
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    const charged = bodies.reduce((a, b) => a + b.meta.creditsCharged, 0);
    expect(charged).toBeGreaterThan(0);
    readDb(dataDir, (db) => {
      expect(db.prepare(`SELECT status, COUNT(*) AS n FROM jobs GROUP BY status`).all()).toEqual([{ status: 'completed', n: 20 }]);
      // Each job charged exactly once, and the ledger equals what the callers were told.
      const charges = db.prepare(`SELECT job_id, COUNT(*) AS n, SUM(amount) AS amount FROM credit_ledger WHERE kind = 'charge' GROUP BY job_id`).all() as { n: number; amount: number }[];
      expect(charges).toHaveLength(20);
      expect(charges.every((c) => c.n === 1)).toBe(true);
      expect(-charges.reduce((a, c) => a + c.amount, 0)).toBe(charged);
      expect(db.prepare('SELECT COUNT(*) AS n FROM credit_holds').get()).toEqual({ n: 0 });
    });
    expect(s1.stdout()).not.toMatch(/"level":(50|60)/);
    expect(s2.stdout()).not.toMatch(/"level":(50|60)/);

    // The first dies with 5 jobs in flight: they stay running (and held) until their lease
    // expires, then the second fails them, retryable, and releases their holds.
    const before = (await (await s2.req('/v1/account', { key: acct.liveKey })).json()) as { data: { credits: { balance: number } } };
    const jobIds: string[] = [];
    for (let i = 20; i < 25; i++) {
      const res = await s1.req(price(i), { key: acct.liveKey });
      expect(res.status).toBe(202);
      jobIds.push(((await res.json()) as { data: { jobId: string } }).data.jobId);
    }
    s1.child.kill('SIGKILL');
    await new Promise((r) => (s1.child.exitCode !== null ? r(null) : s1.child.once('exit', r)));
    for (const id of jobIds) {
      const job = await pollJob(s2, acct.liveKey, id, LEASE_MS * 5);
      expect(job.data).toMatchObject({ status: 'failed', error: { code: 'upstream_degraded', retryable: true } });
      expect(job.meta.creditsCharged).toBe(0);
    }
    readDb(dataDir, (db) => {
      const rows = db.prepare(`SELECT updated_at, lease_expires_at FROM jobs WHERE id IN (${jobIds.map(() => '?').join(',')})`).all(...jobIds) as { updated_at: number; lease_expires_at: number }[];
      // Never before the lease ran out: a live owner is never overtaken.
      for (const r of rows) expect(r.updated_at).toBeGreaterThanOrEqual(r.lease_expires_at);
      expect(db.prepare('SELECT COUNT(*) AS n FROM credit_holds').get()).toEqual({ n: 0 });
    });
    const after = (await (await s2.req('/v1/account', { key: acct.liveKey })).json()) as { data: { credits: { balance: number; held: number } } };
    expect(after.data.credits).toMatchObject({ balance: before.data.credits.balance, held: 0 });
  });
});

describe('retention', () => {
  it('a running server deletes jobs past expires_at (D18: 24 h after they end) and expired cache rows, in batches', async () => {
    const s = await startStays({ STAYS_JOB_LEASE_MS: '1500' });
    servers.push(s);
    const acct = await s.account();
    const now = Date.now();
    const db = new Database(join(s.dataDir, 'stays.db'));
    try {
      const job = db.prepare(
        `INSERT INTO jobs (id, account_id, env, request_id, operation, status, platforms, created_at, updated_at, expires_at) VALUES (?, ?, 'live', 'req', 'price', 'completed', '[]', ?, ?, ?)`,
      );
      const cache = db.prepare(`INSERT INTO cache_entries (key, value, stored_at, expires_at) VALUES (?, '{}', ?, ?)`);
      db.transaction(() => {
        // More than one purge batch of each, so the sweep has to come back for the rest.
        for (let i = 0; i < 1200; i++) {
          job.run(`job_old_${i}`, acct.id, now - 2 * 86_400_000, now - 2 * 86_400_000, now - 86_400_000);
          cache.run(`old_${i}`, now - 86_400_000, now - 1000);
        }
        job.run('job_recent', acct.id, now, now, now + 86_400_000);
        cache.run('fresh', now, now + 3_600_000);
      })();
      const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
      await until('the sweep', () => count(`SELECT COUNT(*) AS n FROM jobs WHERE id LIKE 'job_old_%'`) === 0 && count(`SELECT COUNT(*) AS n FROM cache_entries WHERE key LIKE 'old_%'`) === 0);
      expect(count(`SELECT COUNT(*) AS n FROM jobs WHERE id = 'job_recent'`)).toBe(1);
      expect(count(`SELECT COUNT(*) AS n FROM cache_entries WHERE key = 'fresh'`)).toBe(1);
    } finally {
      db.close();
    }
  });
});
