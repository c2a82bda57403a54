// The watch rule engine (src/core/analytics/watch-rules.ts) on its own: what a run keeps of an
// answer, and which rule holds between two runs' states — every rule type, a first run against the
// runs after it, thresholds at their boundary, nightlyPrice against totalPrice, and the states a
// sandbox trigger makes up so that every rule holds. The same runs end to end: test/watches/.
import { describe, expect, it } from 'vitest';
import { calendarState, evaluate, priceState, ruleEvents, searchState, triggerStates } from '../../../src/core/analytics/watch-rules.js';
import type { Availability, Price, Property } from '../../../src/core/schemas/resources.js';
import type { CalendarState, PriceState, SearchState, WatchRule } from '../../../src/core/schemas/watches.js';

const below = (amount: number, field: 'nightlyPrice' | 'totalPrice' = 'nightlyPrice'): WatchRule => ({ type: 'price_below', amount, field });
const drop = (percent: number, field: 'nightlyPrice' | 'totalPrice' = 'nightlyPrice'): WatchRule => ({ type: 'price_drop', percent, field });
const NIGHTS: WatchRule = { type: 'nights_available' };
const MIN_NIGHTS: WatchRule = { type: 'min_nights_changed' };
const NEW: WatchRule = { type: 'new_listings' };

const price = (nightlyPrice: number | null, totalPrice: number | null = nightlyPrice === null ? null : nightlyPrice * 3): PriceState => ({ nightlyPrice, totalPrice, currency: 'EUR' });
const calendar = (days: Record<string, [available: boolean, minNights: number | null]>): CalendarState => ({
  listingId: 'airbnb/1',
  days: Object.fromEntries(Object.entries(days).map(([d, [available, minNights]]) => [d, { available, minNights }])),
});
type Listing = SearchState['listings'][number];
const listing = (platform: string, listingId: string): Listing => ({ platform, listingId, name: `Flat ${listingId}`, nightlyPrice: 80 });
const search = (...listings: Listing[]): SearchState => ({ listings });

describe('the state a run keeps', () => {
  it('of a price: the nightly and total price and the currency, nothing else', () => {
    const answer = { platform: 'airbnb', listingId: '1', currency: 'EUR', nightlyPrice: 90, totalPrice: 300, nights: 3, url: 'https://x.test/1' } as unknown as Price;
    expect(priceState(answer)).toEqual({ nightlyPrice: 90, totalPrice: 300, currency: 'EUR' });
  });

  it('of a calendar: each night of the one listing, by date, available and its minimum stay', () => {
    const answer = [
      {
        platform: 'airbnb',
        listingId: '1',
        dates: [
          { date: '2027-03-01', available: false, minNights: 2, checkIn: null, checkOut: null, bookable: null },
          { date: '2027-03-02', available: true, minNights: null, checkIn: null, checkOut: null, bookable: null },
        ],
      },
    ] as Availability[];
    expect(calendarState(answer)).toEqual({ listingId: '1', days: { '2027-03-01': { available: false, minNights: 2 }, '2027-03-02': { available: true, minNights: null } } });
  });

  it('of a search: each listing shown, its nightly price null when the search gave none', () => {
    const answer = [
      { platform: 'airbnb', platformListingId: '7', name: 'Flat 7', price: { nightlyPrice: 80 } },
      { platform: 'vrbo', platformListingId: '8', name: 'House 8', price: null },
    ] as unknown as Property[];
    expect(searchState(answer)).toEqual(search(listing('airbnb', '7'), { platform: 'vrbo', listingId: '8', name: 'House 8', nightlyPrice: null }));
  });
});

describe('price_below: edge-triggered', () => {
  it('holds on a first run already under the amount, with no state before', () => {
    expect(evaluate(below(100), null, price(99))).toEqual({ rule: below(100), before: null, after: price(99), changes: [] });
  });

  it('is strict: at the amount is not under it', () => {
    expect(evaluate(below(100), null, price(100))).toBeNull();
    expect(evaluate(below(100), price(120), price(100))).toBeNull();
    expect(evaluate(below(100), price(100), price(99.99))).toEqual({ rule: below(100), before: price(100), after: price(99.99), changes: [] });
  });

  it('holds once when the price goes under, not on the runs it stays under', () => {
    expect(evaluate(below(100), price(120), price(80))).not.toBeNull();
    expect(evaluate(below(100), price(80), price(70))).toBeNull();
    expect(evaluate(below(100), price(80), price(120))).toBeNull();
  });

  it('a price the run before could not see counts as not under', () => {
    expect(evaluate(below(100), price(null), price(80))).not.toBeNull();
  });

  it('never holds on a price this run could not see', () => {
    expect(evaluate(below(100), price(120), price(null))).toBeNull();
  });

  it('reads its own field: the total price, not the nightly one', () => {
    // 90 a night but 270 in all: under 100 a night, not under 250 in all.
    expect(evaluate(below(250, 'totalPrice'), null, price(90))).toBeNull();
    expect(evaluate(below(100, 'nightlyPrice'), null, price(90))).not.toBeNull();
    expect(evaluate(below(250, 'totalPrice'), price(90), price(80, 240))).toEqual({ rule: below(250, 'totalPrice'), before: price(90), after: price(80, 240), changes: [] });
  });
});

