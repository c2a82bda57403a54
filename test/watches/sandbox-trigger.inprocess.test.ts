// A sandbox trigger's price event (issue 36, item 11; docs/sandbox.md): the run before is taken to
// have seen 100 times this run's prices, and price_below brings this run's under its amount; both
// prices move by one factor, so `before` and `after` each show a nightly price and a total that
// agree with each other (a nightly price 100 times the total's share was shown beside the same
// total before). Over the app in-process, the events read back through GET /v1/watches/{id}/events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { runDueWatches } from '../../src/core/ops/watch-runs.js';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';

const clock = manualClock(Date.UTC(2026, 10, 26, 12));
let t: TestApp;
let a: TestAccount;
beforeAll(async () => {
  t = await startApp({}, { clock });
  a = await t.account({ credits: 100, rpm: 100_000 });
});
afterAll(async () => {
  await t?.stop();
});

type Prices = { nightlyPrice: number; totalPrice: number; currency: string };
type Event = { rule: { type: string; field: string }; before: Prices; after: Prices };
const post = (body: unknown) => t.req('/v1/watches', { method: 'POST', key: a.sandboxKey, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('a sandbox price trigger', () => {
  it('before and after each show prices computed the same way: the nightly price and the total in one proportion', async () => {
    const quote = (await (await t.req('/v1/price?platform=airbnb&listingId=100&checkIn=2027-03-01&checkOut=2027-03-04&adults=2', { key: a.sandboxKey })).json()) as { data: Prices };
    const share = quote.data.totalPrice / quote.data.nightlyPrice;
    for (const field of ['nightlyPrice', 'totalPrice'] as const) {
      const made = await post({
        call: { type: 'price', params: { platform: 'airbnb', listingId: '100', checkIn: '2027-03-01', checkOut: '2027-03-04', adults: 2 } },
        rules: [
          { type: 'price_below', amount: 50, field },
          { type: 'price_drop', percent: 10, field },
        ],
      });
      expect(made.status, await made.clone().text()).toBe(201);
      const id = ((await made.json()) as { data: { id: string } }).data.id;
      await runDueWatches(t.runtime, { accountId: a.id });
      const events = ((await (await t.req(`/v1/watches/${id}/events`, { key: a.sandboxKey })).json()) as { data: Event[] }).data;
      expect(events.map((e) => e.rule.type)).toEqual(['price_below', 'price_drop']);
      for (const e of events) {
        for (const s of [e.before, e.after]) expect(s.totalPrice / s.nightlyPrice, `${field} ${e.rule.type} ${JSON.stringify(e)}`).toBeCloseTo(share, 1);
        // The run before: 100 times this run's prices, both of them.
        expect(e.before.nightlyPrice).toBeCloseTo(e.after.nightlyPrice * 100, 0);
        expect(e.before.totalPrice).toBeCloseTo(e.after.totalPrice * 100, 0);
      }
      const below = events[0]!;
      expect(below.after[field]).toBeLessThan(50);
      // price_drop shows this run's quote as it came.
      expect(events[1]!.after).toMatchObject({ nightlyPrice: quote.data.nightlyPrice, totalPrice: quote.data.totalPrice });
    }
  });
});
