// PostgreSQL only: caps and one-time operations that must hold across instances (top-ups, the
// webhook cap, OAuth codes and refresh tokens), the bound on how long another instance's key
// revocation goes unseen, and an expiry sweep that is not skipped while another instance purges.
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { PG_AUTH_CACHE_MS } from '../../src/store/postgres/store.js';
import type { OAuthRedeem, Store } from '../../src/core/ports/store.js';
import { addAccount, backings, pgKind, T0 } from './stores.js';

const HOUR = 3_600_000;

// Hundreds of concurrent transactions: a generous bound for a busy machine, not a measurement.
describe.skipIf(!pgKind.available)('PostgreSQL: caps and one-time operations across instances', { timeout: 120_000 }, () => {
  const dbs = backings(pgKind);
  afterEach(() => dbs.cleanup());

  async function two(): Promise<{ a: Store; b: Store; url: string }> {
    const db = await dbs.fresh();
    const a = db.open();
    const b = db.open();
    await Promise.all([a.ready(), b.ready()]);
    return { a, b, url: db.where };
  }

  it('concurrent top-ups from two instances stay within the cap', async () => {
    const { a, b } = await two();
    await addAccount(a, 'acct_1', 0);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? a : b).topup({ accountId: 'acct_1', credits: 100, keyId: 'key_1', requestId: `req_${i}`, at: T0 + i, since: T0, max: 1000 })),
    );
    expect(results.filter((r) => r.ok).length).toBe(10);
    for (const r of results) if (!r.ok) expect(r.used).toBe(1000);
    expect(await a.getCredits('acct_1')).toMatchObject({ balance: 1000 });
    expect((await b.ledger('acct_1')).filter((l) => l.kind === 'topup').length).toBe(10);
  });

  it('concurrent webhook creations from two instances stay within maxActive', async () => {
    const { a, b } = await two();
    await addAccount(a, 'acct_1', 0);
    const made = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 === 0 ? a : b).createWebhook(
          { id: `wh_${i}`, accountId: 'acct_1', env: 'live' as const, url: `http://127.0.0.1:9/${i}`, events: ['job.failed'], description: null, secretEnc: 'v1.x', createdAt: T0 + i },
          3,
        ),
      ),
    );
    expect(made.filter((w) => w !== null).length).toBe(3);
    expect((await a.listWebhooks('acct_1', 'live')).length).toBe(3);
  });

  it('an OAuth code redeemed at once on two instances: one grant, and the reuse revokes it; a refresh token rotates once', async () => {
    const { a, b } = await two();
    await addAccount(a, 'acct_1', 0);
    await a.createKey({ id: 'key_1', accountId: 'acct_1', env: 'live', scopes: ['stays.read'], hash: 'k'.repeat(64), prefix: 'stay_live_abcd', createdAt: T0 });
    await a.createOAuthClient({ id: 'client_1', name: null, redirectUris: ['http://127.0.0.1:1/cb'], createdAt: T0 });
    await a.createOAuthCode({ hash: 'code-1', clientId: 'client_1', redirectUri: 'http://127.0.0.1:1/cb', challenge: 'c', scope: 'stays.read', keyId: 'key_1', expiresAt: T0 + 60_000, createdAt: T0 });
    const redeem = (i: number): OAuthRedeem => ({
      codeHash: 'code-1',
      clientId: 'client_1',
      redirectUri: 'http://127.0.0.1:1/cb',
      verify: () => true,
      grantId: `grant_${i}`,
      access: { hash: `at_${i}`, expiresAt: T0 + HOUR },
      refresh: { hash: `rt_${i}`, expiresAt: T0 + 2 * HOUR },
      now: T0 + 1000,
    });
    const got = await Promise.all([0, 1, 2, 3].map((i) => (i % 2 === 0 ? a : b).redeemOAuthCode(redeem(i))));
    const ok = got.flatMap((r, i) => (r.ok ? [i] : []));
    expect(ok.length).toBe(1);
    for (const r of got) if (!r.ok) expect(r.reason).toBe('reused');
    // The reuse revoked the one grant made.
    expect(await a.findOAuthAccess(`at_${ok[0]}`)).toBeNull();

    await a.createOAuthCode({ hash: 'code-2', clientId: 'client_1', redirectUri: 'http://127.0.0.1:1/cb', challenge: 'c', scope: 'stays.read', keyId: 'key_1', expiresAt: T0 + 60_000, createdAt: T0 });
    expect(await b.redeemOAuthCode({ ...redeem(9), codeHash: 'code-2' })).toMatchObject({ ok: true });
    const rotations = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        (i % 2 === 0 ? a : b).rotateOAuthRefresh({
          hash: 'rt_9',
          clientId: 'client_1',
          access: { hash: `at_r${i}`, expiresAt: T0 + HOUR },
          refresh: { hash: `rt_r${i}`, expiresAt: T0 + 2 * HOUR },
          now: T0 + 2000,
        }),
      ),
    );
    expect(rotations.filter((r) => r.ok).length).toBe(1);
    // The first refused sees the token used and revokes the grant; a later one may find it revoked.
    const reasons = rotations.flatMap((r) => (r.ok ? [] : [r.reason]));
    expect(reasons).toContain('reused');
    for (const r of reasons) expect(['reused', 'revoked']).toContain(r);
  });

  it('a key revoked on one instance is refused by the other within PG_AUTH_CACHE_MS', async () => {
    const { a, b } = await two();
    await addAccount(a, 'acct_1', 0);
    await a.createKey({ id: 'key_1', accountId: 'acct_1', env: 'live', scopes: [], hash: 'k'.repeat(64), prefix: 'stay_live_abcd', createdAt: T0 });
    expect((await b.findKeyByHash('k'.repeat(64)))?.key.revoked).toBe(false);
    await a.revokeKey('key_1', T0 + 1);
    // The documented bound, waited out (plus a margin): no assertion about anything sooner.
    await new Promise((r) => setTimeout(r, PG_AUTH_CACHE_MS + 100));
    expect((await b.findKeyByHash('k'.repeat(64)))?.key.revoked).toBe(true);
    // A key created on one instance is found on the other at once (misses are not cached).
    expect(await b.findKeyByHash('n'.repeat(64))).toBeNull();
    await a.createKey({ id: 'key_2', accountId: 'acct_1', env: 'live', scopes: [], hash: 'n'.repeat(64), prefix: 'stay_live_efgh', createdAt: T0 });
    expect((await b.findKeyByHash('n'.repeat(64)))?.key.id).toBe('key_2');
  });

  it('an expiry sweep still fails expired jobs while another instance is in the middle of a purge', async () => {
    const { a, b, url } = await two();
    await addAccount(a, 'acct_1', 100);
    const lease = { owner: 'inst_gone', expiresAt: T0 + 1000 };
    await a.hold({ id: 'hold_j', accountId: 'acct_1', amount: 10, requestId: 'req_j', jobId: 'job_j', at: T0, freeTierBudget: null, lease });
    await a.createJob({ id: 'job_j', accountId: 'acct_1', env: 'live', requestId: 'req_j', operation: 'price', platforms: ['airbnb'], estimatedSeconds: 1, createdAt: T0, lease });
    await a.cacheSet('old', 1, T0, T0 + 1);
    // Another client holds the expired cache row, so a's purge waits on it, mid-transaction.
    const blocker = new pg.Client({ connectionString: url });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query(`SELECT 1 FROM cache_entries WHERE key = 'old' FOR UPDATE`);
      const purge = a.purgeExpired(T0 + 5000, 100);
      // Wait until the purge is blocked on that row (a condition, not a delay). Each look is its
      // own transaction: pg_stat_activity is a snapshot within one.
      const watcher = new pg.Client({ connectionString: url });
      await watcher.connect();
      try {
        for (;;) {
          const waiting = (await watcher.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'DELETE FROM cache_entries%'`)).rows;
          if (waiting.length > 0) break;
          await new Promise((r) => setTimeout(r, 10));
        }
      } finally {
        await watcher.end();
      }
      expect(await b.failExpired({ code: 'gone' }, T0 + 5000, T0 + 90_000_000)).toEqual({ jobs: ['job_j'], holds: 1 });
      await blocker.query('COMMIT');
      expect(await purge).toMatchObject({ cache: 1 });
    } finally {
      await blocker.end();
    }
    expect(await a.getJob('job_j')).toMatchObject({ status: 'failed' });
    expect(await a.getCredits('acct_1')).toMatchObject({ balance: 100, held: 0 });
  });
  it.each([
    ['one-per-webhook', { onePerWebhook: true }],
    ['fair (per account, issue 21)', { onePerWebhook: true, perAccount: 4 }],
  ])('a %s claim never hands out a delivery whose webhook another instance revoked while the claim ran', async (_name, opts) => {
    const { a, b, url } = await two();
    await addAccount(a, 'acct_1', 0);
    const hook = (id: string) => ({
      id,
      accountId: 'acct_1',
      env: 'live' as const,
      url: `http://127.0.0.1:9/${id}`,
      events: ['job.failed' as const],
      description: null,
      secretEnc: 'v1.x',
      createdAt: T0,
    });
    await a.createWebhook(hook('wh_1'));
    await a.createWebhook(hook('wh_2'));
    await a.revokeWebhook('wh_2', 'acct_1', T0);
    // evt_y: queued for the revoked wh_2 (the claim cancels such rows); evt_x: due for wh_1.
    await a.enqueueDeliveries([
      { id: 'evt_x', webhookId: 'wh_1', event: 'job.failed', body: '{}', createdAt: T0 },
      { id: 'evt_y', webhookId: 'wh_2', event: 'job.failed', body: '{}', createdAt: T0 },
    ]);
    const blocker = new pg.Client({ connectionString: url });
    const watcher = new pg.Client({ connectionString: url });
    await blocker.connect();
    await watcher.connect();
    try {
      // Holding evt_y makes the claim wait mid-transaction, after it has chosen evt_x.
      await blocker.query('BEGIN');
      await blocker.query(`SELECT 1 FROM webhook_outbox WHERE id = 'evt_y' FOR UPDATE`);
      const claim = a.claimDeliveries('inst_a', T0 + 10, T0 + 60_000, 10, opts);
      for (;;) {
        const waiting = (
          await watcher.query(
            `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%webhook_id IN (SELECT id FROM webhooks WHERE revoked_at IS NOT NULL%'`,
          )
        ).rows;
        if (waiting.length > 0) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      // Meanwhile another instance revokes wh_1, cancelling evt_x.
      expect(await b.revokeWebhook('wh_1', 'acct_1', T0 + 11)).toMatchObject({ revokedAt: T0 + 11 });
      await blocker.query('COMMIT');
      expect(await claim).toEqual([]);
    } finally {
      await blocker.end();
      await watcher.end();
    }
    expect(await a.pendingDeliveries(['evt_x', 'evt_y'])).toEqual([]);
  });
});
