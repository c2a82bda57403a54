// Collections CRUD on SQLite (issue 38, item 1): crud.scenario.ts against `stays serve` over loopback.
import { afterAll, describe, it } from 'vitest';
import { type Stays, startStays } from '../helpers/stays.js';
import { collectionsCrud } from './crud.scenario.js';

let server: Stays | undefined;
afterAll(async () => {
  await server?.stop();
});

describe('collections (SQLite)', () => {
  it('created, read, changed, paused, deleted; per account and environment; scoped, capped, validated, free', async () => {
    server = await startStays();
    await collectionsCrud(server);
  }, 120_000);
});
