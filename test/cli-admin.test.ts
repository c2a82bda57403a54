// `stays admin` and `stays --version/--help` as child processes on a temp data directory.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startStays, tempDir } from './helpers/stays.js';

describe('stays admin', () => {
  it('creates an account, keys, grants credits and revokes, each printing one JSON object', async () => {
    const dir = tempDir();
    const acct = await runCli(['admin', 'account', 'create', '--plan', 'starter', '--credits', '25', '--json', '--data-dir', dir]);
    expect(acct.code, acct.stderr).toBe(0);
    const a = JSON.parse(acct.stdout) as { id: string; plan: { code: string }; credits: { balance: number } };
    expect(a.id).toMatch(/^acct_[0-9a-z]{26}$/);
    expect(a.plan.code).toBe('starter');
    expect(a.credits.balance).toBe(25);
    expect(existsSync(join(dir, 'stays.db'))).toBe(true);

    const key = await runCli(['admin', 'key', 'create', '--account', a.id, '--env', 'live', '--json', '--data-dir', dir]);
    expect(key.code, key.stderr).toBe(0);
    const k = JSON.parse(key.stdout) as { id: string; key: string };
    expect(k.id).toMatch(/^key_/);
    expect(k.key).toMatch(/^stay_live_[0-9A-Za-z]{32}$/);

    const grant = await runCli(['admin', 'credits', 'grant', '--account', a.id, '--credits', '75', '--json', '--data-dir', dir]);
    expect(JSON.parse(grant.stdout)).toMatchObject({ credits: { balance: 100 } });

    const revoke = await runCli(['admin', 'key', 'revoke', k.id, '--json', '--data-dir', dir]);
    expect(JSON.parse(revoke.stdout)).toMatchObject({ id: k.id, revoked: true });

    // Every write says on stderr which store it wrote to (issue 22, 5); stdout stays one JSON object.
    for (const r of [acct, key, grant, revoke]) expect(r.stderr).toBe(`stays admin: written to SQLite ${join(dir, 'stays.db')}\n`);
    const list = await runCli(['admin', 'account', 'list', '--json', '--data-dir', dir]);
    expect(list.stderr).toBe('');
  });

  it('account show and list: credits, keys without secrets, and a ledger that adds up to the balance', async () => {
    const s = await startStays({ STAYS_TOPUP_MAX_PER_DAY: '100' });
    try {
      const a = await s.account({ plan: 'pro', credits: 40, scopes: 'stays.read,account.read,billing.write' });
      await s.admin('credits', 'grant', '--account', a.id, '--credits', '10');
      const topup = await s.req('/v1/billing/topups', { method: 'POST', key: a.liveKey, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ credits: 7 }) });
      expect(topup.status).toBe(200);
      await s.admin('key', 'revoke', a.sandboxKeyId);

      const shown = await s.admin<{
        credits: { balance: number; available: number };
        keys: { id: string; prefix: string; env: string; revoked: boolean }[];
        ledgerRows: number;
        ledger: { kind: string; amount: number; balanceAfter: number; requestId: string | null; keyId: string | null }[];
      }>('account', 'show', a.id);
      expect(shown.credits).toMatchObject({ balance: 57, available: 57 });
      expect(shown.keys.map((k) => [k.id, k.env, k.revoked])).toEqual([
        [a.sandboxKeyId, 'sandbox', true],
        [a.liveKeyId, 'live', false],
      ]);
      for (const k of shown.keys) expect(JSON.stringify(k)).not.toMatch(/hash|stay_(live|test)_[0-9A-Za-z]{32}/);
      expect(shown.ledger.map((l) => [l.kind, l.amount, l.balanceAfter, l.keyId])).toEqual([
        ['grant', 40, 40, null],
        ['grant', 10, 50, null],
        ['topup', 7, 57, a.liveKeyId],
      ]);
      expect(shown.ledger.reduce((sum, l) => sum + l.amount, 0)).toBe(shown.credits.balance);
      expect(shown.ledger[2]!.requestId).toBe(topup.headers.get('x-request-id'));

      const tail = await s.admin<{ ledgerRows: number; ledger: unknown[] }>('account', 'show', a.id, '--ledger', '1');
      expect([tail.ledgerRows, tail.ledger.length]).toEqual([3, 1]);

      const other = await s.account({ plan: 'free' });
      const list = await s.admin<{ accounts: { id: string; plan: string; credits: { available: number }; activeKeys: number }[] }>('account', 'list');
      expect(list.accounts.map((x) => [x.id, x.plan, x.credits.available, x.activeKeys])).toEqual([
        [a.id, 'pro', 57, 1],
        [other.id, 'free', 1000, 2],
      ]);

      const human = await runCli(['admin', 'account', 'show', a.id, '--data-dir', s.dataDir]);
      expect(human.stdout).toMatch(new RegExp(`^${a.id}  pro \\(active\\)`));
      expect(human.stdout).toMatch(/ledger {2}3 of 3 rows/);
      expect(human.stdout).toMatch(new RegExp(`topup +7 +→ 57 +${topup.headers.get('x-request-id')} +${a.liveKeyId}$`, 'm'));
    } finally {
      await s.stop();
    }
  });

  it('the key is stored only as a hash', async () => {
    const dir = tempDir();
    const a = JSON.parse((await runCli(['admin', 'account', 'create', '--json', '--data-dir', dir])).stdout) as { id: string };
    const k = JSON.parse((await runCli(['admin', 'key', 'create', '--account', a.id, '--env', 'sandbox', '--json', '--data-dir', dir])).stdout) as { key: string };
    const { readFileSync } = await import('node:fs');
    const files = ['stays.db', 'stays.db-wal'].map((f) => join(dir, f)).filter(existsSync);
    for (const f of files) expect(readFileSync(f).includes(Buffer.from(k.key))).toBe(false);
  });

  it.each([
    [['admin', 'account', 'create', '--plan', 'gold'], /plan must be one of/],
    [['admin', 'account', 'create', '--credits', '-3'], /--credits must be an integer/],
    [['admin', 'key', 'create', '--account', 'acct_nope', '--env', 'live'], /No account acct_nope/],
    [['admin', 'key', 'create', '--account', 'acct_nope', '--env', 'prod'], /env must be one of/],
    [['admin', 'key', 'revoke', 'key_nope'], /No key key_nope/],
    [['admin', 'account', 'show', 'acct_nope'], /No account acct_nope/],
    [['admin', 'account', 'show', 'acct_x', '--ledger', 'lots'], /--ledger must be an integer/],
  ])('%j fails with exit 2 and a clear message', async (args, message) => {
    const r = await runCli([...args, '--data-dir', tempDir()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });

  it('--json errors are one JSON object on stderr', async () => {
    const r = await runCli(['admin', 'key', 'revoke', 'key_nope', '--json', '--data-dir', tempDir()]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr)).toMatchObject({ error: { code: 'invalid_parameter' } });
  });

  it('stays --version prints the package version', async () => {
    const r = await runCli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe('settings', () => {
  it.each([
    [['serve', '--port', '0'], { STAYS_UPSTREAM: 'real' }, /invalid setting STAYS_UPSTREAM/],
    [['serve', '--port', '0'], { STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: 'abc' }, /invalid setting STAYS_SIM_LATENCY_MS/],
    [['search', 'Lisbon'], { STAYS_UPSTREAM: 'simulated', STAYS_SIM_FAIL: 'vrbo=nope' }, /invalid setting STAYS_SIM_FAIL/],
    [['admin', 'account', 'create'], { STAYS_FREE_TIER_BUDGET: '-1' }, /invalid setting STAYS_FREE_TIER_BUDGET/],
    [['serve', '--port', '0'], { STAYS_JOB_LEASE_MS: '10' }, /invalid setting STAYS_JOB_LEASE_MS/],
    [['serve', '--port', '0'], { STAYS_SHUTDOWN_GRACE_MS: 'soon' }, /invalid setting STAYS_SHUTDOWN_GRACE_MS/],
    [['search', 'Lisbon'], { STAYS_MEMORY_CACHE_MB: '0' }, /invalid setting STAYS_MEMORY_CACHE_MB/],
    [['serve', '--port', '0'], { STAYS_HEAP_GROWTH_PERCENT: '-5' }, /invalid setting STAYS_HEAP_GROWTH_PERCENT/],
    [['admin', 'account', 'create'], { STAYS_TOPUP_MAX_PER_DAY: '1.5' }, /invalid setting STAYS_TOPUP_MAX_PER_DAY/],
  ])('%j with %j exits 2 naming the setting', async (args, env, message) => {
    const dir = tempDir();
    const r = await runCli([...args, '--data-dir', dir], { ...env, STAYS_CONFIG_DIR: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/unexpected/);
  });
});
