// The stores every shared store suite runs against: the embedded SQLite file and PostgreSQL (a
// fresh database per test on the local server; skipped, saying so, when there is none, unless
// STAYS_TEST_PG_REQUIRED=1). `open()` may be called more than once per backing database: each
// call is another process on the same data (another connection to the file, another pool).
import { join } from 'node:path';
import { openPgStore } from '../../src/store/postgres/store.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import type { Store } from '../../src/core/ports/store.js';
import { freshDatabase, pgAvailable } from '../helpers/pg.js';
import { tempDir } from '../helpers/stays.js';

export interface Backing {
  /** PostgreSQL: the database's URL (for direct queries); SQLite: the file. */
  where: string;
  /** Another store (process) on this backing database. */
  open(): Store;
  /** Closes every store opened on it and removes the database. */
  drop(): Promise<void>;
}

export interface StoreKind {
  name: 'sqlite' | 'postgres';
  available: boolean;
  create(): Promise<Backing>;
}

function backing(where: string, open: () => Store, remove: () => Promise<void>): Backing {
  const opened: Store[] = [];
  return {
    where,
    open() {
      const s = open();
      opened.push(s);
      return s;
    },
    async drop() {
      for (const s of opened.splice(0)) await s.close();
      await remove();
    },
  };
}

export const sqliteKind: StoreKind = {
  name: 'sqlite',
  available: true,
  async create() {
    const file = join(tempDir(), 'data', 'stays.db');
    return backing(
      file,
      () => openSqliteStore(file),
      async () => undefined,
    );
  },
};

export const pgKind: StoreKind = {
  name: 'postgres',
  available: await pgAvailable(),
  async create() {
    const db = await freshDatabase();
    return backing(
      db.url,
      // The suites push hundreds of concurrent calls through one store to test its locks, not its load shedding.
      () => openPgStore(db.url, { poolMax: 8, queueMax: 10_000, queueTimeoutMs: 60_000 }),
      () => db.drop(),
    );
  },
};

/**
 * Per-test backing databases of one kind, dropped after each test (call `cleanup` from afterEach).
 */
export function backings(kind: StoreKind) {
  const made: Backing[] = [];
  return {
    async fresh(): Promise<Backing> {
      const b = await kind.create();
      made.push(b);
      return b;
    },
    async cleanup() {
      for (const b of made.splice(0)) await b.drop();
    },
  };
}

export const T0 = 1_800_000_000_000;
export const DAY = 86_400_000;

export async function addAccount(store: Store, id: string, credits: number, over: Partial<Parameters<Store['createAccount']>[0]> = {}) {
  return store.createAccount({ id, planCode: 'pro', planName: 'Pro', planStatus: 'active', emailVerified: true, requestsPerMinute: 300, freeTierBudget: 300, createdAt: T0, ...over }, credits, null);
}

/** What a promise rejects with; fails the test if it resolves. */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection, the promise resolved');
}
