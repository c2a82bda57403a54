// Issue 34's budgets for the analyst wing (node bench/run.mjs analyst, or this file).
//
// A store of one city of N listings (250, 1,000 and 4,000), each with calendar observations of
// 120 nights observed daily for 60 days (a night's series: seen free, then taken when a guest
// booked it or the host blocked it; about 1.4 rows a night), its listing read (coordinates,
// bedrooms), two quotes, the city's undated search and 30 dated searches that showed 280 of the
// listings each. The rows are written directly (one transaction, the columns
// src/store/sql/observations.ts writes), then the real `stays serve` answers a live key over
// loopback HTTP, on SQLite and on PostgreSQL (when a server answers at BENCH_PG_URL or
// STAYS_TEST_PG_URL).
//
// Measured per store: GET /v1/market (location, bbox, comp set; 30- and 90-night windows),
// GET /v1/matches, GET /v1/history/bookings and GET /v1/history/listings, each p50 of
// BENCH_ANALYST_READS reads after one warm-up; /v1/health's latency (p99, max) probed every 10 ms
// while those reads run; the server's peak RSS (VmHWM). The baseline of each market row, run
// against the same store file in the same run: one hand-written SQL aggregate of its headline
// figure (the calendar-unavailable rate of the scope's listing-nights).
//
// Knobs: BENCH_ANALYST_SIZES (250,1000,4000), BENCH_ANALYST_READS (7), BENCH_ANALYST_ENGINES (sqlite,postgres).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { BIN, PG_ADMIN_URL, fmt, pgDatabase, startProcess } from './lib.mjs';

const SIZES = (process.env.BENCH_ANALYST_SIZES ?? '250,1000,4000').split(',').map(Number);
const READS = Number(process.env.BENCH_ANALYST_READS ?? 7);
const ENGINES = (process.env.BENCH_ANALYST_ENGINES ?? 'sqlite,postgres').split(',');

const DAY = 86_400_000;
const FIRST_DAY = Date.UTC(2027, 0, 1);
const OBSERVED_DAYS = 60;
const HORIZON = 120;
const NOW = '2027-03-05T00:00:00Z';
const BOX = { minLat: 38.69, maxLat: 38.79, minLng: -9.23, maxLng: -9.09 };
const PLATFORMS = ['airbnb', 'airbnb', 'vrbo', 'booking'];
const WINDOWS = [
  { name: '30 nights', from: '2027-02-01', to: '2027-03-03' },
  { name: '90 nights', from: '2027-02-01', to: '2027-05-02' },
];

const dateOf = (ms) => new Date(ms).toISOString().slice(0, 10);
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

/** A small deterministic PRNG (mulberry32). */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const listingOf = (i, rnd) => ({
  platform: PLATFORMS[i % PLATFORMS.length],
  id: String(50_000_000 + i),
  lat: BOX.minLat + rnd() * (BOX.maxLat - BOX.minLat),
  lng: BOX.minLng + rnd() * (BOX.maxLng - BOX.minLng),
  bedrooms: i % 5,
  name: `Lisbon flat ${i}`,
});

/**
 * The rows of a city of n listings, observed by `account`'s calls ('' : recorded without an
 * account): [okey, platform, listing_id, kind, key, currency, value, place, check_in, check_out,
 * lat, lng, bedrooms, nightly, first_seen, last_seen, times_seen, latest, account_id].
 */
