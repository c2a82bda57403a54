// Memory under a unique-location sandbox load (issue 8, item 6): a free sandbox key asks for a new
// location on every request at limit=40, so every answer is a cache miss that the in-memory caches
// (memoised pages with their JSON bytes, search candidate sets) would keep. The server's peak RSS
// (VmHWM in /proc) is reported against the cache cap (STAYS_MEMORY_CACHE_MB), and the
// same load is run with a cap so high that only the old entry-count bounds remain and V8's own
// heap growth (the baseline: 1,024 pages and 512 candidate sets, as before the byte bound), and
// with the default cap but V8's own heap growth (what STAYS_HEAP_GROWTH_PERCENT buys, and costs),
// in the same run.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, cannon, fmt } from './lib.mjs';

const SECONDS = Number(process.env.BENCH_MEMORY_SECONDS ?? 30);
const CONNECTIONS = Number(process.env.BENCH_MEMORY_CONNECTIONS ?? 16);
// One run per cap (a comma-separated list), then the baseline.
const CAPS_MB = (process.env.BENCH_MEMORY_CAP_MB ?? '64').split(',').map(Number);
const UNBOUNDED_MB = 65_536; // the largest STAYS_MEMORY_CACHE_MB accepts
const LIMIT = 40;

const MB = 1024 * 1024;

/** VmRSS and VmHWM (the kernel's peak RSS) of a process, in bytes. */
function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** `stays serve` on its own temp data dir, with its pid (startProcess in lib.mjs does not expose it). */
async function serve(env) {
  const dataDir = mkdtempSync(join(tmpdir(), 'stays-bench-mem-'));
  const admin = (...a) => JSON.parse(execFileSync(process.execPath, [BIN, 'admin', ...a, '--json', '--data-dir', dataDir], { encoding: 'utf8' }));
  const acct = admin('account', 'create', '--plan', 'free', '--rpm', '100000000');
  const key = admin('key', 'create', '--account', acct.id, '--env', 'sandbox').key;
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir], {
    env: { ...process.env, STAYS_LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = await new Promise((res, rej) => {
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) res(m[1]);
    });
    child.once('exit', (code) => rej(new Error(`stays serve exited ${code}: ${err}`)));
  });
  const stop = async () => {
    if (child.exitCode === null)
      await new Promise((r) => {
        child.once('exit', r);
        child.kill('SIGTERM');
      });
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { url, key, pid: child.pid, stop };
}

async function run(label, capMb, prefix, env = {}) {
  const s = await serve({ STAYS_MEMORY_CACHE_MB: String(capMb), ...env });
  try {
    const auth = { authorization: `Bearer ${s.key}` };
    const first = await fetch(`${s.url}/v1/search?location=${encodeURIComponent(`${prefix} warm-up`)}&limit=${LIMIT}`, { headers: auth });
    if (first.status !== 200) throw new Error(`warm-up search answered ${first.status}: ${await first.text()}`);
    const idle = rssOf(s.pid).rss;
    let n = 0;
    const r = await cannon({
      url: s.url,
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: auth,
      requests: [
        {
          method: 'GET',
          // A location never asked before, on every request.
          setupRequest: (req) => ({ ...req, path: `/v1/search?location=${encodeURIComponent(`${prefix} ${n++}`)}&limit=${LIMIT}` }),
        },
      ],
    });
    // The kernel keeps the peak (VmHWM): no sample can miss it.
    const end = rssOf(s.pid);
    if (n < r.requests.total) throw new Error(`${label}: ${r.requests.total} requests but only ${n} locations`);
    const bad = r.non2xx + r.errors;
    if (bad > 0) throw new Error(`${label}: ${bad} non-2xx answers or errors`);
    return { label, capMb, rps: r.requests.average, requests: r.requests.total, idle, hwm: end.hwm, end: end.rss };
  } finally {
    await s.stop();
  }
}

export async function benchMemory() {
  // Each run's locations are new to its server; the prefixes keep the runs' locations apart too.
  const capped = [];
  for (const cap of CAPS_MB) capped.push(await run(`cap ${cap} MB (STAYS_MEMORY_CACHE_MB=${cap})`, cap, `Capville ${cap}`));
  const v8Growth = await run(`cap ${CAPS_MB[0]} MB, V8's own heap growth (STAYS_HEAP_GROWTH_PERCENT=0)`, CAPS_MB[0], 'Growville', { STAYS_HEAP_GROWTH_PERCENT: '0' });
  const baseline = await run('baseline: count bounds only, V8 heap growth (STAYS_MEMORY_CACHE_MB=65536 STAYS_HEAP_GROWTH_PERCENT=0)', UNBOUNDED_MB, 'Countville', {
    STAYS_HEAP_GROWTH_PERCENT: '0',
  });
  const row = (r) => ({
    name: r.label,
    'req/s': fmt(r.rps, 0),
    requests: r.requests,
    'idle RSS': `${fmt(r.idle / MB, 0)} MB`,
    'peak RSS': `${fmt(r.hwm / MB, 0)} MB`,
    'peak - idle': `${fmt((r.hwm - r.idle) / MB, 0)} MB`,
    '(peak - idle) / cap': r.capMb === UNBOUNDED_MB ? '' : fmt((r.hwm - r.idle) / MB / r.capMb, 2),
    'RSS at end': `${fmt(r.end / MB, 0)} MB`,
  });
  return [
    ...capped.map(row),
    row(v8Growth),
    row(baseline),
    { name: `req/s, cap ${CAPS_MB[0]} MB / same with V8's own heap growth`, 'req/s': fmt(capped[0].rps / v8Growth.rps, 2) },
    ...capped.map((c) => ({ name: `peak RSS, cap ${c.capMb} MB / baseline`, 'peak RSS': fmt(c.hwm / baseline.hwm, 2) })),
    ...capped.map((c) => ({ name: `cap ${c.capMb} MB: peak RSS < 250 MB (issue 8)`, 'peak RSS': c.hwm < 250 * MB ? 'met' : 'not met' })),
  ];
}
