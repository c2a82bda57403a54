// Issue 14, two `stays serve` instances on one PostgreSQL database: they start together on a
// fresh database (each migration applied once, under the advisory lock), a job created through
// one is polled to completion through the other, a revoked key is refused by both within the
// auth cache's bound, and the in-process CLI runs on PostgreSQL (and fails cleanly without it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Instance, admin, errorLogs, call, liveAccount, sql, startInstance, stopAll } from '../helpers/multi.js';
import { type TestDatabase, freshDatabase, pgAvailable } from '../helpers/pg.js';
import { pollJob } from '../helpers/jobs.js';
import { type Stays, runCli, tempDir } from '../helpers/stays.js';
import { migrationsFor } from '../../src/store/sql/migrations.js';

const PG_MIGRATIONS = migrationsFor('postgres');

describe.skipIf(!(await pgAvailable()))('two instances on one database', { timeout: 180_000 }, () => {
  let db: TestDatabase;
  let a: Instance;
  let b: Instance;
  beforeAll(async () => {
    db = await freshDatabase();
  });
  afterAll(async () => {
    await stopAll();
    await db?.drop();
  });

  it('both start together on a fresh database: both listen, and each migration is recorded once', async () => {
    const env = { STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '1500' };
    [a, b] = await Promise.all([startInstance('A', db.url, env), startInstance('B', db.url, env)]);
    for (const i of [a, b]) expect((await fetch(`${i.url}/v1/health`)).status).toBeLessThan(500);
    const rows = await sql<{ version: number; n: number }>(db.url, 'SELECT version, COUNT(*)::int AS n FROM schema_migrations GROUP BY version ORDER BY version');
    expect(rows).toEqual(PG_MIGRATIONS.map((_, v) => ({ version: v + 1, n: 1 })));
  });

  it('a job created through A is polled to completion through B, with the result A reports', async () => {
    const acct = await liveAccount(db.url, { credits: 1000 });
    const created = await call(a, acct.liveKey, '/v1/search?location=Lisbon&limit=3');
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const jobId = created.body.data!.jobId!;
    // Polled through B (the helper checks each in-progress answer: Retry-After, nothing charged yet).
    const viaB = await pollJob(b as unknown as Stays, acct.liveKey, jobId, 60_000);
    expect(viaB.data.status).toBe('completed');
    expect(viaB.meta.creditsCharged).toBeGreaterThan(0);
    const viaA = await call(a, acct.liveKey, `/v1/jobs/${jobId}`);
    expect(viaA.status).toBe(200);
    expect(viaA.body.data).toEqual(viaB.data);
    expect(viaA.body.meta!.creditsCharged).toBe(viaB.meta.creditsCharged);
    // The same question on B now: answered at once from the shared cache, the same stays.
    const again = await call(b, acct.liveKey, '/v1/search?location=Lisbon&limit=3');
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.meta!.cached).toBe(true);
    expect(again.body.data).toEqual(viaB.data.result);
    const show = await admin<{ credits: { balance: number; held: number } }>(db.url, 'account', 'show', acct.id);
    expect(show.credits).toMatchObject({ balance: 1000 - viaB.meta.creditsCharged - again.body.meta!.creditsCharged, held: 0 });
  });

  it('a key revoked with `stays admin key revoke` is refused (401) by both instances within the auth cache bound', async () => {
    const acct = await liveAccount(db.url, { credits: 100 });
    // Both instances have looked the key up (and may hold it in their auth cache).
    for (const i of [a, b]) expect((await call(i, acct.liveKey, '/v1/account')).status).toBe(200);
    await admin(db.url, 'key', 'revoke', acct.liveKeyId);
    const revokedAt = Date.now();
    // PG_AUTH_CACHE_MS is 1000 ms; allow a generous margin before calling it a failure.
    const refusedWithin = async (i: Instance) => {
      for (;;) {
        const r = await call(i, acct.liveKey, '/v1/account');
        if (r.status === 401) return Date.now() - revokedAt;
        expect(r.status).toBe(200);
        if (Date.now() - revokedAt > 5000) throw new Error(`${i.name} still accepts the revoked key after 5 s`);
        await new Promise((res) => setTimeout(res, 50));
      }
    };
    await Promise.all([refusedWithin(a), refusedWithin(b)]);
    // Once refused, refused for good, on both.
    for (const i of [a, b]) {
      const r = await call(i, acct.liveKey, '/v1/account');
      expect(r.status).toBe(401);
      expect(r.body.error?.type).toBe('authentication_error');
    }
    for (const i of [a, b]) expect(errorLogs(i)).toEqual([]);
  });
});

