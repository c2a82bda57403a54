// webhooks-resend.suite.ts on the SQLite store (the in-process tier). Its PostgreSQL run is webhooks-resend.pg.test.ts
// (e2e: it needs the PostgreSQL server); docs/testing.md.
import { sqliteKind } from './stores.js';
import { suite } from './webhooks-resend.suite.js';

suite(sqliteKind);
