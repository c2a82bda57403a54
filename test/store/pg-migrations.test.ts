// PostgreSQL only: instances starting together on a fresh database migrate it once (the advisory
// lock), a database newer than this build is refused, and an unreachable server is reported as
// StoreUnavailableError without the URL's password.
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openPgStore, StoreUnavailableError } from '../../src/store/postgres/store.js';
import { PG_ADMIN_URL } from '../helpers/pg.js';
import { addAccount, backings, pgKind, rejection } from './stores.js';
import { migrationsFor } from '../../src/store/sql/migrations.js';

const PG_MIGRATIONS = migrationsFor('postgres');

async function sql<R extends pg.QueryResultRow>(url: string, text: string, params: unknown[] = []): Promise<R[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<R>(text, params)).rows;
  } finally {
    await c.end();
  }
}

describe.skipIf(!pgKind.available)('PostgreSQL migrations', () => {
  const dbs = backings(pgKind);
  afterEach(() => dbs.cleanup());

  it('five instances opening a fresh database at once all become ready; each migration ran once', async () => {
    const db = await dbs.fresh();
    const stores = Array.from({ length: 5 }, () => db.open());
    await Promise.all(stores.map((s) => s.ready()));
    const versions = await sql<{ version: number; n: string }>(db.where, 'SELECT version, COUNT(*) AS n FROM schema_migrations GROUP BY version ORDER BY version');
    expect(versions.map((v) => [v.version, Number(v.n)])).toEqual(PG_MIGRATIONS.map((_, i) => [i + 1, 1]));
    // Every instance works on the one schema.
    await addAccount(stores[0]!, 'acct_1', 10);
    for (const s of stores) expect(await s.getCredits('acct_1')).toMatchObject({ balance: 10 });
    // A later start finds nothing to do.
    const later = db.open();
    await later.ready();
    expect(Number((await sql<{ n: string }>(db.where, 'SELECT COUNT(*) AS n FROM schema_migrations'))[0]!.n)).toBe(PG_MIGRATIONS.length);
  });

  it('a database at a higher schema version than this build knows is refused', async () => {
    const db = await dbs.fresh();
    await db.open().ready();
    await sql(db.where, 'INSERT INTO schema_migrations (version, applied_at) VALUES ($1, 0)', [PG_MIGRATIONS.length + 1]);
    const newer = db.open();
    const e = await rejection(newer.ready());
    expect(e).toBeInstanceOf(StoreUnavailableError);
    expect((e as Error).message).toContain(`schema version ${PG_MIGRATIONS.length + 1}`);
    // Every method waits for ready(), so it fails the same way; nothing was changed.
    expect(await rejection(newer.getAccount('acct_1'))).toBeInstanceOf(StoreUnavailableError);
    expect(Number((await sql<{ n: string }>(db.where, 'SELECT COUNT(*) AS n FROM schema_migrations'))[0]!.n)).toBe(PG_MIGRATIONS.length + 1);
  });
});

describe('PostgreSQL unreachable', () => {
  it('ready() rejects with StoreUnavailableError naming the server without its password', async () => {
    const store = openPgStore('postgres://u:secretpw@127.0.0.1:1/x');
    try {
      const e = await rejection(store.ready());
      expect(e).toBeInstanceOf(StoreUnavailableError);
      const message = (e as Error).message;
      expect(message).toContain('127.0.0.1:1');
      expect(message).not.toContain('secretpw');
      expect(await rejection(store.listAccounts())).toBeInstanceOf(StoreUnavailableError);
    } finally {
      await store.close();
    }
  });

  it('a malformed URL is refused the same way, without its password', async () => {
    const store = openPgStore('postgres://u:secretpw@127.0.0.1:port/x');
    try {
      const e = await rejection(store.ready());
      expect(e).toBeInstanceOf(StoreUnavailableError);
      expect((e as Error).message).not.toContain('secretpw');
    } finally {
      await store.close();
    }
  });

  it.skipIf(!pgKind.available)('a server that refuses the login is refused the same way, without the password', async () => {
    const u = new URL(PG_ADMIN_URL);
    u.username = 'stays_no_such_role';
    u.password = 'secretpw';
    const store = openPgStore(u.toString());
    try {
      const e = await rejection(store.ready());
      expect(e).toBeInstanceOf(StoreUnavailableError);
      expect((e as Error).message).toContain('stays_no_such_role');
      expect((e as Error).message).not.toContain('secretpw');
    } finally {
      await store.close();
    }
  });
});
