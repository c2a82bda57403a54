// In-process mode on a fresh machine: no server, no key, no setup. The first call provisions a
// local sandbox account and key (kept in the config dir), and every subcommand answers.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { day } from '../helpers/stays.js';
import { type Sandbox, freshSandbox, json, staysIn } from './helpers.js';

let box: Sandbox;
const run = (...args: string[]) => staysIn(args, box.env);
beforeAll(() => {
  box = freshSandbox();
});
afterAll(() => {
  // Temp dirs are left to the OS; nothing here touches the real home.
});

describe('in-process mode', () => {
  it('provisions a local sandbox key on first use, once, and keeps it in the config dir', async () => {
    const first = await run('search', 'Lisbon', '--limit', '2', '--json');
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/created a local sandbox account \(acct_\w+\) and key/);
    expect(json(first).meta).toMatchObject({ sandbox: true, environment: 'test', creditsCharged: 0 });
    const cfg = JSON.parse(readFileSync(`${box.configDir}/config.json`, 'utf8')) as { profiles: { default: { localKeys: Record<string, { key: string }> } } };
    expect(Object.values(cfg.profiles.default.localKeys)[0]!.key).toMatch(/^stay_test_/);
    expect(existsSync(`${box.dataDir}/stays.db`)).toBe(true);
    const second = await run('search', 'Lisbon', '--limit', '2', '--json');
    expect(second.stderr).toBe('');
    expect(json(second).data).toEqual(json(first).data);
  });

  it('commands started together on a fresh machine share one store and one provisioned account', async () => {
    const fresh = freshSandbox();
    const runs = await Promise.all(Array.from({ length: 6 }, () => staysIn(['search', 'Porto', '--limit', '2', '--json'], fresh.env)));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    for (const r of runs) expect(json(r).data).toEqual(json(runs[0]!).data);
    expect(runs.filter((r) => /created a local sandbox account/.test(r.stderr))).toHaveLength(1);
    const list = await staysIn(['admin', 'account', 'list', '--json', '--data-dir', fresh.dataDir], fresh.env);
    expect((JSON.parse(list.stdout) as { accounts: unknown[] }).accounts).toHaveLength(1);
    expect(existsSync(`${fresh.dataDir}/.provisioning.lock`)).toBe(false);
  });

  it('search prints tab-separated rows when piped', async () => {
    const r = await run('search', 'Lisbon', '--limit', '3', '--platforms', 'airbnb,booking');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]!.split('\t')[1]).toMatch(/airbnb|booking/);
  });

  it('listing, price, compare (both modes), availability, reviews, account', async () => {
    const stay = ['--check-in', day(30), '--check-out', day(33)];
    const listing = await run('listing', 'airbnb', '12345678', '--json');
    expect(json<{ data: { id: string } }>(listing).data.id).toBe('stays_airbnb_12345678');
    const price = await run('price', 'booking', 'pt/casa-azul', ...stay, '--json');
    expect(json<{ data: { nights: number } }>(price).data.nights).toBe(3);
    const google = await run('compare', '--name', 'Hotel Aurora', '--location', 'Lisbon', ...stay, '--json');
    expect(json<{ data: { source: string } }>(google).data.source).toBe('google_aggregator');
    const direct = await run('compare', '--listings', 'airbnb:12345678,booking:pt/casa-azul', ...stay, '--json');
    expect(json<{ data: { offers: unknown[] } }>(direct).data.offers).toHaveLength(2);
    const avail = await run('availability', 'vrbo', '4886746', '4886747', '--start-date', day(30), '--end-date', day(35), '--json');
    expect(json<{ data: { dates: unknown[] }[] }>(avail).data.map((a) => a.dates.length)).toEqual([5, 5]);
    const reviews = await run('reviews', 'airbnb', '12345678', '--limit', '3', '--json');
    expect(json<{ data: unknown[] }>(reviews).data).toHaveLength(3);
    const account = await run('account', '--json');
    expect(json<{ data: { key: { env: string } } }>(account).data.key.env).toBe('sandbox');
  });

  it('jobs get answers job_not_found (exit 3) for an unknown job; api passes through', async () => {
    const job = await run('jobs', 'get', 'job_01J8ZK4R2ABCDEF0123456789A');
    expect(job.code).toBe(3);
    expect(job.stderr).toMatch(/job_not_found/);
    const api = await run('api', '/v1/account');
    expect(api.code).toBe(0);
    expect(JSON.parse(api.stdout)).toMatchObject({ data: { key: { env: 'sandbox' } } });
  });

  it('--data-dir picks another store (and provisions a key for it)', async () => {
    const other = freshSandbox();
    const r = await staysIn(['account', '--json', '--data-dir', other.dataDir], { STAYS_CONFIG_DIR: box.configDir });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(other.dataDir);
    expect(existsSync(`${other.dataDir}/stays.db`)).toBe(true);
  });

  it('provisions again when the data dir was wiped', async () => {
    const wiped = freshSandbox();
    expect((await staysIn(['account'], wiped.env)).code).toBe(0);
    const { rmSync } = await import('node:fs');
    rmSync(wiped.dataDir, { recursive: true, force: true });
    const again = await staysIn(['account', '--json'], wiped.env);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/created a local sandbox account/);
  });
});
