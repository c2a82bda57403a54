// The words of calendar-diff/1 in GET /v1/market's `methods` and what the method does agree (issue
// 36, item 8): the text the API serves is read for its claims about a hold never seen free (taken
// before observation began) and about one seen free then taken, and the method is run on such
// holds; each claim (state and confidence) must be what the method answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKING_METHOD, inferBookings } from '../../src/core/analytics/bookings.js';
import type { ObservationRow } from '../../src/core/ports/store/observations.js';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';

let t: TestApp;
let a: TestAccount;
beforeAll(async () => {
  t = await startApp();
  a = await t.account({ credits: 1000, rpm: 10_000 });
});
afterAll(async () => {
  await t.stop();
});

const DAY = 86_400_000;
const dayMs = (d: string) => Date.parse(`${d}T00:00:00Z`);
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A month of calendar nights from 2030-03-01, each free unless in `taken`, observed at each instant. */
function observed(instants: readonly { at: number; taken: ReadonlySet<string> }[]): ObservationRow<'day'>[] {
  const rows: ObservationRow<'day'>[] = [];
  let id = 0;
  for (let i = 0; i < 31; i++) {
    const date = dateOf(dayMs('2030-03-01') + i * DAY);
    let last: ObservationRow<'day'> | undefined;
    for (const s of instants) {
      const value = { available: !s.taken.has(date), minNights: 1, checkIn: !s.taken.has(date), checkOut: true, bookable: !s.taken.has(date) };
      if (last && JSON.stringify(last.value) === JSON.stringify(value)) {
        last.lastSeen = s.at;
        last.timesSeen++;
        continue;
      }
      last = { id: ++id, platform: 'airbnb', listingId: '1', kind: 'day', key: date, currency: null, value, source: 'test', firstSeen: s.at, lastSeen: s.at, timesSeen: 1 };
      rows.push(last);
    }
  }
  return rows;
}

const stay = new Set(['2030-03-10', '2030-03-11', '2030-03-12']);
const T0 = dayMs('2030-02-20');

/** The state and confidence the text gives a hold matching `clause` (a regex with the confidence as its group 1). */
function claimed(text: string, clause: RegExp): number {
  const m = clause.exec(text);
  expect(m, `the method text says nothing matching ${clause}: ${text}`).not.toBeNull();
  return Number(m![1]);
}

describe('calendar-diff/1: its text in the market answer and its behaviour agree', () => {
  it('nights never seen free: the text says booked with the confidence the method gives them', async () => {
    const res = await t.req('/v1/market?location=Lisbon&from=2027-06-01&to=2027-07-01', { key: a.sandboxKey });
    expect(res.status).toBe(200);
    const text = ((await res.json()) as { data: { methods: Record<string, string> } }).data.methods[BOOKING_METHOD]!;
    expect(text).toBeTruthy();

    // Taken when first observed, 18 days ahead (within the guest window): never seen free.
    const never = inferBookings({
      days: observed([
        { at: T0, taken: stay },
        { at: T0 + DAY, taken: stay },
      ]),
      from: '2030-03-01',
      to: '2030-04-01',
    });
    const neverNight = never.nights.find((n) => n.date === '2030-03-10')!;
    // Seen free, then taken: a change seen between two observations.
    const seen = inferBookings({
      days: observed([
        { at: T0, taken: new Set() },
        { at: T0 + DAY, taken: stay },
      ]),
      from: '2030-03-01',
      to: '2030-04-01',
    });
    const seenNight = seen.nights.find((n) => n.date === '2030-03-10')!;

    // The text's one claim about nights never seen free names the state the method gives them.
    const sentences = text.split(/[;:]/).filter((s) => /never seen free/.test(s));
    expect(sentences.length).toBeGreaterThan(0);
    expect(neverNight.state).toBe('booked');
    expect(text).not.toMatch(/never seen free (?:is|are) (?:blocked|unknown)/);
    expect(claimed(text, /booked: confidence [\d.]+ when it was seen free and then taken, ([\d.]+) when its nights were never seen free/)).toBe(neverNight.confidence);
    expect(claimed(text, /booked: confidence ([\d.]+) when it was seen free and then taken/)).toBe(seenNight.confidence);
    expect(seenNight.state).toBe('booked');
    expect(never.bookings.map((b) => b.confidence)).toEqual([neverNight.confidence]);
  });
});
