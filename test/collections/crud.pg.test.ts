// Collections CRUD on PostgreSQL (issue 38, item 1; the e2e tier: skipped, saying so, without a
// server unless STAYS_TEST_PG_REQUIRED=1): crud.scenario.ts against `stays serve` on a fresh database.
import { afterAll, describe, it } from 'vitest';
import { pgAvailable } from '../helpers/pg.js';
import { type PgServer, servePg } from '../helpers/pg-serve.js';
import { collectionsCrud } from './crud.scenario.js';

const available = await pgAvailable();
let server: PgServer | undefined;
afterAll(async () => {
  await server?.stop();
});

describe.skipIf(!available)('collections (PostgreSQL)', () => {
  it('created, read, changed, paused, deleted; per account and environment; scoped, capped, validated, free', async () => {
    server = await servePg();
    await collectionsCrud(server.api);
  }, 120_000);
});
