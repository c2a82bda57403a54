// Issue 26's acceptance (stepping.scenario.ts) through `stays serve` on PostgreSQL (the e2e tier:
// it needs the PostgreSQL server; skipped, saying so, without one unless STAYS_TEST_PG_REQUIRED=1);
// its answers compared with the app's in-process over the same database.
import { afterAll, describe, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { type TestDatabase, freshDatabase, pgAvailable } from '../helpers/pg.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';
import { START, runScenario, servedTarget } from './stepping.scenario.js';

const available = await pgAvailable();
let db: TestDatabase | undefined;
let stop: (() => Promise<void>) | undefined;
let r: Receiver | undefined;
afterAll(async () => {
  await stop?.();
  await r?.close();
  await db?.drop();
});

describe.skipIf(!available)('the simulated world observed six-hourly for 30 days, through stays serve on PostgreSQL', () => {
  it('one history row per distinct price run, one event and one signed delivery per drop, the same answers in-process', async () => {
    db = await freshDatabase();
    const clock = manualClock(START);
    r = await startReceiver();
    const s = await servedTarget({ STAYS_DATABASE_URL: db.url, STAYS_SECRET_KEY: 'ab'.repeat(32) }, r, clock);
    stop = s.stop;
    await runScenario(s.target);
  }, 120_000);
});
