// A collection day after day (issue 38's goal, a few days of the month bench): each day's pass
// spends at most maxCreditsPerDay, billed exactly (the run's meta, the ledger and the day's
// reservations agree), within 10 % of the estimate once a discovery has priced itself, and the
// market over the collection is the world's truth for the nights it tracked, its coverage stated.
// A budget that covers half of it tracks a stated sample and still never spends past it.
// bench/collection-month.mjs runs the same harness over 30 days.
import { describe, expect, it } from 'vitest';
import { type MonthResult, runMonth } from '../helpers/collection-month.js';

const BOX = '-40.0,40.0,-39.975,40.025';

function checkDays(r: MonthResult): void {
  for (const d of r.days) {
    expect(d.spent, d.day).toBeGreaterThan(0);
    expect(d.spent, d.day).toBeLessThanOrEqual(r.maxCreditsPerDay);
    expect(d.ledger, d.day).toBe(d.spent);
    expect(d.reserved, d.day).toBe(d.spent);
    // The figure rests on every tracked night, and is the world's truth for them at that instant.
    expect(d.sampleSize, d.day).toBe(d.tracked * 30);
    expect(d.listings, d.day).toBe(d.tracked);
    expect(Math.abs(d.rate - d.truth), d.day).toBeLessThanOrEqual(0.00005);
    expect(d.coverage.tracked, d.day).toBe(d.tracked);
    expect(d.coverage.observed, d.day).toBe(d.tracked);
  }
  // From the second day the estimate rests on the discovery that ran (the first has only what the
  // store knew of the area: nothing, on a fresh one).
  for (const d of r.days.slice(1)) expect(Math.abs(d.spent - d.estimate) / d.spent, d.day).toBeLessThanOrEqual(0.1);
}

describe('a collection day after day on the simulated upstream', () => {
  it('a budget that covers the market: every listing tracked each day, spend within budget and estimate, occupancy the truth', async () => {
    const r = await runMonth({ days: 3, bbox: BOX, platforms: 'vrbo', horizonNights: 30, budgetShare: 1.1 });
    checkDays(r);
    for (const d of r.days) {
      expect(d.deferred, d.day).toBe(0);
      expect(d.coverage).toMatchObject({ sampled: false, population: d.tracked });
      expect(d.coverage.statement).toContain(`${d.tracked} of ${d.tracked} listings found, 100.0 %`);
    }
  }, 120_000);

  it('a budget that covers half: a stated sample, the same each day, never over the budget', async () => {
    const r = await runMonth({ days: 3, bbox: BOX, platforms: 'vrbo', horizonNights: 30, budgetShare: 0.5 });
    checkDays(r);
    for (const d of r.days) {
      expect(d.coverage.sampled, d.day).toBe(true);
      expect(d.tracked, d.day).toBeLessThan(d.coverage.population);
      expect(d.tracked, d.day).toBeGreaterThan(d.coverage.population * 0.3);
    }
    expect(new Set(r.days.map((d) => d.tracked)).size).toBe(1);
  }, 120_000);
});