describe('price_drop', () => {
  it('never holds on a first run: there is nothing to fall from', () => {
    expect(evaluate(drop(10), null, price(1))).toBeNull();
  });

  it('holds on a fall of at least the percent, the boundary included', () => {
    expect(evaluate(drop(10), price(100), price(90))).toEqual({ rule: drop(10), before: price(100), after: price(90), changes: [] });
    expect(evaluate(drop(10), price(100), price(90.01))).toBeNull();
    expect(evaluate(drop(10), price(100), price(50))).not.toBeNull();
  });

  it('never on a rise, the same price, or a price either run could not see', () => {
    expect(evaluate(drop(10), price(100), price(120))).toBeNull();
    expect(evaluate(drop(10), price(100), price(100))).toBeNull();
    expect(evaluate(drop(10), price(null), price(50))).toBeNull();
    expect(evaluate(drop(10), price(100), price(null))).toBeNull();
  });

  it('compares from one run to the next, not from the first run', () => {
    // 100 → 95 → 90: each step 5 %, 10 % overall; a 10 % rule sees neither step.
    expect(evaluate(drop(10), price(100), price(95))).toBeNull();
    expect(evaluate(drop(10), price(95), price(90))).toBeNull();
  });

  it('reads its own field', () => {
    const before = price(100, 300);
    const after = price(100, 240); // the same nightly rate, 20 % less in all (a fee dropped)
    expect(evaluate(drop(10, 'nightlyPrice'), before, after)).toBeNull();
    expect(evaluate(drop(10, 'totalPrice'), before, after)).toEqual({ rule: drop(10, 'totalPrice'), before, after, changes: [] });
  });
});

describe('nights_available', () => {
  it('never holds on a first run', () => {
    expect(evaluate(NIGHTS, null, calendar({ '2027-03-01': [true, 2] }))).toBeNull();
  });

  it('holds for each night taken the run before and available now, in the calendar’s order', () => {
    const prev = calendar({ '2027-03-01': [false, 2], '2027-03-02': [true, 2], '2027-03-03': [false, 2] });
    const cur = calendar({ '2027-03-01': [true, 2], '2027-03-02': [true, 2], '2027-03-03': [true, 2] });
    expect(evaluate(NIGHTS, prev, cur)).toEqual({
      rule: NIGHTS,
      before: null,
      after: null,
      changes: [
        { date: '2027-03-01', available: { from: false, to: true } },
        { date: '2027-03-03', available: { from: false, to: true } },
      ],
    });
  });

  it('not for a night that was taken and is still, or became taken, or the run before did not see', () => {
    const prev = calendar({ '2027-03-01': [false, 2], '2027-03-02': [true, 2] });
    const cur = calendar({ '2027-03-01': [false, 2], '2027-03-02': [false, 2], '2027-03-04': [true, 2] });
    expect(evaluate(NIGHTS, prev, cur)).toBeNull();
  });
});

describe('min_nights_changed', () => {
  it('never holds on a first run', () => {
    expect(evaluate(MIN_NIGHTS, null, calendar({ '2027-03-01': [true, 2] }))).toBeNull();
  });

  it('holds for each night whose stated minimum stay changed, either way', () => {
    const prev = calendar({ '2027-03-01': [true, 2], '2027-03-02': [true, 5], '2027-03-03': [true, 3] });
    const cur = calendar({ '2027-03-01': [false, 3], '2027-03-02': [true, 1], '2027-03-03': [true, 3] });
    expect(evaluate(MIN_NIGHTS, prev, cur)?.changes).toEqual([
      { date: '2027-03-01', minNights: { from: 2, to: 3 } },
      { date: '2027-03-02', minNights: { from: 5, to: 1 } },
    ]);
  });

  it('not when either run could not see the minimum stay (null)', () => {
    expect(evaluate(MIN_NIGHTS, calendar({ '2027-03-01': [true, null] }), calendar({ '2027-03-01': [true, 3] }))).toBeNull();
    expect(evaluate(MIN_NIGHTS, calendar({ '2027-03-01': [true, 3] }), calendar({ '2027-03-01': [true, null] }))).toBeNull();
  });

  it('is its own rule: a night becoming available is not a minimum stay changing', () => {
    const prev = calendar({ '2027-03-01': [false, 2] });
    const cur = calendar({ '2027-03-01': [true, 2] });
    expect(evaluate(MIN_NIGHTS, prev, cur)).toBeNull();
    expect(evaluate(NIGHTS, prev, cur)).not.toBeNull();
  });
});

