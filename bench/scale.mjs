// Issue 14: throughput of `stays serve` on PostgreSQL, one instance and two on one database,
// against one instance on SQLite (the default store), in the same run.
//
// Targets, all started before the first measurement and then measured alternately, round by
// round (the idle ones wait):
//   (a) one `stays serve` on SQLite (a fresh data directory),
//   (b) one `stays serve` on PostgreSQL (a fresh database this bench creates and drops),
//   (c) (b)'s instance and a second one on the same database, the load split evenly over both
//       (two autocannon runs at once, half the connections each; throughput summed).
// Workload "live": a live key's cached search, GET /v1/search?location=Lisbon&platforms=airbnb on
// the simulated upstream, warmed by one call first. Every request authenticates, takes a token
// from the key's rate bucket (on PostgreSQL a row every instance shares), holds credits, reads the
// cache, and settles the charge with its ledger row. Workload "live-accounts": the same, the
// requests taking the keys of ACCOUNTS accounts in turn (one balance row and one bucket each, where
// "live" puts every request on one of each). Workload "sandbox": the same GET with a sandbox key
// (auth and the rate bucket only; the page is memoised in the process).
// The ledger is checked at the end: every charge row accounted for, balance = grant - charges,
// nothing held, and the rows' balances form one unbroken chain (no lost update across instances).
// CPU use per process (servers, PostgreSQL's backends, this process, which runs autocannon) is
// read from /proc over each measurement, to show what bounds the two-instance figure, and so are
// PostgreSQL's WAL flushes per answered call (server-wide: pg_stat_wal).
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { BIN, fmt } from './lib.mjs';

const SECONDS = Number(process.env.BENCH_SCALE_SECONDS ?? 8);
const WARMUP = Number(process.env.BENCH_SCALE_WARMUP ?? 2);
const ROUNDS = Number(process.env.BENCH_SCALE_ROUNDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_SCALE_CONNECTIONS ?? 16); // in all, split over the instances
const WORKLOADS = (process.env.BENCH_SCALE_WORKLOADS ?? 'live,live-accounts,sandbox').split(',');
// live-accounts: the live workload spread over this many accounts (a key each), one balance row each.
const ACCOUNTS = Number(process.env.BENCH_SCALE_ACCOUNTS ?? 8);
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? process.env.STAYS_TEST_PG_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const PATH = '/v1/search?location=Lisbon&platforms=airbnb';

const CLK = 100; // USER_HZ: /proc's CPU times are in 1/100 s on Linux

/** CPU seconds of a process so far (user + system), or 0 if it is gone. */
function cpuOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / CLK;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds of PostgreSQL's processes, by pid: the server's own (postmaster, WAL writer,
 * checkpointer, …) and the backends connected to `db`; other databases' backends (other work on a
 * shared machine) are left out.
 */
