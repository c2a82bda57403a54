// CLI cold start (issue 4): `stays --version` and an in-process sandbox `stays search Lisbon
// --json` on a data dir provisioned once before timing, each against `node -e 0` in the same run.
// Runs alternate targets so machine noise spreads evenly; the figure is the median wall time.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, fmt, median, startStays, wallMs } from './lib.mjs';

const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 30);

export async function benchCli() {
  const root = mkdtempSync(join(tmpdir(), 'stays-bench-cli-'));
  const env = { ...process.env, STAYS_DATA_DIR: join(root, 'data'), STAYS_CONFIG_DIR: join(root, 'config') };
  for (const k of ['STAYS_BASE_URL', 'STAYS_API_KEY', 'STAYS_DEBUG']) delete env[k];
  // Provision the local sandbox key (first use) outside the timing.
  execFileSync(process.execPath, [BIN, 'account'], { env, stdio: 'ignore' });
  // bin/stays keeps a V8 code cache of the bundle (written by the first run of a command, here a
  // warm-up run); the last target shows a start without it, as on the very first run.
  const cached = { ...env, NODE_COMPILE_CACHE: join(root, 'v8') };
  // Remote mode, for reference (no goal): the same search against `stays serve` on loopback.
  const server = await startStays();
  const targets = {
    'node -e 0': [['-e', '0'], env],
    'stays --version': [[BIN, '--version'], cached],
    'stays search Lisbon --json (in-process)': [[BIN, 'search', 'Lisbon', '--json'], cached],
    'same, no compile cache (first run)': [[BIN, 'search', 'Lisbon', '--json'], { ...env, NODE_DISABLE_COMPILE_CACHE: '1' }],
    'stays search Lisbon --json (remote, loopback)': [[BIN, 'search', 'Lisbon', '--json'], { ...cached, STAYS_BASE_URL: server.url, STAYS_API_KEY: server.sandboxKey }],
  };
  const times = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
  for (let i = 0; i < 3; i++) for (const [args, e] of Object.values(targets)) wallMs(args, e); // warm the file cache
  for (let i = 0; i < RUNS; i++) for (const [name, [args, e]] of Object.entries(targets)) times[name].push(wallMs(args, e));
  await server.stop();
  rmSync(root, { recursive: true, force: true });
  const base = median(times['node -e 0']);
  const goals = { 'stays --version': '<= 1.5', 'stays search Lisbon --json (in-process)': '<= 3' };
  return Object.entries(times).map(([target, xs]) => ({ target, 'median ms': fmt(median(xs)), 'ratio to node -e 0': fmt(median(xs) / base, 2), goal: goals[target] ?? '' }));
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await benchCli());