export function* rowsOf(n, account = '') {
  const rnd = prng(34);
  const listings = Array.from({ length: n }, (_, i) => listingOf(i, rnd));
  const row = (l, kind, key, value, o) => [
    `${account === '' ? '' : `${account}|`}${l.platform}|${l.id}|${kind}|${key}`,
    l.platform,
    l.id,
    kind,
    key,
    o.currency ?? null,
    JSON.stringify(value),
    o.place ?? null,
    o.checkIn ?? null,
    o.checkOut ?? null,
    o.lat ?? null,
    o.lng ?? null,
    o.bedrooms ?? null,
    kind === 'quote' || kind === 'search' ? (value.nightlyPrice ?? null) : null,
    o.first,
    o.last,
    Math.round((o.last - o.first) / DAY) + 1,
    o.latest ?? 1,
    account,
  ];
  const last = FIRST_DAY + (OBSERVED_DAYS - 1) * DAY;
  for (const l of listings) {
    const place = { lat: l.lat, lng: l.lng, bedrooms: l.bedrooms };
    yield row(l, 'listing', '', { name: l.name, propertyType: 'apartment', maxOccupancy: 4, bedrooms: l.bedrooms, bathrooms: 1, lat: l.lat, lng: l.lng }, { ...place, first: FIRST_DAY, last });
    yield row(l, 'search', 'lisbon', { name: l.name, nightlyPrice: null, totalPrice: null, ...place }, { ...place, place: 'lisbon', first: FIRST_DAY, last });
    // Two quotes, each seen changing twice over the 60 days.
    for (const k of [0, 1]) {
      const checkIn = dateOf(FIRST_DAY + (20 + k * 30) * DAY);
      const checkOut = dateOf(FIRST_DAY + (23 + k * 30) * DAY);
      for (let j = 0; j < 3; j++) {
        const nightly = 90 + ((Number(l.id) + j * 7) % 60);
        yield row(
          l,
          'quote',
          `${checkIn}/${checkOut}/2`,
          { nightlyPrice: nightly, totalPrice: nightly * 3 + 40, fees: null },
          {
            currency: 'EUR',
            checkIn,
            checkOut,
            first: FIRST_DAY + j * 20 * DAY,
            last: FIRST_DAY + (j * 20 + 19) * DAY,
            latest: j === 2 ? 1 : 0,
          },
        );
      }
    }
    // The calendar: runs of taken nights (2 to 7), about 55 % of nights; a tenth are host blocks made far ahead.
    let night = FIRST_DAY;
    const end = FIRST_DAY + (OBSERVED_DAYS + HORIZON) * DAY;
    while (night < end) {
      const free = rnd() < 0.45;
      const len = 2 + Math.floor(rnd() * 6);
      const block = !free && rnd() < 0.1;
      const lead = block ? 100 + Math.floor(rnd() * 100) : 1 + Math.floor(rnd() * 60);
      const taken = night - lead * DAY + 6 * 3_600_000;
      for (let k = 0; k < len && night < end; k++, night += DAY) {
        const first = Math.max(FIRST_DAY, night - (HORIZON - 1) * DAY);
        const seenLast = Math.min(night, last);
        if (first > seenLast) continue;
        const date = dateOf(night);
        const v = (available) => ({ available, minNights: 2, checkIn: null, checkOut: null, bookable: null });
        if (free || taken > seenLast) yield row(l, 'day', date, v(true), { first, last: seenLast });
        else if (taken <= first) yield row(l, 'day', date, v(false), { first, last: seenLast });
        else {
          const seenTaken = Math.ceil((taken - FIRST_DAY) / DAY) * DAY + FIRST_DAY;
          yield row(l, 'day', date, v(true), { first, last: seenTaken - DAY, latest: 0 });
          yield row(l, 'day', date, v(false), { first: seenTaken, last: seenLast });
        }
      }
    }
  }
  // 30 dated searches, one a day, each showing 280 listings (or all, when fewer) with their price.
  for (let s = 0; s < 30; s++) {
    const checkIn = dateOf(FIRST_DAY + (s + 14) * DAY);
    const checkOut = dateOf(FIRST_DAY + (s + 17) * DAY);
    const at = FIRST_DAY + s * DAY;
    const shown = new Set();
    while (shown.size < Math.min(280, n)) shown.add(Math.floor(rnd() * n));
    for (const i of shown) {
      const l = listings[i];
      const nightly = 80 + ((i + s) % 90);
      yield row(
        l,
        'search',
        `lisbon@${checkIn}/${checkOut}/2`,
        { name: l.name, nightlyPrice: nightly, totalPrice: nightly * 3, lat: l.lat, lng: l.lng, bedrooms: l.bedrooms },
        { currency: 'EUR', place: 'lisbon', checkIn, checkOut, lat: l.lat, lng: l.lng, bedrooms: l.bedrooms, first: at, last: at },
      );
    }
  }
}

const COLUMNS = 'okey, platform, listing_id, kind, key, currency, value, place, check_in, check_out, lat, lng, bedrooms, nightly, first_seen, last_seen, times_seen, latest, account_id';
const SOURCE = 'simulated';

export function fillSqlite(file, n, account = '') {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const insert = db.prepare(
    `INSERT INTO observations (${COLUMNS}, source) VALUES (${COLUMNS.split(',')
      .map(() => '?')
      .join(', ')}, '${SOURCE}')`,
  );
  db.transaction(() => {
    for (const r of rowsOf(n, account)) insert.run(...r);
  })();
  const count = db.prepare('SELECT COUNT(*) AS n FROM observations').get().n;
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return count;
}

