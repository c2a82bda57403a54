// The store's hot paths (issue 24: authentication's key lookup, a hold and its settlement, a known
// charge, a cache read and write), on SQLite and (when the server is there) PostgreSQL, in
// operations per second. With BENCH_STORE_BEFORE=DIR (another checkout of the project, its
// node_modules installed) the same operations run alternately against that tree's store, and each
// figure is reported as a ratio of this tree's to that one's, measured in the same run.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { pgDatabase } from './lib.mjs';

const OPS = Number(process.env.BENCH_STORE_OPS ?? 4000);
const ROUNDS = Number(process.env.BENCH_STORE_ROUNDS ?? 3);
const BEFORE = process.env.BENCH_STORE_BEFORE;
const KINDS = (process.env.BENCH_STORE_KINDS ?? 'sqlite,postgres').split(',');

/** The store module of a tree, bundled with its own dependencies (better-sqlite3 and pg stay its node_modules'). */
async function storeOf(tree) {
  // Inside the tree, so that its imports resolve to its own node_modules.
  const dir = join(tree, 'node_modules', '.cache', 'stays-bench');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `store-${process.pid}.mjs`);
  await build({
    entryPoints: [join(tree, 'src/store/open.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: file,
    external: ['better-sqlite3', 'pg'],
    logLevel: 'error',
  });
  return import(pathToFileURL(file).href);
}

const time = async (n, f) => {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await f(i);
  return Math.round((n * 1000) / (performance.now() - t0));
};

/** Operations per second of each hot path on one fresh store. */
async function measure(mod, kind, dir) {
  const where = kind === 'postgres' ? await pgDatabase('stays_bench_store') : null;
  if (kind === 'postgres' && !where) return null;
  const store = mod.openStore({ dataDir: dir, databaseUrl: where?.url ?? '', databasePoolMax: 10, databaseQueueMax: 1000, databaseQueueTimeoutMs: 5000 });
  await store.ready();
  const now = Date.now();
  const acct = `acct_bench_${Math.random().toString(36).slice(2)}`;
  await store.createAccount({ id: acct, planCode: 'pro', planName: 'Pro', planStatus: 'active', emailVerified: true, requestsPerMinute: 600, freeTierBudget: 0, createdAt: now }, 1e12, null);
  await store.createKey({ id: `key_${acct}`, accountId: acct, env: 'live', scopes: ['stays.read'], hash: `h_${acct}`, prefix: 'stay_live_x', createdAt: now });
  const lease = { owner: 'bench', expiresAt: now + 600_000 };
  const out = {};
  out.auth = await time(OPS, () => store.findKeyByHash(`h_${acct}`));
  out['hold+settle'] = await time(OPS / 2, async (i) => {
    const id = `hold_${i}_${Math.random()}`;
    await store.hold({ id, accountId: acct, amount: 5, requestId: `req_${i}`, jobId: null, at: now, freeTierBudget: null, lease });
    await store.settleHold(id, 3, { requestId: `req_${i}`, jobId: null, at: now });
  });
  out.charge = await time(OPS, (i) => store.charge({ accountId: acct, admit: 5, charge: 2, requestId: `req_c${i}`, at: now, freeTierBudget: null }));
  await store.cacheSet('k:bench', { data: Array.from({ length: 10 }, (_, i) => ({ id: i, name: `listing ${i}` })) }, now, now + 600_000);
  out.cacheGet = await time(OPS, () => store.cacheGet('k:bench', now));
  out.cacheSet = await time(OPS / 2, (i) => store.cacheSet(`k:bench:${i % 50}`, { i }, now, now + 600_000));
  await store.close();
  if (where) await where.drop();
  return out;
}

export async function benchStore() {
  const out = mkdtempSync(join(tmpdir(), 'stays-bench-store-'));
  const trees = [{ name: 'this', tree: resolve('.') }];
  if (BEFORE) trees.push({ name: 'before', tree: resolve(BEFORE) });
  for (const t of trees) t.mod = await storeOf(t.tree);
  const runs = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const t of round % 2 === 0 ? trees : [...trees].reverse()) {
      for (const kind of KINDS) {
        const dir = mkdtempSync(join(out, 'data-'));
        const r = await measure(t.mod, kind, dir);
        if (!r) continue;
        for (const [op, v] of Object.entries(r)) ((runs[`${kind} ${op}`] ??= {})[t.name] ??= []).push(v);
      }
    }
  }
  rmSync(out, { recursive: true, force: true });
  const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  const rows = {};
  for (const [op, by] of Object.entries(runs)) {
    rows[op] = { 'ops/s': median(by.this) };
    if (by.before) {
      rows[op]['before ops/s'] = median(by.before);
      rows[op].ratio = Number((median(by.this) / median(by.before)).toFixed(2));
    }
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await benchStore());
}
