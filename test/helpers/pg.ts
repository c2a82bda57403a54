// PostgreSQL for tests: a fresh database per call on the local server, dropped afterwards.
// STAYS_TEST_PG_URL names the server (an admin connection; default the machine's trust-auth
// root on 127.0.0.1). Without a reachable server the PostgreSQL tests skip, saying so, unless
// STAYS_TEST_PG_REQUIRED=1 (CI: .ci/run installs and starts PostgreSQL, then requires it).
import pg from 'pg';

export const PG_ADMIN_URL = process.env.STAYS_TEST_PG_URL ?? 'postgres://root@127.0.0.1:5432/postgres';

let available: Promise<boolean> | undefined;

/** Whether the PostgreSQL tests can run; throws if they must (STAYS_TEST_PG_REQUIRED=1) and cannot. */
export function pgAvailable(): Promise<boolean> {
  return (available ??= (async () => {
    const c = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 5000 });
    try {
      await c.connect();
      await c.query('SELECT 1');
      return true;
    } catch (e) {
      if (process.env.STAYS_TEST_PG_REQUIRED === '1') throw new Error(`PostgreSQL is required (STAYS_TEST_PG_REQUIRED=1) but ${PG_ADMIN_URL} cannot be used: ${(e as Error).message}`);
      process.stderr.write(`[pg] skipping the PostgreSQL tests: ${PG_ADMIN_URL} cannot be used (${(e as Error).message}); set STAYS_TEST_PG_URL\n`);
      return false;
    } finally {
      await c.end().catch(() => undefined);
    }
  })());
}

export interface TestDatabase {
  /** The new database's URL (same server and user as PG_ADMIN_URL). */
  url: string;
  drop(): Promise<void>;
}

let seq = 0;

/** A new empty database, unique to this call. */
export async function freshDatabase(): Promise<TestDatabase> {
  const name = `stays_t_${process.pid}_${Date.now().toString(36)}_${seq++}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(PG_ADMIN_URL);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
