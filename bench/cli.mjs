// CLI cold start (issues 4 and 23): whole-process wall time of `stays --version`, an in-process
// sandbox `stays search Lisbon --json` on a data dir provisioned once before timing, and the same
// search and `stays account --json` in remote mode against `stays serve` on loopback, each against
// `node -e 0` in the same run. Targets alternate so machine noise spreads evenly; the figure is the
// median wall time. Each budget of issue 23 is printed with its ratio and ok/over.
// BENCH_CLI_BEFORE=DIR adds the same targets run from another built checkout (an A/B in one run).
// Peak RSS (remote mode's budget) is read with /usr/bin/time where the machine has it.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, fmt, median, startStays, wallMs } from './lib.mjs';

const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 30);
const BEFORE = process.env.BENCH_CLI_BEFORE;
const TIME = '/usr/bin/time';

/** Peak resident set (MB) of one run, or null without /usr/bin/time. */
function peakMb(args, env) {
  if (!existsSync(TIME)) return null;
  const r = spawnSync(TIME, ['-f', '%M', process.execPath, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const kb = Number(/(\d+)\s*$/.exec(r.stderr.toString())?.[1]);
  return Number.isFinite(kb) ? kb / 1024 : null;
}

export async function benchCli() {
  const root = mkdtempSync(join(tmpdir(), 'stays-bench-cli-'));
  const env = { ...process.env, STAYS_DATA_DIR: join(root, 'data'), STAYS_CONFIG_DIR: join(root, 'config') };
  for (const k of ['STAYS_BASE_URL', 'STAYS_API_KEY', 'STAYS_DEBUG', 'STAYS_BUNDLE', 'STAYS_PROFILE']) delete env[k];
  // Provision the local sandbox key (first use) outside the timing.
  execFileSync(process.execPath, [BIN, 'account'], { env, stdio: 'ignore' });
  const server = await startStays();
  const builds = { '': BIN };
  if (BEFORE) builds[' (before)'] = join(BEFORE, 'bin', 'stays');
  const targets = { 'node -e 0': [['-e', '0'], env] };
  for (const [tag, bin] of Object.entries(builds)) {
    // bin/stays keeps a V8 code cache of the bundle (written by the first run of a command, here a
    // warm-up run), one directory per build; one target shows a start without it.
    const cached = { ...env, NODE_COMPILE_CACHE: join(root, `v8${tag.trim()}`) };
    const remote = { ...cached, STAYS_BASE_URL: server.url, STAYS_API_KEY: server.sandboxKey };
    targets[`stays --version${tag}`] = [[bin, '--version'], cached];
    targets[`stays search Lisbon --json, in-process${tag}`] = [[bin, 'search', 'Lisbon', '--json'], cached];
    targets[`same, no compile cache (a first run)${tag}`] = [[bin, 'search', 'Lisbon', '--json'], { ...env, NODE_DISABLE_COMPILE_CACHE: '1' }];
    targets[`stays search Lisbon --json, remote${tag}`] = [[bin, 'search', 'Lisbon', '--json'], remote];
    targets[`stays account --json, remote${tag}`] = [[bin, 'account', '--json'], remote];
  }
  const times = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
  const peaks = {};
  try {
    for (let i = 0; i < 3; i++) for (const [args, e] of Object.values(targets)) wallMs(args, e); // warm the file cache
    for (let i = 0; i < RUNS; i++) for (const [name, [args, e]] of Object.entries(targets)) times[name].push(wallMs(args, e));
    for (const [name, [args, e]] of Object.entries(targets)) {
      const xs = [];
      for (let i = 0; i < 5; i++) xs.push(peakMb(args, e));
      peaks[name] = xs.includes(null) ? null : median(xs);
    }
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
  const base = median(times['node -e 0']);
  // Issue 23's budgets: the ratio to node -e 0, and peak RSS in remote mode.
  const budgets = { 'stays --version': [1.15], 'stays search Lisbon --json, in-process': [2.0], 'stays search Lisbon --json, remote': [1.5, 70], 'stays account --json, remote': [1.5, 70] };
  return Object.entries(times).map(([target, xs]) => {
    const ratio = median(xs) / base;
    const [maxRatio, maxMb] = budgets[target] ?? [];
    const mb = peaks[target];
    const over = maxRatio !== undefined && (ratio > maxRatio || (maxMb !== undefined && mb !== null && mb > maxMb));
    return {
      target,
      'median ms': fmt(median(xs)),
      'ratio to node -e 0': fmt(ratio, 2),
      'peak MB': mb === null ? '' : fmt(mb),
      budget: maxRatio === undefined ? '' : `<= ${maxRatio}x${maxMb ? `, <= ${maxMb} MB` : ''}: ${over ? 'over' : 'ok'}`,
    };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await benchCli());
