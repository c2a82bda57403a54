// Upgrading a database made before issue 21 (item 5), on both stores: keys that had stays.read
// (and so could manage webhooks) get webhooks.write; other keys do not; webhooks made before
// belong to the live environment (every event before was a live one), and env is stored per row.
// The later migrations run too: issue 26's gives watches.write to the same keys (stays.read), and
// issue 38's collections.write to every key with watches.write.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openPgStore } from '../../src/store/postgres/store.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import type { Store } from '../../src/core/ports/store.js';
import { freshDatabase, type TestDatabase } from '../helpers/pg.js';
import { tempDir } from '../helpers/stays.js';
import { pgKind } from './stores.js';
import { migrationsFor } from '../../src/store/sql/migrations.js';

const PG_MIGRATIONS = migrationsFor('postgres');
const MIGRATIONS = migrationsFor('sqlite');

const T0 = 1_800_000_000_000;
/** Rows as an older build wrote them. */
const OLD_ROWS = [
  `INSERT INTO accounts (id, plan_code, plan_name, plan_status, requests_per_minute, free_tier_budget, created_at) VALUES ('acct_1', 'pro', 'Pro', 'active', 60, 300, ${T0})`,
  `INSERT INTO api_keys (id, account_id, env, scopes, hash, prefix, created_at) VALUES ('key_default', 'acct_1', 'sandbox', 'stays.read,account.read', 'h1', 'stay_test_aaaa', ${T0})`,
  `INSERT INTO api_keys (id, account_id, env, scopes, hash, prefix, created_at) VALUES ('key_read_billing', 'acct_1', 'live', 'billing.write,stays.read', 'h2', 'stay_live_aaaa', ${T0})`,
  `INSERT INTO api_keys (id, account_id, env, scopes, hash, prefix, created_at) VALUES ('key_billing', 'acct_1', 'live', 'billing.write', 'h3', 'stay_live_bbbb', ${T0})`,
  `INSERT INTO webhooks (id, account_id, url, events, description, secret, created_at) VALUES ('wh_old', 'acct_1', 'https://example.com/h', '["job.succeeded"]', NULL, 'v1.x', ${T0})`,
];

/** The index of this item's migration: every migration before it is the "older build". */
const mine = (list: string[]) => {
  const i = list.findIndex((m) => m.includes("',webhooks.write'"));
  expect(i).toBeGreaterThan(0);
  return i;
};

async function expectUpgraded(store: Store) {
  expect((await store.findKeyByHash('h1'))!.key.scopes).toEqual(['stays.read', 'account.read', 'webhooks.write', 'watches.write', 'collections.write']);
  expect((await store.findKeyByHash('h2'))!.key.scopes).toEqual(['billing.write', 'stays.read', 'webhooks.write', 'watches.write', 'collections.write']);
  expect((await store.findKeyByHash('h3'))!.key.scopes).toEqual(['billing.write']);
  expect(await store.getWebhook('wh_old')).toMatchObject({ id: 'wh_old', env: 'live' });
  expect((await store.listWebhooks('acct_1', 'live')).map((w) => w.id)).toEqual(['wh_old']);
  expect(await store.listWebhooks('acct_1', 'sandbox')).toEqual([]);
  expect((await store.webhooksFor('acct_1', 'job.succeeded', 'live')).map((w) => w.id)).toEqual(['wh_old']);
  expect(await store.webhooksFor('acct_1', 'job.succeeded', 'sandbox')).toEqual([]);
  // New rows keep the environment they are given.
  await store.createWebhook({ id: 'wh_new', accountId: 'acct_1', env: 'sandbox', url: 'https://example.com/s', events: ['job.queued'], description: null, secretEnc: 'v1.y', createdAt: T0 + 1 });
  expect((await store.listWebhooks('acct_1', 'sandbox')).map((w) => [w.id, w.env])).toEqual([['wh_new', 'sandbox']]);
}

describe('issue 21 migration: webhooks.write and webhooks.env', () => {
  let store: Store | undefined;
  let db: TestDatabase | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
    await db?.drop();
    db = undefined;
  });

  it('sqlite: an older data directory is upgraded on open', async () => {
    const file = join(tempDir(), 'data', 'stays.db');
    mkdirSync(dirname(file), { recursive: true });
    const old = new Database(file);
    const upTo = mine(MIGRATIONS);
    for (let v = 0; v < upTo; v++) old.exec(MIGRATIONS[v]!);
    old.pragma(`user_version = ${upTo}`);
    for (const r of OLD_ROWS) old.exec(r);
    old.close();
    store = openSqliteStore(file);
    await expectUpgraded(store);
  });

  it.skipIf(!pgKind.available)('postgres: an older database is upgraded on open', async () => {
    db = await freshDatabase();
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      await c.query('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)');
      const upTo = mine(PG_MIGRATIONS);
      for (let v = 0; v < upTo; v++) {
        await c.query(PG_MIGRATIONS[v]!);
        await c.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, 0)', [v + 1]);
      }
      for (const r of OLD_ROWS) await c.query(r);
    } finally {
      await c.end();
    }
    store = openPgStore(db.url, { poolMax: 2 });
    await store.ready();
    await expectUpgraded(store);
  });
});
