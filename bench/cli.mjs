// CLI cold start (issue 4): `stays --version` and an in-process sandbox `stays search Lisbon
// --json` on a data dir provisioned once before timing, each against `node -e 0` in the same run.
// Runs alternate targets so machine noise spreads evenly; the figure is the median wall time.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, fmt } from './lib.mjs';

const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 30);

function wallMs(args, env) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchCli() {
  const root = mkdtempSync(join(tmpdir(), 'stays-bench-cli-'));
  const env = { ...process.env, STAYS_DATA_DIR: join(root, 'data'), STAYS_CONFIG_DIR: join(root, 'config') };
  for (const k of ['STAYS_BASE_URL', 'STAYS_API_KEY', 'STAYS_DEBUG']) delete env[k];
  // Provision the local sandbox key (first use) outside the timing.
  execFileSync(process.execPath, [BIN, 'account'], { env, stdio: 'ignore' });
  const targets = {
    'node -e 0': ['-e', '0'],
    'stays --version': [BIN, '--version'],
    'stays search Lisbon --json (in-process)': [BIN, 'search', 'Lisbon', '--json'],
  };
  const times = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
  for (let i = 0; i < 3; i++) for (const args of Object.values(targets)) wallMs(args, env); // warm the file cache
  for (let i = 0; i < RUNS; i++) for (const [name, args] of Object.entries(targets)) times[name].push(wallMs(args, env));
  rmSync(root, { recursive: true, force: true });
  const base = median(times['node -e 0']);
  const goals = { 'node -e 0': '', 'stays --version': '<= 1.5', 'stays search Lisbon --json (in-process)': '<= 3' };
  return Object.entries(times).map(([target, xs]) => ({ target, 'median ms': fmt(median(xs)), 'ratio to node -e 0': fmt(median(xs) / base, 2), goal: goals[target] }));
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await benchCli());
