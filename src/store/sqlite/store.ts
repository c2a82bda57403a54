// The embedded store: one SQLite file in WAL mode, so `stays serve` and `stays admin` can use
// the same data directory at once. The queries and rules are the shared ones (src/store/sql);
// this file opens the file and runs them: better-sqlite3 is synchronous, so a statement never
// waits on I/O of its own; a transaction is BEGIN IMMEDIATE (busy_timeout covers another process
// holding the write lock) and statements of this process wait while one of its transactions is
// open, as they would for a connection's lock.
import { closeSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import type { Store } from '../../core/ports/store.js';
import { makePrivateDir } from '../private-dir.js';
import type { Db, Dialect, Query } from '../sql/db.js';
import { migrationsFor } from '../sql/migrations.js';
import { sqlStore } from '../sql/store.js';

const MIGRATIONS = migrationsFor('sqlite');

// Each step reads the version inside its write transaction: processes opening a fresh data
// directory together (a server and an admin command, parallel first runs) apply each migration once.
function migrate(db: Database.Database): void {
  // Up to date (the usual case): no write transaction at every open. The version only grows.
  if ((db.pragma('user_version', { simple: true }) as number) >= MIGRATIONS.length) return;
  const step = db.transaction((): boolean => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version >= MIGRATIONS.length) return false;
    db.exec(MIGRATIONS[version]!);
    db.pragma(`user_version = ${version + 1}`);
    return true;
  });
  while (step.immediate());
}

let addon: object | undefined;

/**
 * better-sqlite3's native addon, required by its path. Left to itself, better-sqlite3 finds it
 * with the bindings package, which reads a stack trace and tries several directories at every
 * start (~1 ms of a CLI command); a build elsewhere than build/Release still goes that way, from
 * better-sqlite3's own directory (the CLI bundle holds better-sqlite3's JavaScript, not its addon).
 */
function nativeAddon(): object {
  if (addon) return addon;
  const require = createRequire(import.meta.url);
  const root = dirname(require.resolve('better-sqlite3/package.json'));
  try {
    addon = require(join(root, 'build', 'Release', 'better_sqlite3.node')) as object;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw e;
    const bindings = createRequire(join(root, 'package.json'))('bindings') as (o: object) => object;
    addon = bindings({ bindings: 'better_sqlite3.node', module_root: root });
  }
  return addon;
}

/**
 * The directory 0700 (an existing one tightened: src/store/private-dir.ts) and the file 0600 when
 * we create it: the store holds key hashes, the ledger and every job's result. SQLite gives the
 * -wal and -shm files the database file's mode.
 */
function createPrivately(file: string): void {
  makePrivateDir(dirname(file));
  closeSync(openSync(file, 'a', 0o600));
}

/**
 * A statement with numbered parameters ($1 … as the shared queries write them, each usable more
 * than once) as SQLite's positional ones, with the order to bind them in. Quoted text is left alone.
 */
function positional(sql: string): { text: string; order: number[] } {
  const order: number[] = [];
  let text = '';
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i]!;
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
    } else if (ch === '$' && /[0-9]/.test(sql[i + 1] ?? '')) {
      let j = i + 1;
      while (/[0-9]/.test(sql[j] ?? '')) j++;
      order.push(Number(sql.slice(i + 1, j)));
      text += '?';
      i = j - 1;
      continue;
    }
    text += ch;
  }
  return { text, order };
}

const dialect: Dialect = {
  forUpdate: '',
  skipLocked: '',
  greatest: 'MAX',
  outboxOrder: 'rowid',
  inJsonList: (column, param) => `${column} IN (SELECT value FROM json_each(${param}))`,
  anyOfList: (column, param) => `${column} IN (SELECT value FROM json_each(${param}))`,
  list: (values) => JSON.stringify(values),
  jsonInt: (column, field) => `json_extract(${column}, '$.${field}')`,
  lock: async () => true,
};

/** Per database file, this process's open transaction on it (every connection to the file waits for it). */
const gates = new Map<string, { open: Promise<void> | null }>();
function gateOf(file: string): { open: Promise<void> | null } {
  if (file === ':memory:') return { open: null };
  const key = resolve(file);
  let g = gates.get(key);
  if (!g) gates.set(key, (g = { open: null }));
  return g;
}

