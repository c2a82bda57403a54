// GET /v1/history/bookings on PostgreSQL (the e2e tier: it needs the PostgreSQL server; skipped
// without one unless STAYS_TEST_PG_REQUIRED=1): bookings.scenario.ts, as the SQLite run.
import { freshDatabase, pgAvailable } from '../helpers/pg.js';
import { bookingsSuite } from './bookings.scenario.js';

const available = await pgAvailable();

bookingsSuite(
  'booking inference on PostgreSQL',
  async () => {
    const db = await freshDatabase();
    return { env: { STAYS_DATABASE_URL: db.url, STAYS_SECRET_KEY: 'ab'.repeat(32) }, drop: () => db.drop() };
  },
  !available,
);
