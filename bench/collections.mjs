// Issue 38, item 5, the goal: two `stays serve` instances on one PostgreSQL database make a
// collection's pass at least 1.7× as fast as one, the limit being the upstream's latency (seconds
// a call on the simulated upstream) and each instance's share of its concurrency (its collection
// slots), not CPU; nothing is done twice. Each trial is a fresh database, a live account and a
// collection of the same box (vrbo, 30 nights, rates sampled), made with POST /v1/collections/run:
// on one instance, then on two at once (each claims what the other does not). The pass's wall
// time is from the first run's start to the last run's end. Checked after each trial: every item
// done once (one claim each), the ledger equal to what the items were charged. Exits 1 below the
// goal (node bench/run.mjs collections, or this file).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { BIN, fmt, pgDatabase, startProcess } from './lib.mjs';

const LATENCY_MS = Number(process.env.BENCH_COLLECTIONS_LATENCY_MS ?? 1000);
const BOX = process.env.BENCH_COLLECTIONS_BOX ?? '-40.0,40.0,-39.975,40.025';
const GOAL = 1.7;

async function trial(instances) {
  const db = await pgDatabase('stays_bench_col');
  if (!db) return null;
  const env = { STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: String(LATENCY_MS), STAYS_SECRET_KEY: randomBytes(32).toString('hex') };
  const admin = (...a) => JSON.parse(execFileSync(process.execPath, [BIN, 'admin', ...a, '--json', '--database-url', db.url], { encoding: 'utf8', env: { ...process.env, ...env } }));
  const servers = [];
  try {
    for (let i = 0; i < instances; i++) servers.push(await startProcess([BIN, 'serve', '--port', '0', '--database-url', db.url], env));
    const acct = admin('account', 'create', '--plan', 'pro', '--credits', '10000000', '--rpm', '1000000');
    const key = admin('key', 'create', '--account', acct.id, '--env', 'live').key;
    const post = (url, path, body) =>
      fetch(url + path, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => {
        const j = await r.json();
        if (r.status >= 300) throw new Error(`${path}: ${r.status} ${JSON.stringify(j)}`);
        return j;
      });
    const made = await post(servers[0].url, '/v1/collections', { name: 'bench', bbox: BOX, platforms: 'vrbo', horizonNights: 30, maxCreditsPerDay: 5_000_000 });
    const started = performance.now();
    await Promise.all(servers.map((s) => post(s.url, '/v1/collections/run', {})));
    const ms = performance.now() - started;
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    const items = (await c.query('SELECT attempts, done_at, charged FROM collection_items WHERE collection_id = $1', [made.data.id])).rows;
    const ledger = Number((await c.query(`SELECT COALESCE(-SUM(amount), 0) AS n FROM credit_ledger WHERE account_id = $1 AND kind = 'charge'`, [acct.id])).rows[0].n);
    await c.end();
    const charged = items.reduce((n, r) => n + Number(r.charged), 0);
    const twice = items.filter((r) => Number(r.attempts) !== 1 || r.done_at === null).length;
    return { ms, items: items.length, twice, exact: charged === ledger, charged };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await db.drop();
  }
}

export async function benchCollections() {
  const one = await trial(1);
  if (!one) return [{ bench: 'collections', note: 'no PostgreSQL server: skipped' }];
  const two = await trial(2);
  const ratio = one.ms / two.ms;
  const rows = [
    { target: 'one instance', items: one.items, 'pass s': fmt(one.ms / 1000, 1), 'done twice': one.twice, 'ledger exact': one.exact, credits: one.charged },
    { target: 'two instances', items: two.items, 'pass s': fmt(two.ms / 1000, 1), 'done twice': two.twice, 'ledger exact': two.exact, credits: two.charged },
    { target: `speed-up (goal ≥ ${GOAL})`, items: '', 'pass s': fmt(ratio, 2), 'done twice': '', 'ledger exact': '', credits: '' },
  ];
  const ok = ratio >= GOAL && one.twice === 0 && two.twice === 0 && one.exact && two.exact;
  if (!ok) process.exitCode = 1;
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await benchCollections());
