// The store port's ownership rules on the real SQLite file (issue 8): leases, conditional
// settlement, expiry of abandoned work, bounded purges, private file modes.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import type { Store } from '../../src/store/types.js';
import { tempDir } from '../helpers/stays.js';

const T0 = 1_800_000_000_000;
const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

async function setup(file = join(tempDir(), 'data', 'stays.db')) {
  const store = openSqliteStore(file);
  stores.push(store);
  await store.createAccount(
    { id: 'acct_1', planCode: 'pro', planName: 'Pro', planStatus: 'active', emailVerified: true, requestsPerMinute: 300, freeTierBudget: 300, createdAt: T0 },
    1000,
    null,
  );
  return { store, file };
}

async function startJob(store: Store, id: string, owner: string, leaseUntil: number, amount = 40) {
  const lease = { owner, expiresAt: leaseUntil };
  const held = await store.hold({ id: `hold_${id}`, accountId: 'acct_1', amount, requestId: `req_${id}`, jobId: id, at: T0, freeTierBudget: null, lease });
  expect(held.ok).toBe(true);
  await store.createJob({ id, accountId: 'acct_1', env: 'live', requestId: `req_${id}`, operation: 'price', platforms: ['airbnb'], estimatedSeconds: 2, createdAt: T0, lease });
  expect(await store.startJob(id, owner, T0)).toBe(true);
}

const end = (id: string, owner: string, charge: number, at = T0 + 10) => ({
  jobId: id,
  owner,
  holdId: `hold_${id}`,
  charge,
  requestId: `req_${id}`,
  status: 'completed' as const,
  result: { ok: 1 },
  meta: {},
  at,
  expiresAt: at + 86_400_000,
});

const FAILED = { type: 'upstream_unavailable', code: 'upstream_degraded', message: 'stopped', retryable: true };

describe('leases', () => {
  it('a job with a current lease is never failed by another process; once expired it is, and its owner can no longer settle it', async () => {
    const { store } = await setup();
    await startJob(store, 'job_a', 'inst_A', T0 + 3000);
    expect(await store.failExpired(FAILED, T0 + 2999, T0 + 86_400_000)).toEqual({ jobs: [], holds: 0 });
    // The heartbeat moves the lease on; the old expiry no longer counts.
    await store.renewLeases('inst_A', T0 + 6000);
    expect(await store.failExpired(FAILED, T0 + 5000, T0 + 86_400_000)).toEqual({ jobs: [], holds: 0 });
    expect((await store.getCredits('acct_1')).held).toBe(40);

    expect(await store.failExpired(FAILED, T0 + 6000, T0 + 86_400_000)).toEqual({ jobs: ['job_a'], holds: 1 });
    expect(await store.getJob('job_a')).toMatchObject({ status: 'failed', error: FAILED, owner: null });
    expect(await store.getCredits('acct_1')).toMatchObject({ balance: 1000, held: 0 });
    // The owner comes back too late: nothing is settled, nothing charged, the job stays failed.
    expect(await store.finishJob(end('job_a', 'inst_A', 12))).toBe(false);
    expect(await store.getJob('job_a')).toMatchObject({ status: 'failed' });
    expect(await store.getCredits('acct_1')).toMatchObject({ balance: 1000, held: 0 });
    expect((await store.ledger('acct_1')).filter((l) => l.kind === 'charge')).toEqual([]);
  });

  it('only the owner settles a job, once', async () => {
    const { store } = await setup();
    await startJob(store, 'job_b', 'inst_A', T0 + 3000);
    expect(await store.finishJob(end('job_b', 'inst_B', 12))).toBe(false);
    expect(await store.finishJob(end('job_b', 'inst_A', 12))).toBe(true);
    expect(await store.finishJob(end('job_b', 'inst_A', 12))).toBe(false);
    expect(await store.getCredits('acct_1')).toMatchObject({ balance: 988, held: 0 });
    expect((await store.ledger('acct_1')).filter((l) => l.kind === 'charge').map((l) => [l.amount, l.jobId])).toEqual([[-12, 'job_b']]);
  });

  it('abandon fails only the caller’s own jobs and releases only its holds', async () => {
    const { store } = await setup();
    await startJob(store, 'job_c', 'inst_A', T0 + 3000);
    await startJob(store, 'job_d', 'inst_B', T0 + 3000, 25);
    // A hold with no job (a cache hit being settled) belongs to its owner too.
    await store.hold({ id: 'hold_x', accountId: 'acct_1', amount: 5, requestId: 'req_x', jobId: null, at: T0, freeTierBudget: null, lease: { owner: 'inst_A', expiresAt: T0 + 3000 } });
    expect(await store.abandon('inst_A', FAILED, T0 + 100, T0 + 86_400_000)).toEqual({ jobs: ['job_c'], holds: 2 });
    expect((await store.getJob('job_d'))!.status).toBe('running');
    expect(await store.getCredits('acct_1')).toMatchObject({ balance: 1000, held: 25 });
    expect(await store.settleHold('hold_x', 5, { requestId: 'req_x', jobId: null, at: T0 })).toBeNull();
  });

  it('a job created by a sandbox or live key records its environment', async () => {
    const { store } = await setup();
    await startJob(store, 'job_e', 'inst_A', T0 + 3000);
    expect((await store.getJob('job_e'))!.env).toBe('live');
  });
});

describe('expiry', () => {
  it('purges finished jobs past expires_at and expired cache rows, at most one batch per call', async () => {
    const { store } = await setup();
    for (let i = 0; i < 250; i++) {
      const id = `job_${String(i).padStart(4, '0')}`;
      await startJob(store, id, 'inst_A', T0 + 3000, 1);
      // 230 ended long ago, 20 recently.
      expect(await store.finishJob(end(id, 'inst_A', 0, i < 230 ? T0 : T0 + 50_000))).toBe(true);
    }
    await startJob(store, 'job_live', 'inst_A', T0 + 3000, 1);
    for (let i = 0; i < 130; i++) await store.cacheSet(`k${i}`, { i }, T0, i < 120 ? T0 + 1000 : T0 + 100_000_000);
    const now = T0 + 86_400_000 + 1000;
    expect(await store.purgeExpired(now, 100)).toEqual({ jobs: 100, cache: 100, webhooks: 0 });
    expect(await store.purgeExpired(now, 100)).toEqual({ jobs: 100, cache: 20, webhooks: 0 });
    expect(await store.purgeExpired(now, 100)).toEqual({ jobs: 30, cache: 0, webhooks: 0 });
    expect(await store.purgeExpired(now, 100)).toEqual({ jobs: 0, cache: 0, webhooks: 0 });
    expect(await store.getJob('job_0000')).toBeNull();
    expect(await store.getJob('job_0240')).not.toBeNull();
    // A running job has no expiry yet, whatever its age.
    expect(await store.getJob('job_live')).toMatchObject({ status: 'running' });
    expect(await store.cacheGet('k125', now)).not.toBeNull();
  });
});

describe('files', () => {
  it('creates the data directory 0700 and the database files 0600', async () => {
    const dir = join(tempDir(), 'fresh', 'data');
    const { store, file } = await setup(join(dir, 'stays.db'));
    await store.cacheSet('k', { v: 1 }, T0, T0 + 1000);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(statSync(f).mode & 0o777, f).toBe(0o600);
  });
});