export async function fillPg(url, n, account = '') {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const types = ['text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'float8', 'float8', 'float8', 'float8', 'bigint', 'bigint', 'int', 'int', 'text'];
  const sql = `INSERT INTO observations (${COLUMNS}, source) SELECT *, '${SOURCE}' FROM unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})`;
  await c.query('BEGIN');
  let cols = types.map(() => []);
  const send = async () => {
    if (cols[0].length > 0) await c.query(sql, cols);
    cols = types.map(() => []);
  };
  for (const r of rowsOf(n, account)) {
    r.forEach((v, i) => cols[i].push(v));
    if (cols[0].length === 10_000) await send();
  }
  await send();
  await c.query('COMMIT');
  // What autovacuum does to an insert-only table soon after a load (PostgreSQL 13+): the
  // visibility map that index-only scans need, and the planner's statistics.
  await c.query('VACUUM ANALYZE observations');
  const count = Number((await c.query('SELECT COUNT(*) AS n FROM observations')).rows[0].n);
  await c.end();
  return count;
}

function provision(env) {
  const dataDir = mkdtempSync(join(tmpdir(), 'stays-bench-analyst-'));
  const admin = (...a) =>
    JSON.parse(execFileSync(process.execPath, [BIN, 'admin', ...a, '--json', '--data-dir', dataDir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, ...env } }));
  const acct = admin('account', 'create', '--plan', 'enterprise', '--rpm', '100000000', '--credits', '100000000');
  return { dataDir, account: acct.id, key: admin('key', 'create', '--account', acct.id, '--env', 'live').key };
}

/** `stays serve` on the data directory, at the bench's clock. */
const serve = (dataDir, env) => startProcess([BIN, 'serve', '--port', '0', '--data-dir', dataDir], { STAYS_NOW: NOW, ...env });

/** The server's peak resident memory so far, MB. */
const peakRssMb = (pid) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function timed(url, key, init = {}) {
  const t0 = performance.now();
  const res = await fetch(url, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers } });
  const body = await res.text();
  const ms = performance.now() - t0;
  if (process.env.BENCH_ANALYST_DEBUG) process.stderr.write(`${fmt(ms, 1)} ms ${res.status} ${url}\n`);
  if (res.status >= 300) throw new Error(`${url}: ${res.status} ${body.slice(0, 300)}`);
  return { ms, body: JSON.parse(body) };
}

