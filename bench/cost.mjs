// CPU per request of `stays serve` answering the sandbox search, for A/B of builds on a busy
// machine where req/s moves with the load: `node bench/cost.mjs N DIR_A [DIR_B …]` starts each
// build's server in turn (rounds alternate the order), sends a warm-up, then exactly N requests
// (autocannon -a N, 10 connections), and prints the server's CPU time (user + system, from
// /proc) per request, median of BENCH_ROUNDS (default 3) rounds. Under BENCH_CALLGRIND=1 the
// server runs under valgrind --tool=callgrind and the figure is instructions per request: the
// difference between a run of W+N requests and one of W (start-up and warm-up cancel out);
// slow on a busy machine, and the server's JIT and GC timing moved it 20% between identical runs.
// BENCH_QUERY changes the request (default the search of bench/http.mjs). A DIR of `fixed` is
// bench/hello.mjs answering the bytes of the first build's answer (list a build first).
// DIR+NAME=VALUE+… runs that build's server with those environment variables.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, cannon, median } from './lib.mjs';

const [n, ...dirs] = process.argv.slice(2);
if (!n || dirs.length === 0) {
  console.error('usage: node bench/cost.mjs N DIR_A [DIR_B …]');
  process.exit(2);
}
const N = Number(n);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARM = Number(process.env.BENCH_WARM ?? 20_000);
const QUERY = process.env.BENCH_QUERY ?? '/v1/search?location=Lisbon&limit=10';
const CALLGRIND = process.env.BENCH_CALLGRIND === '1';

const clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
const cpuMs = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / clockTicks;
};

function provision(target) {
  const dir = target.split('+')[0];
  if (dir === 'fixed') return { dataDir: mkdtempSync(join(tmpdir(), 'stays-cost-')), key: 'none' };
  const dataDir = mkdtempSync(join(tmpdir(), 'stays-cost-'));
  const admin = (...a) =>
    JSON.parse(execFileSync(process.execPath, [join(dir, 'bin', 'stays'), 'admin', ...a, '--json', '--data-dir', dataDir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  const acct = admin('account', 'create', '--plan', 'enterprise', '--rpm', '100000000', '--credits', '100000000');
  return { dataDir, key: admin('key', 'create', '--account', acct.id, '--env', 'sandbox').key };
}

// `fixed`: bench/hello.mjs answering the bytes the first build answers (the same-body baseline).
let bodyFile;
function serve(target, dataDir, outDir) {
  const [dir, ...vars] = target.split('+');
  const args = dir === 'fixed' ? [join(ROOT, 'bench', 'hello.mjs')] : [join(dir, 'bin', 'stays'), 'serve', '--port', '0', '--data-dir', dataDir];
  const cmd = CALLGRIND ? 'valgrind' : process.execPath;
  const full = CALLGRIND ? ['--tool=callgrind', '--smc-check=all', '--trace-children=no', `--callgrind-out-file=${join(outDir, 'cg.%p')}`, process.execPath, '--single-threaded', ...args] : args;
  const child = spawn(cmd, full, {
    env: { ...process.env, STAYS_LOG_LEVEL: 'silent', BENCH_BODY_FILE: bodyFile, ...Object.fromEntries(vars.map((v) => v.split('='))) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((res, rej) => {
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m)
        res({
          url: m[1],
          pid: child.pid,
          stop: () =>
            new Promise((r) => {
              child.once('exit', r);
              child.kill('SIGTERM');
            }),
        });
    });
    child.once('exit', (code) => rej(new Error(`exited ${code}: ${err}`)));
  });
}

async function once(dir, prov, count) {
  const out = CALLGRIND ? mkdtempSync(join(tmpdir(), 'stays-cg-')) : undefined;
  const s = await serve(dir, prov.dataDir, out);
  const headers = { authorization: `Bearer ${prov.key}` };
  const url = dir === 'fixed' ? `${s.url}/v1/fixed` : s.url + QUERY;
  if (dir !== 'fixed' && bodyFile === undefined) {
    bodyFile = join(scratch, 'body.json');
    writeFileSync(bodyFile, Buffer.from(await (await fetch(url, { headers })).arrayBuffer()));
  }
  try {
    const w = await cannon({ url, headers, amount: WARM, duration: 600, timeout: 600 });
    if (w.non2xx + w.errors > 0) throw new Error(`${dir}: ${w.non2xx} non-2xx during warm-up`);
    const before = CALLGRIND ? 0 : cpuMs(s.pid);
    if (count > 0) {
      const r = await cannon({ url, headers, amount: count, duration: 600, timeout: 600 });
      if (r.non2xx + r.errors > 0) throw new Error(`${dir}: ${r.non2xx} non-2xx`);
    }
    if (!CALLGRIND) return cpuMs(s.pid) - before;
  } finally {
    await s.stop();
  }
  const file = readdirSync(out).find((f) => f.startsWith('cg.'));
  const text = readFileSync(join(out, file), 'utf8');
  rmSync(out, { recursive: true, force: true });
  return Number(/^summary: (\d+)/m.exec(text)?.[1] ?? /^totals: (\d+)/m.exec(text)?.[1]);
}

const scratch = mkdtempSync(join(tmpdir(), 'stays-cost-body-'));
const provs = Object.fromEntries(dirs.map((d) => [d, provision(d)]));
const per = Object.fromEntries(dirs.map((d) => [d, []]));
try {
  for (let i = 0; i < ROUNDS; i++) {
    for (const d of i % 2 ? [...dirs].reverse() : dirs) {
      if (CALLGRIND) {
        const base = await once(d, provs[d], 0);
        const full = await once(d, provs[d], N);
        per[d].push((full - base) / N);
      } else {
        per[d].push((await once(d, provs[d], N)) / N);
      }
    }
  }
} finally {
  for (const p of Object.values(provs)) rmSync(p.dataDir, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
}
const unit = CALLGRIND ? 'instructions' : 'µs CPU';
const scale = CALLGRIND ? 1 : 1000;
const ref = median(per[dirs[0]]);
for (const d of dirs) {
  const m = median(per[d]);
  console.log(
    `${d}: ${(m * scale).toFixed(CALLGRIND ? 0 : 1)} ${unit}/request (rounds: ${per[d].map((x) => (x * scale).toFixed(CALLGRIND ? 0 : 1)).join(', ')}) ${d === dirs[0] ? '' : `ratio ${(m / ref).toFixed(3)}`}`,
  );
}
