// Issue 26's two budgets for the history, on SQLite (node bench/run.mjs history, or this file):
//
// 1. GET /v1/history/price over a store holding a million observations answers in under 20 ms
//    at the median. The store is filled directly (one transaction of raw inserts matching
//    src/store/sql/observations.ts's rows: many listings, each with search, rating, quote and
//    calendar series of realistic lengths, rows interleaved in time as a deployment records
//    them), then the real `stays serve` answers a live key over loopback HTTP. The baseline,
//    alternated in the same run: the same read on a store holding only a thousand observations.
//    The query's plan (EXPLAIN QUERY PLAN) is printed with the figures.
// 2. Recording observations adds at most 5% to a live search's server time: two servers on the
//    simulated upstream with no latency, STAYS_HISTORY=on and off, each live search a cache miss
//    (a new location each time, the same sequence on both), run in alternated blocks; the server's
//    own time of each request is read from its request log (`ms`).
//
// The read runs on PostgreSQL too (read-pg) when a server answers at BENCH_PG_URL or
// STAYS_TEST_PG_URL (default postgres://root@127.0.0.1:5432/postgres): filled in one transaction
// with unnest, then ANALYZE.
//
// Knobs: BENCH_HISTORY_OBSERVATIONS (1000000), BENCH_HISTORY_READS (300 per store, split over
// the rounds), BENCH_HISTORY_SEARCHES (60 per server, split over the rounds),
// BENCH_HISTORY_ROUNDS (3), BENCH_HISTORY_PARTS (read,read-pg,record).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { BIN, PG_ADMIN_URL, fmt, pgDatabase } from './lib.mjs';

const OBSERVATIONS = Number(process.env.BENCH_HISTORY_OBSERVATIONS ?? 1_000_000);
const READS = Number(process.env.BENCH_HISTORY_READS ?? 300);
const SEARCHES = Number(process.env.BENCH_HISTORY_SEARCHES ?? 60);
const ROUNDS = Number(process.env.BENCH_HISTORY_ROUNDS ?? 3);
const PARTS = (process.env.BENCH_HISTORY_PARTS ?? 'read,read-pg,record').split(',');

const DAY = 86_400_000;
const PLATFORMS = ['airbnb', 'booking', 'vrbo', 'google'];
/** The series the read asks for: listing 0's first stay, 30 distinct prices (a month of 6-hourly runs, changing daily). */
const TARGET = { platform: 'airbnb', listingId: '70000000', checkIn: '2027-06-01', checkOut: '2027-06-04', adults: 2, length: 30 };

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

/** A data directory with an enterprise account and its live key (the CLI's admin, which also migrates the store). */
function provision(env = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'stays-bench-history-'));
  const admin = (...a) =>
    JSON.parse(execFileSync(process.execPath, [BIN, 'admin', ...a, '--json', '--data-dir', dataDir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, ...env } }));
  const acct = admin('account', 'create', '--plan', 'enterprise', '--rpm', '100000000', '--credits', '100000000');
  return { dataDir, liveKey: admin('key', 'create', '--account', acct.id, '--env', 'live').key };
}

