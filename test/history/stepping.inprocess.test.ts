// Issue 26's acceptance (stepping.scenario.ts) with the app in-process on SQLite: a clock stepped
// six-hourly over 30 days, a watch's runs the only calls, checked against the world's truth.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { runDueWatches } from '../../src/core/ops/watch-runs.js';
import { type TestApp, startApp } from '../helpers/app.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';
import { START, runScenario } from './stepping.scenario.js';

const clock = manualClock(START);
let t: TestApp;
let r: Receiver;
beforeAll(async () => {
  t = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0' }, { clock });
  r = await startReceiver();
});
afterAll(async () => {
  await t?.stop();
  await r?.close();
});

describe('the simulated world observed six-hourly for 30 days, in-process', () => {
  it('one history row per distinct price run, one event and one signed delivery per drop', async () => {
    const account = await t.account({ credits: 100_000, rpm: 100_000 });
    await runScenario({
      clock,
      api: t,
      local: t,
      account,
      runDue: () => runDueWatches(t.runtime),
      receiver: r,
    });
  }, 120_000);
});
