// Idempotency keys shared by two `stays serve` instances on one PostgreSQL database (issue 21 item
// 10): a key used on one instance is replayed by the other, the same key sent to both at once
// executes once, a top-up repeated with one key over both instances is one top-up, another
// request with the key is a typed 400 on either instance, and the purge forgets keys after 24 hours.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Instance, accountShow, admin, errorLogs, liveAccount, sql, startInstance, stopAll } from '../helpers/multi.js';
import { type TestDatabase, freshDatabase, pgAvailable } from '../helpers/pg.js';

describe.skipIf(!(await pgAvailable()))('idempotency keys across two instances', { timeout: 180_000 }, () => {
  let db: TestDatabase;
  let a: Instance;
  let b: Instance;
  beforeAll(async () => {
    db = await freshDatabase();
    const env = { STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '400', STAYS_SIM_FAIL: '', STAYS_TOPUP_MAX_PER_DAY: '1000000' };
    [a, b] = await Promise.all([startInstance('A', db.url, env), startInstance('B', db.url, env)]);
  });
  afterAll(async () => {
    await stopAll();
    await db?.drop();
  });

  const post = async (i: Instance, key: string, path: string, body: unknown, idem: string) => {
    const res = await i.req(path, { method: 'POST', key, body: JSON.stringify(body), headers: { 'content-type': 'application/json', 'idempotency-key': idem } });
    return { status: res.status, text: await res.text(), replayed: res.headers.get('idempotent-replayed') === 'true', headers: res.headers };
  };
  const charges = async (id: string) => (await accountShow(db.url, id)).ledger.filter((l) => l.kind === 'charge').map((l) => l.amount);

  it('a batch answered by A is replayed by B, byte for byte, charged once', async () => {
    const acct = await liveAccount(db.url, { credits: 1000 });
    const entries = [{ id: '7001' }, { id: '7002' }];
    const first = await post(a, acct.liveKey, '/v1/stays/batch', { entries }, 'ab-1');
    expect(first.status, first.text).toBe(200);
    const again = await post(b, acct.liveKey, '/v1/stays/batch', { entries }, 'ab-1');
    expect(again).toMatchObject({ status: 200, text: first.text, replayed: true });
    expect(await charges(acct.id)).toEqual([-2]);
    // Another body with the key, on either instance: a typed 400, nothing executed.
    for (const i of [a, b]) {
      const other = await post(i, acct.liveKey, '/v1/stays/batch', { entries: [{ id: '7003' }] }, 'ab-1');
      expect(other.status).toBe(400);
      expect(JSON.parse(other.text).error).toMatchObject({ code: 'idempotency_key_reused', param: 'Idempotency-Key', creditsCharged: 0 });
    }
    expect(await charges(acct.id)).toEqual([-2]);
  });

  it('the same key sent to both instances at once, 20 times: one execution, one charge; every answer the first one or a retryable 409', async () => {
    const acct = await liveAccount(db.url, { credits: 1000 });
    const entries = [{ id: '7101' }, { id: '7102' }, { id: '7103' }];
    const all = await Promise.all(Array.from({ length: 20 }, (_, n) => post(n % 2 ? b : a, acct.liveKey, '/v1/stays/batch', { entries }, 'burst-ab')));
    const ok = all.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(ok.filter((r) => !r.replayed)).toHaveLength(1);
    for (const r of ok) expect(r.text).toBe(ok[0]!.text);
    for (const r of all.filter((x) => x.status !== 200)) {
      expect(r.status, r.text).toBe(409);
      expect(JSON.parse(r.text).error).toMatchObject({ code: 'idempotency_key_in_use', retryable: true, creditsCharged: 0 });
    }
    expect(await charges(acct.id)).toEqual([-3]);
  });

  it('a top-up repeated 40 times with one key over both instances (20 at once): one top-up', async () => {
    const acct = await admin<{ id: string }>(db.url, 'account', 'create', '--plan', 'pro', '--credits', '0', '--rpm', '1000000');
    const k = await admin<{ key: string }>(db.url, 'key', 'create', '--account', acct.id, '--env', 'live', '--scopes', 'stays.read,billing.write');
    const all = await Promise.all(Array.from({ length: 20 }, (_, n) => post(n % 2 ? b : a, k.key, '/v1/billing/topups', { credits: 100 }, 'topup-ab')));
    for (let n = 0; n < 20; n++) all.push(await post(n % 2 ? b : a, k.key, '/v1/billing/topups', { credits: 100 }, 'topup-ab'));
    const ok = all.filter((r) => r.status === 200);
    for (const r of ok) expect(r.text).toBe(ok[0]!.text);
    for (const r of all.filter((x) => x.status !== 200)) expect(r.status, r.text).toBe(409);
    const show = await accountShow(db.url, acct.id);
    expect(show.ledger.filter((l) => l.kind === 'topup').map((l) => l.amount)).toEqual([100]);
    expect(show.credits.balance).toBe(100);
  });

  it('keys are forgotten after 24 hours: the purge deletes expired rows', async () => {
    const acct = await liveAccount(db.url, { credits: 1000 });
    const entries = [{ id: '7201' }];
    expect((await post(a, acct.liveKey, '/v1/stays/batch', { entries }, 'old-1')).status).toBe(200);
    const [r] = await sql<{ expires_at: string; created_at: string }>(db.url, `SELECT expires_at, created_at FROM idempotency_keys WHERE account_id = $1 AND key = 'old-1'`, [acct.id]);
    expect(Number(r!.expires_at) - Number(r!.created_at)).toBe(24 * 3_600_000);
    // As if a day had passed: the sweeper (every third of the job lease) purges it.
    await sql(db.url, `UPDATE idempotency_keys SET expires_at = 0 WHERE account_id = $1 AND key = 'old-1'`, [acct.id]);
    const end = Date.now() + 30_000;
    while ((await sql(db.url, `SELECT 1 FROM idempotency_keys WHERE account_id = $1 AND key = 'old-1'`, [acct.id])).length > 0) {
      if (Date.now() > end) throw new Error('the expired key was not purged');
      await new Promise((res) => setTimeout(res, 200));
    }
    // The key is free again: the same request executes anew.
    const again = await post(b, acct.liveKey, '/v1/stays/batch', { entries }, 'old-1');
    expect(again).toMatchObject({ status: 200, replayed: false });
  });

  it('no errors logged', () => {
    expect([...errorLogs(a), ...errorLogs(b)]).toEqual([]);
  });
});