/** How often authentication asks whether another process changed the file (PRAGMA data_version): a key revoked by `stays admin` is refused within this. */
const AUTH_RECHECK_MS = 100;

export function openSqliteStore(file: string): Store {
  if (file !== ':memory:') createPrivately(file);
  // The addon object is accepted since better-sqlite3 8.1; its types still say a path.
  const db = new Database(file, { nativeBinding: nativeAddon() as unknown as string });
  // busy_timeout first: switching a fresh file to WAL needs a lock another process may hold.
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  migrate(db);

  // Each statement prepared once, by its text (the shared queries' texts are constants).
  const statements = new Map<string, { stmt: Database.Statement; order: number[] | null; reader: boolean }>();
  const run = (sql: string, params: readonly unknown[] = []): never => {
    let p = statements.get(sql);
    if (!p) {
      const { text, order } = positional(sql);
      const stmt = db.prepare(text);
      // $1 … $n, each once and in order (most statements): the parameters bind as they are.
      const inOrder = order.length === params.length && order.every((n, i) => n === i + 1);
      p = { stmt, order: inOrder ? null : order, reader: stmt.reader };
      statements.set(sql, p);
    }
    const order = p.order;
    const args = order === null ? params.map((v) => v ?? null) : order.map((n) => params[n - 1] ?? null);
    if (p.reader) return p.stmt.all(...args) as never;
    p.stmt.run(...args);
    return [] as never;
  };

  // A transaction of this process on this file, while one is open: everything else waits for it
  // (a statement of this connection would join it; one of another connection to the file would
  // wait for SQLite's lock inside busy_timeout, blocking the thread the transaction needs to end).
  const gate = gateOf(file);
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  const query: Query = async (sql, params) => {
    while (gate.open) await gate.open;
    return run(sql, params);
  };
  const inTx: Query = async (sql, params) => run(sql, params);

  // Statistics for the planner (ANALYZE, bounded: SQLite limits its own work), so a read takes
  // the index that serves it (the history port's reads: docs/architecture.md): at every sweep,
  // cheap when little changed. Never waited for: another process writing the file skips it.
  const optimize = async () => {
    // Not inside another task's transaction of this process.
    while (gate.open) await gate.open;
    db.pragma('busy_timeout = 0');
    // ANALYZE samples each index (a few milliseconds on a store of millions of rows) rather than reading it whole.
    db.pragma('analysis_limit = 1000');
    try {
      db.pragma('optimize=0x10002');
    } catch {
      // Locked by another connection: the next sweep runs it.
    } finally {
      db.pragma('busy_timeout = 5000');
    }
  };

  const sqlite: Db = {
    kind: 'sqlite',
    sql: dialect,
    query,
    async tx(f) {
      while (gate.open) await gate.open;
      let end!: () => void;
      gate.open = new Promise((r) => (end = r));
      try {
        begin.run();
        try {
          const r = await f(inTx, 1);
          commit.run();
          return r;
        } catch (e) {
          if (db.inTransaction) rollback.run();
          throw e;
        }
      } finally {
        gate.open = null;
        end();
      }
    },
  };

  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  let seenVersion: unknown = dataVersion.get();
  let checkedAt = 0;
  const changedElsewhere = (): boolean => {
    const now = performance.now();
    if (now - checkedAt < AUTH_RECHECK_MS) return false;
    checkedAt = now;
    const v = dataVersion.get();
    if (v === seenVersion) return false;
    seenVersion = v;
    return true;
  };

  const sql = sqlStore(sqlite, { authCache: { maxAgeMs: Number.POSITIVE_INFINITY, changedElsewhere }, cacheCopyBytes: 0 });
  return {
    kind: 'sqlite',
    ready: () => Promise.resolve(),
    ...sql,
    async purgeExpired(now, batch, o) {
      const purged = await sql.purgeExpired(now, batch, o);
      await optimize();
      return purged;
    },
    async close() {
      // The observations queued by the live path are written before the file closes.
      await sql.observationsWritten();
      if (db.open) db.close();
    },
  };
}