/** `stays serve` with its request log (pino, on stdout): `ms(path)` drains the server times logged for a path since the last call. */
function serve(dataDir, env) {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir], {
    env: { ...process.env, STAYS_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const times = new Map();
  const lines = (stream, onLine) => {
    let buf = '';
    stream.on('data', (d) => {
      buf += d;
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        onLine(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
      }
    });
  };
  let failed = null;
  lines(child.stdout, (line) => {
    if (!line.startsWith('{')) return;
    const r = JSON.parse(line);
    if (r.msg !== 'request' || typeof r.ms !== 'number') return;
    if (r.status >= 300) failed ??= new Error(`${r.method} ${r.path} answered ${r.status}`);
    times.set(r.path, [...(times.get(r.path) ?? []), r.ms]);
  });
  return new Promise((res, rej) => {
    lines(child.stderr, (line) => {
      const m = /listening on (http:\/\/\S+)/.exec(line);
      if (!m) return;
      res({
        url: m[1],
        ms: (path) => {
          if (failed) throw failed;
          const xs = times.get(path) ?? [];
          times.set(path, []);
          return xs;
        },
        stop: () =>
          new Promise((r) => {
            child.once('exit', r);
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => rej(new Error(`stays serve exited ${code}`)));
  });
}

/**
 * `n` observations in one transaction, as src/store/sql/observations.ts writes them: per listing
 * a search series (10 rows), a rating series (3), three quote series (10 to 30 rows, 60 in all;
 * listing 0's first is TARGET) and 14 nights of calendar (two rows each: seen available, then
 * booked). Rows are written step by step across every series (row j of each series, then row j+1),
 * so a series' rows lie far apart in the table as they do when a deployment records them.
 */
function* rowsOf(n, now) {
  const PER_LISTING = 10 + 3 + 60 + 28;
  const listings = Math.max(1, Math.floor(n / PER_LISTING));
  const start = now - 60 * DAY;
  const series = [];
  for (let l = 0; l < listings; l++) {
    const platform = PLATFORMS[l % PLATFORMS.length];
    const id = String(70_000_000 + l);
    const s = (kind, key, length, value) => series.push({ platform, id, kind, key, length, value });
    s('search', `city${l % 50}`, 10, (j) => ({ name: `Listing ${l}`, nightlyPrice: 100 + ((l + j) % 40), totalPrice: 300 + 3 * ((l + j) % 40) }));
    s('rating', '', 3, (j) => ({ guestRating: 4.5, ratingScale: 5, reviewCount: 20 + j }));
    const lengths = l === 0 ? [TARGET.length, 15, 15] : [10 + (l % 21), 30 - (l % 21), 20];
    lengths.forEach((len, k) => {
      const checkIn = new Date(Date.parse('2027-06-01') + (l % 90) * DAY * (l === 0 ? 0 : 1) + k * 7 * DAY).toISOString().slice(0, 10);
      const checkOut = new Date(Date.parse(checkIn) + 3 * DAY).toISOString().slice(0, 10);
      s('quote', `${checkIn}/${checkOut}/2`, len, (j) => ({ nightlyPrice: 120 + ((j * 7 + l) % 30), totalPrice: 3 * (120 + ((j * 7 + l) % 30)) + 50, fees: { cleaning: 50 } }));
    });
    for (let d = 0; d < 14; d++) {
      const date = new Date(Date.parse('2027-06-01') + d * DAY).toISOString().slice(0, 10);
      s('day', date, 2, (j) => ({ available: j === 0, minNights: 2, checkIn: null, checkOut: null, bookable: null }));
    }
  }
  const maxLen = series.reduce((m, s) => Math.max(m, s.length), 0);
  let written = 0;
  for (let j = 0; j < maxLen && written < n; j++) {
    for (const s of series) {
      if (j >= s.length || written >= n) continue;
      // Spread over 60 days; each value seen 4 times (6-hourly) before it changes.
      const first = start + Math.floor((j * 60 * DAY) / s.length);
      const last = first + 18 * 3_600_000;
      yield [
        `${s.platform}|${s.id}|${s.kind}|${s.key}`,
        s.platform,
        s.id,
        s.kind,
        s.key,
        s.kind === 'quote' || s.kind === 'search' ? 'USD' : null,
        JSON.stringify(s.value(j)),
        'simulated',
        first,
        last,
        4,
        j === s.length - 1 ? 1 : 0,
      ];
      written++;
    }
  }
}

const COLUMNS = 'okey, platform, listing_id, kind, key, currency, value, source, first_seen, last_seen, times_seen, latest';

function fill(file, n, now) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const insert = db.prepare(`INSERT INTO observations (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  db.transaction(() => {
    for (const r of rowsOf(n, now)) insert.run(...r);
  })();
  const count = db.prepare('SELECT COUNT(*) AS n FROM observations').get().n;
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return count;
}

/** The same rows into PostgreSQL: one transaction, 10,000 rows a statement (a column per array). */
async function fillPg(url, n, now) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const types = ['text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'bigint', 'bigint', 'int', 'int'];
  const sql = `INSERT INTO observations (${COLUMNS}) SELECT * FROM unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})`;
  await c.query('BEGIN');
  let cols = types.map(() => []);
  const send = async () => {
    if (cols[0].length > 0) await c.query(sql, cols);
    cols = types.map(() => []);
  };
  for (const r of rowsOf(n, now)) {
    r.forEach((v, i) => cols[i].push(v));
    if (cols[0].length === 10_000) await send();
  }
  await send();
  await c.query('COMMIT');
  await c.query('ANALYZE observations');
  const count = Number((await c.query('SELECT COUNT(*) AS n FROM observations')).rows[0].n);
  await c.end();
  return count;
}

/** The plan SQLite chooses for the price series read (src/store/sql/observations.ts, observationSeries). */
function planOf(file) {
  const db = new Database(file, { readonly: true });
  const rows = db
    .prepare('EXPLAIN QUERY PLAN SELECT * FROM observations WHERE okey = ? AND last_seen >= ? AND first_seen <= ? AND (first_seen, id) > (?, ?) ORDER BY first_seen, id LIMIT ?')
    .all('x', 0, 0, -1, -1, 101);
  db.close();
  return rows.map((r) => r.detail).join('; ');
}

/** PostgreSQL's plan for the same read. */
async function planOfPg(url) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const r = await c.query(`EXPLAIN SELECT * FROM observations WHERE okey = $1 AND last_seen >= $2 AND first_seen <= $3 AND (first_seen, id) > ($4, $5) ORDER BY first_seen, id LIMIT $6`, [
    `${TARGET.platform}|${TARGET.listingId}|quote|${TARGET.checkIn}/${TARGET.checkOut}/${TARGET.adults}`,
    0,
    Number.MAX_SAFE_INTEGER,
    -1,
    -1,
    101,
  ]);
  await c.end();
  return r.rows.map((x) => x['QUERY PLAN'].trim()).join('; ');
}

async function timedGet(url, key, headers = {}) {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}`, ...headers } });
  const body = await res.text();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 300)}`);
  return { ms, body };
}

async function benchRead(engine) {
  const now = Date.now();
  const stores = [
    { name: `${OBSERVATIONS.toLocaleString('en-US')} observations`, n: OBSERVATIONS },
    { name: '1,000 observations (baseline)', n: 1000 },
  ];
  for (const s of stores) {
    let env = {};
    if (engine === 'postgres') {
      s.pg = await pgDatabase('stays_bench_history');
      if (!s.pg) return [{ name: `PostgreSQL: no server at ${PG_ADMIN_URL}; skipped` }];
      // Instances on one database share the key that seals webhook secrets (any fixed one here).
      env = { STAYS_DATABASE_URL: s.pg.url, STAYS_SECRET_KEY: 'b'.repeat(64) };
    }
    Object.assign(s, provision(env));
    const t0 = performance.now();
    s.count = engine === 'postgres' ? await fillPg(s.pg.url, s.n, now) : fill(join(s.dataDir, 'stays.db'), s.n, now);
    s.fillS = (performance.now() - t0) / 1000;
    s.plan = engine === 'postgres' ? await planOfPg(s.pg.url) : planOf(join(s.dataDir, 'stays.db'));
    s.server = await serve(s.dataDir, { STAYS_UPSTREAM: 'simulated', ...env });
    s.client = [];
  }
  const q = new URLSearchParams({ platform: TARGET.platform, listingId: TARGET.listingId, checkIn: TARGET.checkIn, checkOut: TARGET.checkOut, adults: String(TARGET.adults) });
  const path = '/v1/history/price';
  try {
    for (const s of stores) {
      // Warm-up, and the answer checked: the whole series, oldest first.
      for (let i = 0; i < 20; i++) {
        const { body } = await timedGet(`${s.server.url}${path}?${q}`, s.liveKey);
        const data = JSON.parse(body).data;
        if (data.length !== TARGET.length) throw new Error(`expected ${TARGET.length} rows, got ${data.length}`);
      }
      s.server.ms(path);
    }
    const per = Math.max(1, Math.floor(READS / ROUNDS));
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of round % 2 === 0 ? stores : [...stores].reverse()) {
        for (let i = 0; i < per; i++) s.client.push((await timedGet(`${s.server.url}${path}?${q}`, s.liveKey)).ms);
        s.rounds = [...(s.rounds ?? []), quantile(s.client.slice(-per), 0.5)];
      }
    }
    for (const s of stores) s.serverMs = s.server.ms(path);
  } finally {
    for (const s of stores) {
      await s.server.stop();
      await s.pg?.drop();
      rmSync(s.dataDir, { recursive: true, force: true });
    }
  }
  const [big, small] = stores;
  const rows = stores.map((s) => ({
    name: `${engine}: GET ${path} (${TARGET.length} rows), ${s.name}`,
    'median ms': fmt(quantile(s.client, 0.5), 2),
    'p95 ms': fmt(quantile(s.client, 0.95), 2),
    'server median ms': fmt(quantile(s.serverMs, 0.5), 1),
    'round medians ms': s.rounds.map((x) => fmt(x, 2)).join(' / '),
    note: `${s.count.toLocaleString('en-US')} rows filled in ${fmt(s.fillS, 1)} s`,
  }));
  const med = quantile(big.client, 0.5);
  rows.push({ name: `${engine}: ratio big / baseline (median)`, 'median ms': fmt(med / quantile(small.client, 0.5), 2), note: `budget: median < 20 ms: ${med < 20 ? 'ok' : 'over'}` });
  rows.push({ name: `${engine}: query plan`, note: big.plan });
  return rows;
}

async function benchRecord() {
  const arms = [
    { name: 'STAYS_HISTORY=on', env: { STAYS_HISTORY: 'on' } },
    { name: 'STAYS_HISTORY=off', env: { STAYS_HISTORY: 'off' } },
  ];
  for (const a of arms) {
    Object.assign(a, provision());
    a.server = await serve(a.dataDir, { STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0', ...a.env });
    a.server.ms('/v1/search');
    a.client = [];
    a.times = [];
    a.rounds = [];
  }
  // Prefer: wait: the live search answers 200 when its job ends (it does at once with no latency).
  const search = (a, location) => timedGet(`${a.server.url}/v1/search?${new URLSearchParams({ location, limit: '10' })}`, a.liveKey, { prefer: 'wait=10' });
  const path = '/v1/search';
  try {
    for (const a of arms) {
      for (let i = 0; i < 15; i++) await search(a, `Warmup town ${i}`);
      a.server.ms(path);
    }
    const per = Math.max(1, Math.floor(SEARCHES / ROUNDS));
    for (let round = 0; round < ROUNDS; round++) {
      for (const a of round % 2 === 0 ? arms : [...arms].reverse()) {
        // The same new places on both servers: every search a cache miss, the same answers.
        for (let i = 0; i < per; i++) a.client.push((await search(a, `Bench town ${round}-${i}`)).ms);
        const t = a.server.ms(path);
        a.times.push(...t);
        a.rounds.push(quantile(t, 0.5));
      }
    }
  } finally {
    for (const a of arms) await a.server.stop();
  }
  // What each store holds: the on server recorded every answer, the off one nothing.
  for (const a of arms) {
    const db = new Database(join(a.dataDir, 'stays.db'), { readonly: true });
    a.observations = db.prepare('SELECT COUNT(*) AS n FROM observations').get().n;
    db.close();
    rmSync(a.dataDir, { recursive: true, force: true });
  }
  const [on, off] = arms;
  if (on.observations === 0 || off.observations !== 0) throw new Error(`observations: on ${on.observations}, off ${off.observations}`);
  const rows = arms.map((a) => ({
    name: `live GET /v1/search (limit 10, 4 platforms, cache miss), ${a.name}`,
    'server median ms': fmt(quantile(a.times, 0.5), 2),
    'server p95 ms': fmt(quantile(a.times, 0.95), 2),
    'client median ms': fmt(quantile(a.client, 0.5), 2),
    'round medians ms': a.rounds.map((x) => fmt(x, 1)).join(' / '),
    note: `${a.observations.toLocaleString('en-US')} observations stored`,
  }));
  const ratio = quantile(on.times, 0.5) / quantile(off.times, 0.5);
  const perRound = on.rounds.map((x, i) => x / off.rounds[i]);
  rows.push({
    name: 'ratio on / off (server median)',
    'server median ms': fmt(ratio, 3),
    'round medians ms': perRound.map((x) => fmt(x, 2)).join(' / '),
    note: `budget <= 1.05: ${ratio <= 1.05 ? 'ok' : 'over'}; median of the rounds' ratios ${fmt(quantile(perRound, 0.5), 3)}; client medians ${fmt(quantile(on.client, 0.5) / quantile(off.client, 0.5), 3)}`,
  });
  return rows;
}

export async function benchHistory() {
  const rows = [];
  if (PARTS.includes('read')) rows.push(...(await benchRead('sqlite')));
  if (PARTS.includes('read-pg')) rows.push(...(await benchRead('postgres')));
  if (PARTS.includes('record')) rows.push(...(await benchRecord()));
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await benchHistory());
}
