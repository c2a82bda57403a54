// Tenancy of the history on PostgreSQL (issue 35, item 5; the e2e tier: skipped, saying so,
// without a server unless STAYS_TEST_PG_REQUIRED=1): tenancy.scenario.ts against `stays serve` on
// a fresh database, in each scope.
import { afterEach, describe, it } from 'vitest';
import { createRuntime } from '../../src/runtime.js';
import { type TestDatabase, freshDatabase, pgAvailable } from '../helpers/pg.js';
import { accountOn } from '../helpers/seed.js';
import { type Api, type Stays, startStays } from '../helpers/stays.js';
import { tenancy } from './tenancy.scenario.js';

const available = await pgAvailable();
let server: Stays | undefined;
let db: TestDatabase | undefined;
afterEach(async () => {
  await server?.stop();
  await db?.drop();
  server = undefined;
  db = undefined;
});

/** `stays serve` on a fresh database; its accounts made on that database (as `stays admin --database-url` does). */
async function serve(env: Record<string, string> = {}): Promise<Api> {
  db = await freshDatabase();
  const store = { STAYS_DATABASE_URL: db.url, STAYS_SECRET_KEY: 'ab'.repeat(32) };
  const s = await startStays({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0', STAYS_SIM_FAIL: '', ...store, ...env });
  server = s;
  return {
    ...s,
    async account(o) {
      const rt = createRuntime({ config: { dataDir: s.dataDir }, env: store });
      try {
        return await accountOn(rt, o);
      } finally {
        await rt.close();
      }
    },
  };
}

describe.skipIf(!available)('what accounts read of each other (PostgreSQL)', () => {
  it('account scope (the default): an account reads nothing another observed, nor its cache', async () => {
    await tenancy(await serve(), 'account');
  }, 120_000);
  it('deployment scope: calendars and listing facts pooled, never another account query', async () => {
    await tenancy(await serve({ STAYS_HISTORY_SCOPE: 'deployment' }), 'deployment');
  }, 120_000);
});
