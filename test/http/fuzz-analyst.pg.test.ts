// The analyst endpoints fuzzed on PostgreSQL (the e2e tier: it needs the PostgreSQL server; skipped
// without one unless STAYS_TEST_PG_REQUIRED=1): fuzz-analyst.scenario.ts, as the SQLite run.
import { freshDatabase, pgAvailable } from '../helpers/pg.js';
import { fuzzAnalystSuite } from './fuzz-analyst.scenario.js';

const available = await pgAvailable();

fuzzAnalystSuite(
  'analyst endpoints under random input, PostgreSQL',
  async () => {
    const db = await freshDatabase();
    return { env: { STAYS_DATABASE_URL: db.url, STAYS_SECRET_KEY: 'ab'.repeat(32) }, drop: () => db.drop() };
  },
  !available,
);
