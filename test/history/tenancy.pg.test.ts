// Tenancy of the history on PostgreSQL (issue 35, item 5; the e2e tier: skipped, saying so,
// without a server unless STAYS_TEST_PG_REQUIRED=1): tenancy.scenario.ts against `stays serve` on
// a fresh database, in each scope.
import { afterEach, describe, it } from 'vitest';
import { pgAvailable } from '../helpers/pg.js';
import { type PgServer, servePg } from '../helpers/pg-serve.js';
import { tenancy } from './tenancy.scenario.js';

const available = await pgAvailable();
let server: PgServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe.skipIf(!available)('what accounts read of each other (PostgreSQL)', () => {
  it('account scope (the default): an account reads nothing another observed, nor its cache', async () => {
    server = await servePg();
    await tenancy(server.api, 'account');
  }, 120_000);
  it('deployment scope: calendars and listing facts pooled, never another account query', async () => {
    server = await servePg({ STAYS_HISTORY_SCOPE: 'deployment' });
    await tenancy(server.api, 'deployment');
  }, 120_000);
});