function postgresCpu(db) {
  const by = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/comm`, 'utf8').trim() !== 'postgres') continue;
      // A backend's title is "postgres: 15/main: user database host(port) state".
      const backend = /^postgres: [^:]+: (\S+) (\S+) \S+\(\d+\)/.exec(readFileSync(`/proc/${d}/cmdline`, 'utf8'));
      if (!backend || backend[2] === db) by.set(d, cpuOf(d));
    } catch {
      // gone meanwhile
    }
  }
  return by;
}

/** The machine's busy and total CPU seconds so far, all cores (/proc/stat). */
function machineCpu() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = f[3] + f[4];
  const total = f.slice(0, 8).reduce((s, x) => s + x, 0);
  return { busy: (total - idle) / CLK, total: total / CLK };
}

function cpuSnapshot(pids, db) {
  const self = process.cpuUsage();
  return { at: performance.now(), self: (self.user + self.system) / 1e6, servers: pids.map(cpuOf), pg: postgresCpu(db), machine: machineCpu() };
}

/** Cores used over the interval, per part. */
function cpuDelta(a, b) {
  const wall = (b.at - a.at) / 1000;
  let pgSecs = 0;
  for (const [pid, secs] of b.pg) pgSecs += secs - (a.pg.get(pid) ?? 0);
  const servers = b.servers.reduce((s, x, i) => s + x - a.servers[i], 0);
  const self = b.self - a.self;
  const busy = b.machine.busy - a.machine.busy;
  return { servers: servers / wall, postgres: pgSecs / wall, client: self / wall, other: Math.max(0, busy - servers - pgSecs - self) / wall, machine: busy / wall };
}

/**
 * WAL flushes (fdatasync of the WAL) of the whole PostgreSQL server so far (pg_stat_wal, >= 14):
 * per answered call, how many commits waited for the disk. Server-wide, so other databases' work
 * on a shared machine counts too; 0 where the view is missing.
 */
async function walSyncs() {
  try {
    return Number((await pgAdmin('SELECT wal_sync FROM pg_stat_wal')).rows[0].wal_sync);
  } catch {
    return 0;
  }
}

/** One `stays serve`, its pid, and a stop that always ends it (SIGKILL after 15 s). */
export async function serve(args, env) {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    env: { ...process.env, STAYS_LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(t);
  };
  try {
    const url = await new Promise((res, rej) => {
      let err = '';
      child.stderr.on('data', (d) => {
        err += d;
        const m = /listening on (http:\/\/\S+)/.exec(err);
        if (m) res(m[1]);
      });
      child.once('exit', (code) => rej(new Error(`stays serve exited ${code}: ${err}`)));
    });
    return { url, pid: child.pid, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** `stays admin …` on a store, its JSON answer. */
export function admin(store, env, ...args) {
  return JSON.parse(execFileSync(process.execPath, [BIN, 'admin', ...args, '--json', ...store], { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 1 << 30 }));
}

/** An enterprise account with a large balance and rpm, and a live key (and a sandbox key). */
export function provision(store, env, sandbox) {
  const acct = admin(store, env, 'account', 'create', '--plan', 'enterprise', '--credits', '100000000', '--rpm', '1000000');
  const keys = { live: admin(store, env, 'key', 'create', '--account', acct.id, '--env', 'live').key };
  if (sandbox) keys.sandbox = admin(store, env, 'key', 'create', '--account', acct.id, '--env', 'sandbox').key;
  return { accountId: acct.id, granted: acct.credits.balance, keys };
}

export async function pgAdmin(sql) {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 5000 });
  await c.connect();
  try {
    return await c.query(sql);
  } finally {
    await c.end().catch(() => undefined);
  }
}

function run(opts) {
  return new Promise((res, rej) => {
    autocannon({ ...opts, skipAggregateResult: true }, (err, r) => (err ? rej(err) : res(r)));
  });
}

/** Load spread evenly over the target's servers at once (and over the keys, in turn); one result for all of it. */
async function load(urls, keys, duration) {
  const per = Math.max(1, Math.floor(CONNECTIONS / urls.length));
  let n = 0;
  const opts = (u) =>
    keys.length === 1
      ? { url: u + PATH, headers: { authorization: `Bearer ${keys[0]}` } }
      : { url: u + PATH, requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, headers: { ...req.headers, authorization: `Bearer ${keys[n++ % keys.length]}` } }) }] };
  const raw = await Promise.all(urls.map((u) => run({ ...opts(u), connections: per, duration })));
  const r = autocannon.aggregateResult(raw, { url: urls[0] + PATH, connections: per * urls.length });
  // Each run lasts `duration` (they start together); requests completed in that time, summed.
  const seconds = Math.max(...raw.map((x) => x.duration));
  return {
    rps: raw.reduce((s, x) => s + x.totalCompletedRequests, 0) / seconds,
    ok: r['2xx'],
    total: r.requests.sent,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    codes: r.statusCodeStats,
    p50: r.latency.p50,
    p99: r.latency.p99,
  };
}

/** One live call on each server: answered from the cache (the first warmed it), and what it charged. */
async function prime(urls, key, live) {
  const charges = [];
  for (const [i, u] of urls.entries()) {
    const res = await fetch(u + PATH, { headers: { authorization: `Bearer ${key}`, ...(i === 0 ? { prefer: 'wait=30' } : {}) } });
    const body = await res.json();
    if (res.status !== 200) throw new Error(`${u}${PATH} answered ${res.status}: ${JSON.stringify(body)}`);
    if (live && i > 0 && body.meta.cached !== true) throw new Error(`${u}: the cache another instance wrote was not used`);
    charges.push(body.meta.creditsCharged);
  }
  const again = await fetch(urls.at(-1) + PATH, { headers: { authorization: `Bearer ${key}` } });
  const body = await again.json();
  if (again.status !== 200 || (live && body.meta.cached !== true)) throw new Error(`a repeated call was not a cached 200: ${again.status} ${JSON.stringify(body.meta ?? body)}`);
  charges.push(body.meta.creditsCharged);
  return charges;
}

/** An account's ledger after the run: its facts, and what is not exact about it. */
function checkLedger(store, env, acct, perCall) {
  const a = admin(store, env, 'account', 'show', acct.accountId, '--ledger', '100000000');
  const rows = a.ledger;
  if (rows.length !== a.ledgerRows) return { error: `ledger: ${rows.length} of ${a.ledgerRows} rows read` };
  const charges = rows.filter((r) => r.kind === 'charge');
  const others = rows.filter((r) => r.kind !== 'charge' && r.kind !== 'grant');
  const charged = charges.reduce((s, r) => s - r.amount, 0);
  const problems = [];
  if (others.length) problems.push(`${others.length} rows of other kinds (${[...new Set(others.map((r) => r.kind))]})`);
  if (a.credits.held !== 0) problems.push(`${a.credits.held} credits still held`);
  if (a.credits.balance !== acct.granted - charged) problems.push(`balance ${a.credits.balance} != ${acct.granted} - ${charged}`);
  if (a.credits.spent !== charged) problems.push(`spent ${a.credits.spent} != charges ${charged}`);
  if (charges.some((r) => r.amount !== -perCall)) problems.push(`charges other than ${perCall}: ${[...new Set(charges.map((r) => r.amount))]}`);
  if (new Set(charges.map((r) => r.requestId)).size !== charges.length) problems.push('a request charged twice');
  // Every row's balance follows from the one before it (charges only lower it: one order).
  const chain = [...rows].sort((x, y) => y.balanceAfter - x.balanceAfter);
  for (let i = 1; i < chain.length; i++) {
    if (chain[i - 1].balanceAfter + chain[i].amount !== chain[i].balanceAfter) {
      problems.push(`broken balance chain at ${chain[i].id}: ${chain[i - 1].balanceAfter} ${chain[i].amount} -> ${chain[i].balanceAfter}`);
      break;
    }
  }
  return { charges: charges.length, charged, problems: problems.map((p) => `${acct.accountId}: ${p}`) };
}

/** Every account of a store exact, and every 200 the client saw charged once. */
function checkLedgers(store, env, accounts, perCall, seen) {
  const each = accounts.map((a) => checkLedger(store, env, a, perCall));
  const charges = each.reduce((s, l) => s + l.charges, 0);
  const problems = each.flatMap((l) => l.problems);
  // The client saw `ok` 200s; requests in flight when autocannon stopped were answered (and
  // charged) after it closed their connections: at most one per connection per run.
  const extra = charges - seen.ok;
  if (extra < 0 || extra > seen.inflight) problems.push(`${charges} charge rows for ${seen.ok} 200s seen (up to ${seen.inflight} more allowed)`);
  return { accounts: accounts.length, charges, charged: each.reduce((s, l) => s + l.charged, 0), extra, error: problems.length ? problems.join('; ') : undefined };
}

export async function benchScale() {
  try {
    await pgAdmin('SELECT 1');
  } catch (e) {
    if (process.env.BENCH_PG_REQUIRED === '1') throw new Error(`PostgreSQL at ${PG_ADMIN_URL} cannot be used: ${e.message}`);
    return [{ name: `skipped: PostgreSQL at ${PG_ADMIN_URL} cannot be used (${e.message}); set BENCH_PG_URL` }];
  }
  const cleanups = [];
  const cleanup = async () => {
    for (const f of cleanups.splice(0).reverse()) await f().catch((e) => process.stderr.write(`scale cleanup: ${e.message}\n`));
  };
  // Interrupted (Ctrl-C), the children die with the terminal's signal; the database and directory
  // would not: drop them, then exit as the signal would have.
  const onSignal = (sig) => void cleanup().finally(() => process.exit(sig === 'SIGINT' ? 130 : 143));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const results = {};
  const before = { load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ') };
  try {
    // Stores and servers.
    const dataDir = mkdtempSync(join(tmpdir(), 'stays-bench-scale-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const dbName = `stays_bench_${process.pid}_${Date.now().toString(36)}`;
    await pgAdmin(`CREATE DATABASE ${dbName}`);
    cleanups.push(() => pgAdmin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`));
    const u = new URL(PG_ADMIN_URL);
    u.pathname = `/${dbName}`;
    const dbUrl = u.toString();

    const sqliteStore = ['--data-dir', dataDir];
    const pgStore = ['--database-url', dbUrl];
    const env = { STAYS_UPSTREAM: 'simulated' };
    const pgEnv = { ...env, STAYS_SECRET_KEY: randomBytes(32).toString('hex') };
    const spread = WORKLOADS.includes('live-accounts') ? ACCOUNTS - 1 : 0;
    const accts = {
      sqlite: [provision(sqliteStore, env, true), ...Array.from({ length: spread }, () => provision(sqliteStore, env, false))],
      pg: [provision(pgStore, pgEnv, true), ...Array.from({ length: spread }, () => provision(pgStore, pgEnv, false))],
    };

    const servers = {};
    const start = async (name, store, e) => {
      servers[name] = await serve(store, e);
      cleanups.push(servers[name].stop);
    };
    await start('sqlite', sqliteStore, env);
    await start('pg1', pgStore, pgEnv);
    await start('pg2', pgStore, pgEnv);
    const targets = {
      a: { store: 'sqlite', servers: [servers.sqlite] },
      b: { store: 'pg', servers: [servers.pg1] },
      c: { store: 'pg', servers: [servers.pg1, servers.pg2] },
    };

    // Client-seen 200s and runs per store, for the ledger check.
    const seen = { sqlite: { ok: 0, inflight: 0 }, pg: { ok: 0, inflight: 0 } };
    const perCall = {};
    for (const w of WORKLOADS) {
      const live = w !== 'sandbox';
      const keysOf = (s) => (w === 'sandbox' ? [accts[s][0].keys.sandbox] : w === 'live' ? [accts[s][0].keys.live] : accts[s].map((a) => a.keys.live));
      for (const [s, urls] of [
        ['sqlite', [servers.sqlite.url]],
        ['pg', [servers.pg1.url, servers.pg2.url]],
      ]) {
        // Warm: (a) and (b), then (c)'s second instance reads what (b)'s wrote; every key once.
        for (const key of keysOf(s)) {
          const charges = await prime(urls, key, live);
          if (!live) continue;
          perCall[s] ??= charges.at(-1);
          seen[s].ok += charges.length;
          if (charges.some((c) => c !== perCall[s])) throw new Error(`${s}: calls charged ${charges}`);
        }
      }
      const measure = async (t, duration) => {
        const urls = t.servers.map((s) => s.url);
        const pids = t.servers.map((s) => s.pid);
        const w0 = t.store === 'pg' ? await walSyncs() : 0;
        const c0 = cpuSnapshot(pids, dbName);
        const r = await load(urls, keysOf(t.store), duration);
        const cpu = cpuDelta(c0, cpuSnapshot(pids, dbName));
        const flushes = t.store === 'pg' ? (await walSyncs()) - w0 : undefined;
        if (live) {
          seen[t.store].ok += r.ok;
          seen[t.store].inflight += CONNECTIONS;
        }
        return { ...r, cpu, flushesPerCall: flushes === undefined ? undefined : flushes / Math.max(1, r.ok) };
      };
      for (const t of Object.values(targets)) await measure(t, WARMUP);
      const runs = { a: [], b: [], c: [] };
      for (let i = 0; i < ROUNDS; i++) {
        for (const [k, t] of Object.entries(targets)) runs[k].push(await measure(t, SECONDS));
      }
      results[w] = runs;
    }

    // Stop the servers (answers still in flight settle first), then read the ledgers.
    for (const s of Object.values(servers)) await s.stop();
    if (WORKLOADS.some((w) => w !== 'sandbox')) {
      results.ledger = {
        sqlite: checkLedgers(sqliteStore, env, accts.sqlite, perCall.sqlite, seen.sqlite),
        pg: checkLedgers(pgStore, pgEnv, accts.pg, perCall.pg, seen.pg),
      };
    }
  } finally {
    await cleanup();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  const after = { load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ') };

  const rows = [];
  const bad = [];
  const avg = (xs, f) => xs.reduce((s, x) => s + f(x), 0) / xs.length;
  for (const w of WORKLOADS) {
    const runs = results[w];
    const s = {};
    for (const [k, rs] of Object.entries(runs)) {
      s[k] = { rps: avg(rs, (r) => r.rps), p50: avg(rs, (r) => r.p50), p99: avg(rs, (r) => r.p99) };
      const cpu = (f) =>
        fmt(
          avg(rs, (r) => f(r.cpu)),
          2,
        );
      const label = { a: '(a) 1 x SQLite', b: '(b) 1 x PostgreSQL', c: '(c) 2 x PostgreSQL' }[k];
      rows.push({
        name: `${w === 'live-accounts' ? `live, ${ACCOUNTS} accounts` : w}: ${label}`,
        'req/s': fmt(s[k].rps, 0),
        rounds: rs.map((r) => fmt(r.rps, 0)).join(' / '),
        p50: `${fmt(s[k].p50, 1)} ms`,
        p99: `${fmt(s[k].p99, 1)} ms`,
        'cores: stays / pg / client / rest': `${cpu((c) => c.servers)} / ${cpu((c) => c.postgres)} / ${cpu((c) => c.client)} / ${cpu((c) => c.other)}`,
        'WAL flushes / 200':
          rs[0].flushesPerCall === undefined
            ? ''
            : fmt(
                avg(rs, (r) => r.flushesPerCall),
                3,
              ),
      });
      for (const r of rs) if (r.non2xx + r.errors > 0) bad.push(`${w} ${label}: ${r.non2xx} non-2xx ${JSON.stringify(r.codes)}, ${r.errors} errors`);
    }
    const wn = w === 'live-accounts' ? `live, ${ACCOUNTS} accounts` : w;
    // Issue 23's budgets: one account's live call at >= 0.6 of SQLite; two instances with several
    // accounts at >= 1.0 of one.
    const budget = (ratio, min) => (min === undefined ? '' : `>= ${min}: ${ratio >= min ? 'ok' : 'over'}`);
    const bOverA = s.b.rps / s.a.rps;
    const cOverB = s.c.rps / s.b.rps;
    rows.push({ name: `${wn}: ratio (b) / (a), PostgreSQL / SQLite`, 'req/s': fmt(bOverA, 2), budget: budget(bOverA, w === 'live' ? 0.6 : undefined) });
    rows.push({ name: `${wn}: ratio (c) / (b), two instances / one`, 'req/s': fmt(cOverB, 2), budget: budget(cOverB, w === 'live-accounts' ? 1.0 : undefined) });
  }
  if (results.ledger) {
    for (const [store, l] of Object.entries(results.ledger)) {
      rows.push({
        name: `ledger, ${store}`,
        'req/s': l.error ? `NOT EXACT: ${l.error}` : `exact: ${l.accounts} accounts, ${l.charges} charges (${l.extra} after the client stopped), ${l.charged} credits`,
      });
      if (l.error) bad.push(`ledger ${store}: ${l.error}`);
    }
  }
  rows.push({
    name: 'machine',
    'req/s': `${readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm).length} cores, load ${before.load} -> ${after.load}, ${CONNECTIONS} connections, ${ROUNDS} x ${SECONDS} s after ${WARMUP} s`,
  });
  if (bad.length) {
    console.table(rows);
    throw new Error(`scale: ${bad.join('; ')}`);
  }
  return rows;
}
