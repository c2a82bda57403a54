// collection-items.suite.ts on the SQLite store (the in-process tier). Its PostgreSQL run is
// collection-items.pg.test.ts (e2e: it needs the PostgreSQL server); docs/testing.md.
import { suite } from './collection-items.suite.js';
import { sqliteKind } from './stores.js';

suite(sqliteKind);