/** Probes /v1/health every 10 ms until stopped; its latencies. */
function healthProbe(url) {
  const times = [];
  let on = true;
  const done = (async () => {
    while (on) {
      const t0 = performance.now();
      const ok = await fetch(`${url}/v1/health`).then(
        (r) => r.text(),
        () => null,
      );
      if (ok !== null) times.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  return async () => {
    on = false;
    await done;
    return times;
  };
}

/** The headline figure by hand: the calendar-unavailable rate of the scope's listing-nights (each night's latest row). */
function sqliteAggregate(file, scope, w) {
  const db = new Database(file, { readonly: true });
  const t0 = performance.now();
  const members = scopeSql(scope);
  const r = db
    .prepare(
      `SELECT AVG(CASE WHEN json_extract(o.value, '$.available') THEN 0.0 ELSE 1.0 END) AS rate, COUNT(*) AS n FROM observations o
       JOIN (${members}) m ON m.platform = o.platform AND m.listing_id = o.listing_id
       WHERE o.kind = 'day' AND o.latest = 1 AND o.key >= ? AND o.key < ?`,
    )
    .get(w.from, w.to);
  const ms = performance.now() - t0;
  db.close();
  return { ms, ...r };
}

async function pgAggregate(url, scope, w) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const t0 = performance.now();
  const r = await c.query(
    `SELECT AVG(CASE WHEN CAST(o.value AS json)->>'available' = 'true' THEN 0.0 ELSE 1.0 END) AS rate, COUNT(*) AS n FROM observations o
     JOIN (${scopeSql(scope)}) m ON m.platform = o.platform AND m.listing_id = o.listing_id
     WHERE o.kind = 'day' AND o.latest = 1 AND o.key >= $1 AND o.key < $2`,
    [w.from, w.to],
  );
  const ms = performance.now() - t0;
  await c.end();
  return { ms, rate: Number(r.rows[0].rate), n: Number(r.rows[0].n) };
}

/** The scope's listings in SQL (both engines). */
function scopeSql(scope) {
  if (scope.kind === 'location') return `SELECT DISTINCT platform, listing_id FROM observations WHERE kind = 'search' AND place = 'lisbon'`;
  const b = scope.box;
  return `SELECT DISTINCT platform, listing_id FROM observations WHERE latest = 1 AND kind = 'listing' AND lat IS NOT NULL AND lat >= ${b.minLat} AND lat <= ${b.maxLat} AND lng >= ${b.minLng} AND lng <= ${b.maxLng}`;
}

async function benchOne(engine, n) {
  let db = null;
  let env = {};
  if (engine === 'postgres') {
    db = await pgDatabase('stays_bench_analyst');
    if (!db) return [{ name: `postgres: no server at ${PG_ADMIN_URL}; skipped` }];
    env = { STAYS_DATABASE_URL: db.url, STAYS_SECRET_KEY: 'b'.repeat(64) };
  }
  // The city observed by the reading account's own calls (the rows a live key reads in account scope).
  const { dataDir, account, key } = provision(env);
  const file = join(dataDir, 'stays.db');
  const t0 = performance.now();
  const count = engine === 'postgres' ? await fillPg(db.url, n, account) : fillSqlite(file, n, account);
  const fillS = (performance.now() - t0) / 1000;
  const server = await serve(dataDir, env);
  const rows = [];
  try {
    const base = server.url;
    // A comp set around listing 0 (1 km), and a box of a quarter of the city.
    const cs = (await timed(`${base}/v1/compsets`, key, { method: 'POST', body: JSON.stringify({ name: 'bench', near: 'airbnb:50000000', radiusMeters: 1000 }) })).body.data;
    const quarter = { minLat: 38.69, maxLat: 38.74, minLng: -9.23, maxLng: -9.16 };
    const bbox = `${quarter.minLng},${quarter.minLat},${quarter.maxLng},${quarter.maxLat}`;
    const reads = [];
    for (const w of WINDOWS) {
      const q = `from=${w.from}&to=${w.to}`;
      reads.push({ name: `market location, ${w.name}`, path: `/v1/market?location=lisbon&${q}`, scope: { kind: 'location' }, w });
      reads.push({ name: `market bbox (a quarter), ${w.name}`, path: `/v1/market?bbox=${bbox}&${q}`, scope: { kind: 'box', box: quarter }, w });
      reads.push({ name: `market comp set (1 km), ${w.name}`, path: `/v1/market?compSet=${cs.id}&${q}` });
    }
    reads.push({ name: 'matches', path: '/v1/matches?platform=airbnb&listingId=50000000', budget: 50 });
    reads.push({ name: 'history bookings (30 nights)', path: '/v1/history/bookings?platform=airbnb&listingId=50000004&from=2027-02-01&to=2027-03-03', budget: 20 });
    reads.push({ name: 'history listings', path: '/v1/history/listings?location=lisbon&limit=100', budget: 100 });
    for (const r of reads) {
      // The first read after the store was written computes and keeps each listing's summary (cold).
      const cold = (await timed(`${base}${r.path}`, key)).ms;
      const stop = healthProbe(base);
      const times = [];
      let health = [];
      try {
        for (let i = 0; i < READS; i++) times.push((await timed(`${base}${r.path}`, key)).ms);
      } finally {
        health = await stop();
      }
      const p50 = quantile(times, 0.5);
      const row = {
        name: `${engine} ${n.toLocaleString('en-US')}: ${r.name}`,
        'first ms': fmt(cold, 0),
        'p50 ms': fmt(p50, 1),
        'health p99 ms': fmt(quantile(health, 0.99), 1),
        'health max ms': fmt(Math.max(...health), 1),
      };
      if (r.scope) {
        const agg = engine === 'postgres' ? await pgAggregate(db.url, r.scope, r.w) : sqliteAggregate(file, r.scope, r.w);
        row['SQL aggregate ms'] = fmt(agg.ms, 1);
        row.ratio = fmt(p50 / agg.ms, 1);
        row.note = `budget p50 <= 200 ms and <= 10x the aggregate: ${p50 <= 200 && p50 <= 10 * agg.ms ? 'ok' : 'over'}`;
      } else if (r.path.startsWith('/v1/market')) row.note = `budget p50 <= 200 ms: ${p50 <= 200 ? 'ok' : 'over'}`;
      else row.note = `budget p50 <= ${r.budget} ms: ${p50 <= r.budget ? 'ok' : 'over'}`;
      rows.push(row);
    }
    rows.push({
      name: `${engine} ${n.toLocaleString('en-US')}: store`,
      note: `${count.toLocaleString('en-US')} rows filled in ${fmt(fillS, 1)} s; server peak RSS ${fmt(peakRssMb(server.pid), 0)} MB (budget 400)`,
    });
  } finally {
    await server.stop();
    await db?.drop();
    if (!process.env.BENCH_ANALYST_KEEP) rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

export async function benchAnalyst() {
  const rows = [];
  for (const engine of ENGINES) for (const n of SIZES) rows.push(...(await benchOne(engine, n)));
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await benchAnalyst());