describe.skipIf(!(await pgAvailable()))('the CLI on PostgreSQL', { timeout: 180_000 }, () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await freshDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });
  const dirs = () => ({ STAYS_DATA_DIR: tempDir(), STAYS_CONFIG_DIR: tempDir() });

  it('in process (no server) without a key: refused, exit 4, naming the database; no account is made in it (issue 22, item 4)', async () => {
    const env = { ...dirs(), STAYS_DATABASE_URL: db.url };
    const accounts = async () => (await sql<{ n: number }>(db.url, 'SELECT COUNT(*)::int AS n FROM accounts'))[0]!.n;
    const where = `the PostgreSQL store ${db.url} (STAYS_DATABASE_URL)`;
    const r = await runCli(['search', 'Lisbon', '--debug'], env);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain(`stays debug: in-process on ${where}`);
    expect(r.stderr).toContain(`No API key, and the command runs in-process on ${where}, where in-process commands do not create accounts`);
    expect(r.stderr).toMatch(/stays admin key create --account ACCT/);
    const status = await runCli(['auth', 'status'], env);
    expect(status.code).toBe(4);
    expect(status.stdout).toMatch(new RegExp(`^Mode: +in-process on the PostgreSQL store ${db.url.replace(/[.?*+()]/g, '\\$&')}`, 'm'));
    expect(status.stdout).not.toContain('local store');
    // A fresh database (the command migrated it): still no account.
    expect(await accounts()).toBe(0);

    // With the key of an account made on purpose (stays admin), it runs on the database and says so.
    const acct = JSON.parse((await runCli(['admin', 'account', 'create', '--json'], env)).stdout) as { id: string };
    const key = (JSON.parse((await runCli(['admin', 'key', 'create', '--account', acct.id, '--env', 'sandbox', '--json'], env)).stdout) as { key: string }).key;
    const ok = await runCli(['search', 'Lisbon', '--json', '--api-key', key], env);
    expect(ok.code, ok.stderr).toBe(0);
    expect((JSON.parse(ok.stdout) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    const who = await runCli(['auth', 'status', '--json', '--api-key', key], env);
    expect(who.code, who.stderr).toBe(0);
    expect(JSON.parse(who.stdout)).toMatchObject({ mode: 'in-process', dataDir: null, store: { kind: 'postgres', url: db.url }, account: { id: acct.id } });
    expect(await accounts()).toBe(1);
  });

  it('an unreachable database: a non-zero exit and a clear error without the password or a stack trace', async () => {
    const bad = 'postgres://u:pw@127.0.0.1:1/x';
    for (const args of [
      ['search', 'Lisbon', '--json'],
      ['search', 'Lisbon'],
    ]) {
      const r = await runCli(args, { ...dirs(), STAYS_DATABASE_URL: bad });
      expect(r.code).not.toBe(0);
      const all = r.stdout + r.stderr;
      expect(all).not.toContain('pw');
      expect(all).not.toMatch(/\n\s+at /);
      if (args.includes('--json')) {
        // --json: the error is one JSON object on stderr (as every CLI error in JSON mode).
        expect(JSON.parse(r.stderr)).toMatchObject({ error: { type: 'api_error', code: 'store_unavailable', message: expect.stringContaining('127.0.0.1:1') } });
      } else {
        expect(r.stderr).toMatch(/^error: Cannot use PostgreSQL at postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/x/m);
      }
    }
  });

  it('`stays serve` with a database URL but no STAYS_SECRET_KEY exits 2 naming STAYS_SECRET_KEY', async () => {
    const r = await runCli(['serve', '--port', '0', '--database-url', db.url], { ...dirs(), STAYS_SECRET_KEY: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('STAYS_SECRET_KEY');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('`stays serve` on an unreachable database exits 1 before listening, saying so without the password', async () => {
    const r = await runCli(['serve', '--port', '0', '--database-url', 'postgres://u:pw@127.0.0.1:1/x'], { ...dirs(), STAYS_SECRET_KEY: 'ab'.repeat(32) });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('stays: Cannot use PostgreSQL at postgres://u:***@127.0.0.1:1/x: connect ECONNREFUSED 127.0.0.1:1');
    expect(r.stdout + r.stderr).not.toContain('listening');
  });

  // node-postgres also takes the password from a query parameter (postgres://u@host/db?password=…),
  // which redactUrl (src/store/postgres/store.ts) leaves in the message and in serve's "listening
  // on … (data: …)" line. A store fix; this marks it until then.
  it('a password given as ?password= in the database URL is redacted in errors', async () => {
    const { redactUrl } = await import('../../src/store/db-url.js');
    const shown = redactUrl('postgres://u@127.0.0.1:1/x?password=sekrit&sslpassword=sek2&sslmode=require');
    expect(shown).not.toMatch(/sekrit|sek2/);
    expect(shown).toContain('sslmode=require');
  });

  it('stays admin says on stderr which PostgreSQL database it wrote to, without the password (issue 22, 5)', async () => {
    const u = new URL(db.url);
    u.password = 'hunter2-secret';
    // The test server trusts 127.0.0.1, so a password is accepted and ignored: it must not be printed.
    const r = await runCli(['admin', 'account', 'create', '--json', '--database-url', u.toString()]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^stays admin: written to PostgreSQL postgres:\/\/[^:@\s]+:\*\*\*@[^\s]+\/stays_t_\w+\n$/);
    expect(r.stderr).not.toContain('hunter2');
  });
});
