// `--jq` and `--json FIELDS` cold start (issue 9, item 12): an in-process sandbox
// `stays search Lisbon` printing the whole envelope (--json), some fields (--json name,platform),
// and a jq filter (--jq '.data[0].name'), each against `node -e 0` and against `--json` in the same
// run. --jq loads jq (WebAssembly) from node_modules and compiles it, then runs the filter: what
// it costs over --json is the figure. Alternated targets, median wall time, as in bench/cli.mjs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, fmt, median, wallMs } from './lib.mjs';

const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 30);

export async function benchJq() {
  const root = mkdtempSync(join(tmpdir(), 'stays-bench-jq-'));
  const env = { ...process.env, STAYS_DATA_DIR: join(root, 'data'), STAYS_CONFIG_DIR: join(root, 'config'), NODE_COMPILE_CACHE: join(root, 'v8') };
  for (const k of ['STAYS_BASE_URL', 'STAYS_API_KEY', 'STAYS_DEBUG']) delete env[k];
  execFileSync(process.execPath, [BIN, 'account'], { env, stdio: 'ignore' });
  const search = [BIN, 'search', 'Lisbon'];
  const targets = {
    'node -e 0': ['-e', '0'],
    'stays search Lisbon --json': [...search, '--json'],
    'stays search Lisbon --json name,platform': [...search, '--json', 'name,platform'],
    "stays search Lisbon --jq '.data[0].name'": [...search, '--jq', '.data[0].name'],
    'stays search Lisbon --jq \'[.data[] | select(.platform == "booking") | {name, guestRating}]\'': [...search, '--jq', '[.data[] | select(.platform == "booking") | {name, guestRating}]'],
  };
  const times = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
  for (let i = 0; i < 3; i++) for (const args of Object.values(targets)) wallMs(args, env); // warm the file and code caches
  for (let i = 0; i < RUNS; i++) for (const [name, args] of Object.entries(targets)) times[name].push(wallMs(args, env));
  rmSync(root, { recursive: true, force: true });
  const node = median(times['node -e 0']);
  const json = median(times['stays search Lisbon --json']);
  return Object.entries(times).map(([target, xs]) => ({
    target,
    'median ms': fmt(median(xs)),
    'ratio to node -e 0': fmt(median(xs) / node, 2),
    'ratio to --json': target === 'node -e 0' ? '' : fmt(median(xs) / json, 2),
    'ms over --json': target === 'node -e 0' ? '' : fmt(median(xs) - json),
  }));
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await benchJq());
