// match-decisions.suite.ts on the SQLite store (the in-process tier). Its PostgreSQL run is
// match-decisions.pg.test.ts (e2e: it needs the PostgreSQL server); docs/testing.md.
import { suite } from './match-decisions.suite.js';
import { sqliteKind } from './stores.js';

suite(sqliteKind);
