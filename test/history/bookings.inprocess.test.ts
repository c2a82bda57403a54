// GET /v1/history/bookings on SQLite (the data directory's file): bookings.scenario.ts. The
// PostgreSQL run is bookings.pg.test.ts.
import { bookingsSuite } from './bookings.scenario.js';

bookingsSuite('booking inference on SQLite', async () => ({ env: {} }));
