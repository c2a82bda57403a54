// A discovery killed mid-way and taken again (issue 38, item 5: "a kill -9 mid-pass loses nothing
// and bills nothing twice"): `stays collect run` as a child process on a local SQLite store, the
// simulated upstream answering each page in 150 ms, is killed with SIGKILL once the discovery has
// charged several pages. The next `stays collect run` waits for the dead run's lease, claims the
// discovery again and reads the pages the dead one was charged for instead of buying them again:
// the item's charges equal the ledger's fall, and the discovery cost what one undisturbed discovery
// of the same area costs, to the credit.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/stays.js';
import { freshSandbox, json, stays } from './helpers.js';

type Item = { item: string; outcome: string; creditsCharged: number; found: number | null };
const BOX = '-40.0,40.0,-39.975,40.025';

async function machine(latencyMs: number) {
  const box = freshSandbox();
  const env = { ...box.env, STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: String(latencyMs), STAYS_JOB_LEASE_MS: '3000' };
  const acct = json<{ id: string }>(await stays(['admin', 'account', 'create', '--plan', 'pro', '--credits', '1000000', '--json'], env));
  const key = json<{ key: string }>(await stays(['admin', 'key', 'create', '--account', acct.id, '--env', 'live', '--json'], env)).key;
  const live = { ...env, STAYS_API_KEY: key };
  const made = await stays(['collect', 'create', 'k', `--bbox=${BOX}`, '--platforms', 'airbnb', '--horizon', '10', '--rates', 'none', '--max-credits-per-day', '900000'], live);
  expect(made.code, made.stderr).toBe(0);
  const balance = async () => json<{ data: { credits: { balance: number } } }>(await stays(['account', '--json'], live)).data.credits.balance;
  return { env: live, dataDir: box.dataDir, balance };
}

describe('a collection discovery killed mid-way', () => {
  it('is taken again after its lease, reading the pages already charged: billed once, the ledger the items', async () => {
    // What the discovery of this area costs undisturbed.
    const clean = await machine(0);
    const ref = json<{ data: Item[] }>(await stays(['collect', 'run', '-o', 'json'], clean.env, { timeoutMs: 240_000 })).data.find((x) => x.item === 'discover')!;
    expect(ref.outcome).toBe('done');

    const m = await machine(150);
    const before = await m.balance();
    const child = spawn(process.execPath, [BIN, 'collect', 'run', '-o', 'json'], { env: { ...process.env, ...m.env, CI: '' }, stdio: 'ignore' });
    const db = new Database(join(m.dataDir, 'stays.db'), { readonly: true, fileMustExist: false });
    const kept = () => {
      try {
        return (db.prepare('SELECT COUNT(*) AS n FROM collection_pages').get() as { n: number }).n;
      } catch {
        return 0; // the table is made by the child's first migration
      }
    };
    for (let waited = 0; kept() < 5; waited += 50) {
      if (waited > 120_000) throw new Error('the discovery kept no pages');
      await new Promise((r) => setTimeout(r, 50));
    }
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await gone;
    const keptAtKill = kept();
    db.close();

    // Taken again once the dead run's lease (3 s) runs out (the upstream quick again: only the killed run needed time).
    const again = await stays(['collect', 'run', '-o', 'json'], { ...m.env, STAYS_SIM_LATENCY_MS: '0' }, { timeoutMs: 240_000 });
    expect(again.code, again.stderr).toBe(0);
    const items = json<{ data: Item[] }>(again).data;
    const discovery = items.find((x) => x.item === 'discover')!;
    expect(discovery).toMatchObject({ outcome: 'done', found: ref.found });
    // Every item's charges, over both runs, are the ledger's fall, to the credit.
    expect(before - (await m.balance())).toBe(items.reduce((n, x) => n + x.creditsCharged, 0));
    // The pages charged before the kill were read back (kept, or from the job that charged them),
    // not bought again; the one in flight was never charged: the discovery cost what an
    // undisturbed one does, to the credit.
    expect(keptAtKill).toBeGreaterThanOrEqual(5);
    expect(discovery.creditsCharged).toBe(ref.creditsCharged);
    // The pages are dropped once the discovery ends.
    const after = new Database(join(m.dataDir, 'stays.db'), { readonly: true });
    expect((after.prepare('SELECT COUNT(*) AS n FROM collection_pages').get() as { n: number }).n).toBe(0);
    after.close();
  }, 300_000);
});
