// watches.suite.ts on PostgreSQL (the e2e tier: it needs the PostgreSQL server; skipped, saying
// so, without one unless STAYS_TEST_PG_REQUIRED=1). Its SQLite run is watches.inprocess.test.ts;
// docs/testing.md.
import { pgKind } from './stores.js';
import { suite } from './watches.suite.js';

suite(pgKind);
