// Tenancy of the history on SQLite (issue 35, item 5): tenancy.scenario.ts against `stays serve`
// over loopback, in each scope.
import { afterEach, describe, it } from 'vitest';
import { type Stays, startStays } from '../helpers/stays.js';
import { tenancy } from './tenancy.scenario.js';

let server: Stays | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const env = { STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0', STAYS_SIM_FAIL: '' };

describe('what accounts read of each other (SQLite)', () => {
  it('account scope (the default): an account reads nothing another observed, nor its cache', async () => {
    server = await startStays(env);
    await tenancy(server, 'account');
  }, 120_000);
  it('deployment scope: calendars and listing facts pooled, never another account query', async () => {
    server = await startStays({ ...env, STAYS_HISTORY_SCOPE: 'deployment' });
    await tenancy(server, 'deployment');
  }, 120_000);
});
