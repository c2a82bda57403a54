// Issue 26's acceptance (stepping.scenario.ts) through `stays serve` on SQLite, over HTTP on
// loopback; its answers compared with the app's in-process over the same SQLite file. The
// PostgreSQL run is stepping.pg.test.ts.
import { afterAll, describe, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';
import { START, runScenario, servedTarget } from './stepping.scenario.js';

let stop: (() => Promise<void>) | undefined;
let r: Receiver | undefined;
afterAll(async () => {
  await stop?.();
  await r?.close();
});

describe('the simulated world observed six-hourly for 30 days, through stays serve on SQLite', () => {
  it('one history row per distinct price run, one event and one signed delivery per drop, the same answers in-process', async () => {
    const clock = manualClock(START);
    r = await startReceiver();
    const s = await servedTarget({}, r, clock);
    stop = s.stop;
    await runScenario(s.target);
  }, 120_000);
});
