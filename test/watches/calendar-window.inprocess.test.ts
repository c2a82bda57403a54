// A calendar watch whose window starts today (issue 36, item 14): accepted at creation, and as
// the days pass its runs watch what is left of the window (its start clipped to today, UTC), not
// end the watch the next day with date_in_past; once no night is left it ends, saying so. A start
// already past is still refused at creation, as GET /v1/availability refuses it. Over the app
// in-process, a sandbox key, a manual clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { expectError } from '../helpers/assert.js';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2027, 2, 1, 9);
const clock = manualClock(T0);
let t: TestApp;
let a: TestAccount;
beforeAll(async () => {
  t = await startApp({}, { clock, deliver: false });
  a = await t.account({ rpm: 1_000_000 });
});
afterAll(async () => {
  await t?.stop();
});

type Run = { watchId: string; outcome: string; error: { code: string; message: string } | null };
const run = async () => {
  const res = await t.req('/v1/watches/run', { method: 'POST', key: a.sandboxKey, headers: { 'content-type': 'application/json' }, body: '{}' });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Run[] }).data;
};
const create = (startDate: string, endDate: string) =>
  t.req('/v1/watches', {
    method: 'POST',
    key: a.sandboxKey,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ call: { type: 'availability', params: { platform: 'airbnb', listingId: '12345678', startDate, endDate } }, rules: [{ type: 'nights_available' }], intervalMinutes: 1440 }),
  });

describe('a calendar watch whose window starts today', () => {
  it('runs on each day of its window, the past nights dropped, then ends saying its window ended', async () => {
    const made = await create('2027-03-01', '2027-03-04');
    expect(made.status, await made.clone().text()).toBe(201);
    const id = ((await made.json()) as { data: { id: string } }).data.id;
    for (let day = 0; day < 3; day++) {
      clock.set(T0 + day * DAY);
      const runs = await run();
      expect(runs.map((r) => [r.watchId, r.outcome, r.error])).toEqual([[id, 'ok', null]]);
    }
    const shown = (await (await t.req(`/v1/watches/${id}`, { key: a.sandboxKey })).json()) as { data: { status: string; runs: number; call: { params: { startDate: string } } } };
    // The watch keeps the window as it was asked.
    expect(shown.data).toMatchObject({ status: 'active', runs: 3, call: { params: { startDate: '2027-03-01' } } });
    // 03-04: no night of the window is left.
    clock.set(T0 + 3 * DAY);
    const last = await run();
    expect(last).toEqual([expect.objectContaining({ watchId: id, outcome: 'ended', error: expect.objectContaining({ code: 'date_in_past' }) })]);
    expect(last[0]!.error!.message).toMatch(/window ended: endDate 2027-03-04 is not after today \(2027-03-04 UTC\)/);
    const ended = (await (await t.req(`/v1/watches/${id}`, { key: a.sandboxKey })).json()) as { data: { status: string; endedReason: string } };
    expect(ended.data).toMatchObject({ status: 'ended', endedReason: expect.stringMatching(/window ended/) });
  });

  it('a start already past is refused at creation, as the endpoint refuses it', async () => {
    clock.set(T0 + 10 * DAY);
    await expectError(await create('2027-03-10', '2027-03-20'), 400, 'date_in_past', 'call.params.startDate');
  });
});
