// `stays collect status` in a real terminal (issue 38, item 7): a pseudo-terminal from script(1)
// follows a pass that another process (`stays collect run`, on the same local SQLite store, the
// simulated upstream answering in 200 ms) is making: a progress bar redrawn as the items are done,
// with its ETA, ending with the pass (exit 0). Piped, the same command prints JSON lines (tested in
// collect-run.test.ts).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/stays.js';
import { freshSandbox, json, onPty, stays } from './helpers.js';

describe('stays collect status on a terminal', () => {
  it('draws the pass as a bar with its ETA, redrawn as another process makes it, and ends with it', async () => {
    const box = freshSandbox();
    const env = { ...box.env, STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '200' };
    const acct = json<{ id: string }>(await stays(['admin', 'account', 'create', '--plan', 'pro', '--credits', '100000', '--json'], env));
    const key = json<{ key: string }>(await stays(['admin', 'key', 'create', '--account', acct.id, '--env', 'live', '--json'], env)).key;
    const live = { ...env, STAYS_API_KEY: key };
    const made = await stays(['collect', 'create', 'tty', '--bbox=-40.0,40.0,-39.975,40.025', '--platforms', 'vrbo', '--horizon', '10', '--rates', 'none', '--max-credits-per-day', '90000'], live);
    expect(made.code, made.stderr).toBe(0);
    const run = spawn(process.execPath, [BIN, 'collect', 'run', '-o', 'json'], { env: { ...process.env, ...live }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    run.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const ran = new Promise<number | null>((r) => run.once('close', r));
    // Once the discovery has planned the tracking, follow the pass on a terminal.
    const db = new Database(join(box.dataDir, 'stays.db'), { readonly: true });
    for (let waited = 0; (db.prepare('SELECT COUNT(*) AS n FROM collection_items').get() as { n: number }).n < 2; waited += 50) {
      if (waited > 60_000) throw new Error('the pass was never planned');
      await new Promise((r) => setTimeout(r, 50));
    }
    db.close();
    const { code, screen } = await onPty(['collect', 'status', 'tty', '--interval', '0.3'], live, 120);
    expect(code, screen).toBe(0);
    expect(await ran).toBe(0);
    const total = json<{ data: unknown[] }>({ code: 0, stdout: out, stderr: '' }).data.length;
    const frames = [...screen.matchAll(/tty · pass 0 · (\w+) \[[#-]+\] (\d+)\/(\d+) items · ETA ([^·]+) ·/g)];
    // Redrawn as items were done: several frames, done counts rising, the last the whole pass.
    const done = frames.map((f) => Number(f[2]));
    expect(new Set(done).size).toBeGreaterThan(2);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(frames.at(-1)!.slice(2, 4).map(Number)).toEqual([total, total]);
    expect(frames.some((f) => /^\d+[smh]/.test(f[4]!.trim()))).toBe(true);
  }, 180_000);
});
