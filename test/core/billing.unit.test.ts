// The billing formulas (src/core/billing.ts) against the spec's table ("Billing rules") and
// D1-D5, D25, D26, directly: the HTTP tests show the same figures end to end
// (test/http/stays-billing.inprocess.test.ts, test/http/live-path.inprocess.test.ts).
import { describe, expect, it } from 'vitest';
import { GOOGLE_COMPARE_COST, PRICE_COST, STAY_LOOKUP_COST, availabilityCost, listingCost, reviewsCost, searchLegCost, searchWorstCase, stayRowsCost } from '../../src/core/billing.js';

describe('search legs (D3): per result and platform, at least 5; google 15 per page of up to 20', () => {
  it.each([
    ['airbnb', 1, 5],
    ['airbnb', 2, 5],
    ['airbnb', 3, 6],
    ['airbnb', 50, 100],
    ['booking', 4, 5],
    ['booking', 5, 5],
    ['booking', 6, 6],
    ['vrbo', 7, 7],
    ['google', 1, 15],
    ['google', 20, 15],
    ['google', 21, 30],
    ['google', 60, 45],
  ] as const)('%s with %i results costs %i', (platform, results, credits) => {
    expect(searchLegCost(platform, results)).toBe(credits);
  });

  it('an empty or failed leg costs 0, whatever the platform', () => {
    for (const p of ['airbnb', 'booking', 'vrbo', 'google'] as const) {
      expect(searchLegCost(p, 0)).toBe(0);
      expect(searchLegCost(p, -1)).toBe(0);
    }
  });

  it('the worst case of a search (D5) is every leg full at the limit', () => {
    expect(searchWorstCase(['airbnb', 'booking', 'vrbo', 'google'], 20)).toBe(40 + 20 + 20 + 15);
    expect(searchWorstCase(['booking'], 1)).toBe(5);
    expect(searchWorstCase([], 20)).toBe(0);
  });
});

describe('reviews (D4): per review, at least 5; none costs 0', () => {
  it.each([
    ['airbnb', 1, 5],
    ['airbnb', 2, 10],
    ['booking', 3, 5],
    ['booking', 12, 12],
    ['vrbo', 9, 9],
    ['airbnb', 0, 0],
    ['vrbo', 0, 0],
  ] as const)('%s with %i reviews costs %i', (platform, reviews, credits) => {
    expect(reviewsCost(platform, reviews)).toBe(credits);
  });
});

describe('flat prices', () => {
  it('price 3, price-compare 30 (D1), listing 3 and vrbo 15 (D25)', () => {
    expect(PRICE_COST).toBe(3);
    expect(GOOGLE_COMPARE_COST).toBe(30);
    expect(listingCost('airbnb')).toBe(3);
    expect(listingCost('booking')).toBe(3);
    expect(listingCost('google')).toBe(3);
    expect(listingCost('vrbo')).toBe(15);
  });
});

describe('availability (D2): max(5, ceil(days / 2)); vrbo from 12', () => {
  it.each([
    ['airbnb', 1, 5],
    ['airbnb', 10, 5],
    ['airbnb', 11, 6],
    ['booking', 30, 15],
    ['vrbo', 1, 12],
    ['vrbo', 24, 12],
    ['vrbo', 25, 13],
  ] as const)('%s for %i days costs %i', (platform, days, credits) => {
    expect(availabilityCost(platform, days)).toBe(credits);
  });
});

describe('Family S (D26)', () => {
  it('a lookup or sub-resource costs 1; rows cost 1 each, 2 with details; missing rows 0', () => {
    expect(STAY_LOOKUP_COST).toBe(1);
    expect(stayRowsCost(7)).toBe(7);
    expect(stayRowsCost(7, true)).toBe(14);
    expect(stayRowsCost(0, true)).toBe(0);
    expect(stayRowsCost(-3)).toBe(0);
  });
});
