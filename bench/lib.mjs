// Shared benchmark plumbing: start servers as child processes, drive them with autocannon.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';

export const ROOT = resolve(import.meta.dirname, '..');
export const BIN = join(ROOT, 'bin', 'stays');

export function startProcess(args, env = {}) {
  const child = spawn(process.execPath, args, { env: { ...process.env, STAYS_LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
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

export async function startStays(env = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'stays-bench-'));
  const admin = (...a) => JSON.parse(execFileSync(process.execPath, [BIN, 'admin', ...a, '--json', '--data-dir', dataDir], { encoding: 'utf8' }));
  const acct = admin('account', 'create', '--plan', 'enterprise', '--rpm', '100000000', '--credits', '100000000');
  const sandboxKey = admin('key', 'create', '--account', acct.id, '--env', 'sandbox').key;
  const liveKey = admin('key', 'create', '--account', acct.id, '--env', 'live').key;
  const proc = await startProcess([BIN, 'serve', '--port', '0', '--data-dir', dataDir], env);
  return {
    ...proc,
    sandboxKey,
    liveKey,
    stop: async () => {
      await proc.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The PostgreSQL server the benches use (BENCH_PG_URL, else the tests' STAYS_TEST_PG_URL, else local). */
export const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? process.env.STAYS_TEST_PG_URL ?? 'postgres://root@127.0.0.1:5432/postgres';

/** A fresh database on that server, named `prefix_…` (its url, name and drop), or null when there is no server. */
export async function pgDatabase(prefix) {
  const { default: pg } = await import('pg');
  const name = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
  } catch {
    return null;
  } finally {
    await admin.end().catch(() => undefined);
  }
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    name,
    drop: async () => {
      const a = new pg.Client({ connectionString: PG_ADMIN_URL });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

export function cannon(opts) {
  return new Promise((res, rej) => {
    autocannon({ connections: 10, duration: 5, ...opts }, (err, r) => (err ? rej(err) : res(r)));
  });
}

export const fmt = (n, d = 1) => Number(n).toFixed(d);

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Wall time of one whole process (ms); throws when it fails. */
export function wallMs(args, env) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}
