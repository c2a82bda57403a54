// Daily watches under a daily cron (issue 36, item 3): a watch runs on its phase (created at +
// k × interval), due from WATCH_SLACK_MS (a minute) before each nominal time, so a cron tick a few
// milliseconds or seconds early or late runs it every day (it used to be due the last run plus a
// day, to the millisecond, and a tick a little early found nothing due: 23 runs in 31 days).
// A property over random phases and jitters, through POST /v1/watches/run (what `stays watch run`
// calls) on a manual clock, over the app in-process.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { type TestApp, startApp } from '../helpers/app.js';

const DAY = 86_400_000;
const CRON = Date.UTC(2026, 11, 1, 6); // 06:00 UTC, the cron's time of day
const clock = manualClock(CRON);
let t: TestApp;
beforeAll(async () => {
  t = await startApp({}, { clock, deliver: false });
});
afterAll(async () => {
  await t?.stop();
});

const post = async (path: string, key: string, body: unknown) => {
  const res = await t.req(path, { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as { data: { id: string; missedRuns?: number; watchId?: string }[] & { id: string } } };
};

describe('a daily watch under a daily cron', () => {
  it('runs once on every day, whatever its phase and however early or late (by seconds) each tick comes', async () => {
    let day = 0;
    await fc.assert(
      fc.asyncProperty(
        // The watch made at a time of day near the cron's (within 30 s either side) or anywhere in the day.
        fc.oneof(fc.integer({ min: -30_000, max: 30_000 }), fc.integer({ min: 0, max: DAY - 1 })),
        // Each tick up to 5 s early or late.
        fc.array(fc.integer({ min: -5_000, max: 5_000 }), { minLength: 20, maxLength: 20 }),
        async (phase, jitters) => {
          // A fresh account per case, its watches apart from the cases before.
          const key = (await t.account({ rpm: 1_000_000 })).sandboxKey;
          day += 40;
          clock.set(CRON + day * DAY + phase);
          const made = await post('/v1/watches', key, { call: { type: 'search', params: { location: 'Lisbon' } }, rules: [{ type: 'new_listings' }], intervalMinutes: 1440 });
          expect(made.status).toBe(201);
          const ran: number[] = [];
          for (const [i, jitter] of jitters.entries()) {
            clock.set(CRON + (day + 1 + i) * DAY + jitter);
            const run = await post('/v1/watches/run', key, {});
            expect(run.status).toBe(200);
            ran.push(run.body.data.length);
          }
          expect(ran).toEqual(jitters.map(() => 1));
        },
      ),
      { numRuns: 25, seed: 3605 },
    );
  }, 120_000);
});