describe('new_listings', () => {
  it('never holds on a first run: every listing would be new', () => {
    expect(evaluate(NEW, null, search(listing('airbnb', '1')))).toBeNull();
  });

  it('holds with the listings the run before did not show, a listing being its platform and id', () => {
    const prev = search(listing('airbnb', '1'), listing('vrbo', '2'));
    const cur = search(listing('airbnb', '1'), listing('airbnb', '2'), listing('booking', '3'));
    expect(evaluate(NEW, prev, cur)).toEqual({ rule: NEW, before: null, after: null, changes: [listing('airbnb', '2'), listing('booking', '3')] });
  });

  it('not for a listing that left, nor for one renamed or repriced', () => {
    const prev = search(listing('airbnb', '1'), listing('airbnb', '2'));
    expect(evaluate(NEW, prev, search(listing('airbnb', '1')))).toBeNull();
    expect(evaluate(NEW, prev, search({ ...listing('airbnb', '2'), name: 'Renamed', nightlyPrice: 10 }))).toBeNull();
  });
});

describe('ruleEvents: a run’s events', () => {
  it('each rule that holds, in the order of the watch’s rules', () => {
    const rules = [drop(10), below(100), below(50)];
    expect(ruleEvents(rules, price(120), price(90), { trigger: false }).map((e) => e.rule)).toEqual([drop(10), below(100)]);
  });

  it('a first run raises only price_below', () => {
    expect(ruleEvents([drop(10), below(100)], null, price(90), { trigger: false }).map((e) => e.rule.type)).toEqual(['price_below']);
    expect(ruleEvents([NIGHTS, MIN_NIGHTS], null, calendar({ '2027-03-01': [true, 2] }), { trigger: false })).toEqual([]);
    expect(ruleEvents([NEW], null, search(listing('airbnb', '1')), { trigger: false })).toEqual([]);
  });

  it('a sandbox trigger raises every rule on every run, first runs included', () => {
    const cur = price(120, 360);
    expect(ruleEvents([below(50), drop(10, 'totalPrice')], null, cur, { trigger: true }).map((e) => e.rule.type)).toEqual(['price_below', 'price_drop']);
    expect(ruleEvents([below(50), drop(10, 'totalPrice')], cur, cur, { trigger: true })).toHaveLength(2);
    const days = calendar({ '2027-03-01': [false, 2], '2027-03-02': [true, 2] });
    expect(ruleEvents([NIGHTS, MIN_NIGHTS], null, days, { trigger: true }).map((e) => e.changes)).toEqual([
      [{ date: '2027-03-01', available: { from: false, to: true } }],
      [{ date: '2027-03-01', minNights: { from: 3, to: 2 } }],
    ]);
    expect(ruleEvents([NEW], null, search(listing('airbnb', '1'), listing('airbnb', '2')), { trigger: true })[0]!.changes).toEqual([listing('airbnb', '1')]);
  });
});

describe('triggerStates: what a trigger’s runs are taken to have seen (docs/sandbox.md)', () => {
  it('a price: 100 times this one before; under a price_below amount now (0.9 of it, to the cent), both prices by one factor', () => {
    expect(triggerStates(drop(10), price(120, 360))).toEqual({ prev: price(12_000, 36_000), cur: price(120, 360) });
    expect(triggerStates(below(50), price(120, 360))).toEqual({ prev: price(4_500, 13_500), cur: price(45, 135) });
    expect(triggerStates(below(500), price(120, 360))).toEqual({ prev: price(12_000, 36_000), cur: price(120, 360) });
    expect(triggerStates(below(33.33, 'totalPrice'), price(120, 360))).toEqual({ prev: price(1_000, 3_000), cur: price(10, 30) });
  });

  it('a price the run could not see is taken as 100', () => {
    expect(triggerStates(drop(10), price(null, null))).toEqual({ prev: price(10_000, null), cur: price(null, null) });
  });

  it('a calendar: its first night taken, with a longer minimum stay (1 when none is stated), then available', () => {
    const s = triggerStates(NIGHTS, calendar({ '2027-03-01': [false, null], '2027-03-02': [false, 4] }));
    expect(s).toEqual({ prev: calendar({ '2027-03-01': [false, 2], '2027-03-02': [false, 4] }), cur: calendar({ '2027-03-01': [true, 1], '2027-03-02': [false, 4] }) });
  });

  it('an empty calendar or search: nothing to take away, so nothing holds', () => {
    const empty = calendar({});
    expect(triggerStates(NIGHTS, empty)).toEqual({ prev: empty, cur: empty });
    expect(ruleEvents([NIGHTS, MIN_NIGHTS], null, empty, { trigger: true })).toEqual([]);
    expect(ruleEvents([NEW], null, search(), { trigger: true })).toEqual([]);
  });
});
