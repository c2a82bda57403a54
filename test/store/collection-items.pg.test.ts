// collection-items.suite.ts on PostgreSQL (the e2e tier: it needs the PostgreSQL server; skipped,
// saying so, without one unless STAYS_TEST_PG_REQUIRED=1). Its SQLite run is
// collection-items.inprocess.test.ts; docs/testing.md.
import { suite } from './collection-items.suite.js';
import { pgKind } from './stores.js';

suite(pgKind);
