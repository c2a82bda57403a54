// Issue 21 (3): where one `stays serve` on PostgreSQL stops keeping up, against one on SQLite in
// the same run. The live workload over ACCOUNTS accounts (a cached billed search, each request
// authenticating, taking a token, holding, reading the cache and settling with its ledger row), at
// growing numbers of concurrent connections. For each level: requests answered 200 per second,
// p50/p99 latency, and what the rest were: typed 503s (service_overloaded: the pool's queue is
// full or a wait passed STAYS_DATABASE_QUEUE_TIMEOUT_MS), and anything else (a 500 would be a
// defect: the run fails on one). Default settings (pool 10, queue 1000, 5 s).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { fmt } from './lib.mjs';
import { pgAdmin, provision, serve } from './scale.mjs';

const LEVELS = (process.env.BENCH_KNEE_LEVELS ?? '16,64,256,1000').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_KNEE_SECONDS ?? 6);
const ACCOUNTS = Number(process.env.BENCH_KNEE_ACCOUNTS ?? 8);
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? process.env.STAYS_TEST_PG_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const PATH = '/v1/search?location=Lisbon&platforms=airbnb';

function run(url, keys, connections, duration) {
  let n = 0;
  return new Promise((res, rej) => {
    autocannon(
      {
        url: url + PATH,
        connections,
        duration,
        timeout: 30,
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, headers: { ...req.headers, authorization: `Bearer ${keys[n++ % keys.length]}` } }) }],
      },
      (err, r) => (err ? rej(err) : res(r)),
    );
  });
}

export async function benchKnee() {
  try {
    await pgAdmin('SELECT 1');
  } catch (e) {
    return [{ name: `skipped: PostgreSQL at ${PG_ADMIN_URL} cannot be used (${e.message}); set BENCH_PG_URL` }];
  }
  const cleanups = [];
  const rows = [];
  const bad = [];
  const loadBefore = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  try {
    const dataDir = mkdtempSync(join(tmpdir(), 'stays-bench-knee-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const dbName = `stays_bench_knee_${process.pid}_${Date.now().toString(36)}`;
    await pgAdmin(`CREATE DATABASE ${dbName}`);
    cleanups.push(() => pgAdmin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`));
    const u = new URL(PG_ADMIN_URL);
    u.pathname = `/${dbName}`;
    const env = { STAYS_UPSTREAM: 'simulated' };
    const targets = {
      sqlite: { store: ['--data-dir', dataDir], env },
      postgres: { store: ['--database-url', u.toString()], env: { ...env, STAYS_SECRET_KEY: randomBytes(32).toString('hex') } },
    };
    const figures = {};
    for (const [name, t] of Object.entries(targets)) {
      const keys = Array.from({ length: ACCOUNTS }, () => provision(t.store, t.env, false).keys.live);
      const server = await serve(t.store, t.env);
      cleanups.push(server.stop);
      // Warm the cache (the first call runs the job).
      for (const key of keys) {
        const res = await fetch(server.url + PATH, { headers: { authorization: `Bearer ${key}`, prefer: 'wait=30' } });
        if (res.status !== 200) throw new Error(`${name}: warming answered ${res.status}: ${await res.text()}`);
      }
      await run(server.url, keys, 16, 2);
      figures[name] = {};
      for (const c of LEVELS) {
        const r = await run(server.url, keys, c, SECONDS);
        const codes = r.statusCodeStats ?? {};
        const count = (s) => codes[s]?.count ?? 0;
        const total = Object.values(codes).reduce((s, x) => s + x.count, 0);
        const other = total - count('200') - count('503');
        figures[name][c] = { rps: count('200') / r.duration, p50: r.latency.p50, p99: r.latency.p99, shed: total ? count('503') / total : 0 };
        rows.push({
          name: `${name}, ${c} connections`,
          '200/s': fmt(figures[name][c].rps, 0),
          p50: `${fmt(r.latency.p50, 0)} ms`,
          p99: `${fmt(r.latency.p99, 0)} ms`,
          '503 share': `${fmt(100 * figures[name][c].shed, 1)} %`,
          other: `${other}${r.errors + r.timeouts ? ` (+${r.errors + r.timeouts} socket errors)` : ''}`,
        });
        if (other > 0) bad.push(`${name} at ${c}: ${other} answers neither 200 nor 503 ${JSON.stringify(codes)}`);
      }
      await server.stop();
    }
    for (const c of LEVELS) {
      rows.push({ name: `ratio PostgreSQL / SQLite, ${c} connections`, '200/s': fmt(figures.postgres[c].rps / figures.sqlite[c].rps, 2) });
    }
    for (const name of Object.keys(targets)) {
      rows.push({ name: `ratio ${name} at ${LEVELS.at(-1)} / at ${LEVELS[0]} connections`, '200/s': fmt(figures[name][LEVELS.at(-1)].rps / figures[name][LEVELS[0]].rps, 2) });
    }
  } finally {
    for (const f of cleanups.splice(0).reverse()) await f().catch(() => undefined);
  }
  rows.push({ name: 'machine', '200/s': `load ${loadBefore} -> ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}, ${ACCOUNTS} accounts, ${SECONDS} s a level` });
  if (bad.length) {
    console.table(rows);
    throw new Error(`knee: ${bad.join('; ')}`);
  }
  return rows;
}
