// watches.suite.ts on the SQLite store (the in-process tier). Its PostgreSQL run is
// watches.pg.test.ts (e2e: it needs the PostgreSQL server); docs/testing.md.
import { sqliteKind } from './stores.js';
import { suite } from './watches.suite.js';

suite(sqliteKind);
