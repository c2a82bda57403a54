// A collection's pass planned within its budget (src/core/collections/pass-plan.ts, issue 38,
// item 4), over random populations and settings: never over the budget; everything tracked when
// the budget covers it, else a sample stated and stratified by platform and bedrooms in proportion
// (each stratum within one listing of its share); the same sample every pass; fetches spread over
// the interval (no herd); the estimate the sum of what is planned.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CADENCE_MS, type Member, discoveryEstimate, listingPassCost, planPass } from '../../src/core/collections/pass-plan.js';

const member = fc.record({
  platform: fc.constantFrom('airbnb', 'vrbo', 'booking', 'google'),
  listingId: fc.integer({ min: 1, max: 5_000 }).map(String),
  bedrooms: fc.option(fc.integer({ min: 0, max: 4 }), { nil: null }),
});
const settings = fc.record({
  id: fc.constantFrom('col_a', 'col_b'),
  horizonNights: fc.integer({ min: 1, max: 365 }),
  cadence: fc.constantFrom('daily' as const, 'weekly' as const),
  rates: fc.constantFrom('auto' as const, 'sampled' as const, 'none' as const),
  maxCreditsPerDay: fc.integer({ min: 1, max: 200_000 }),
});
const T = Date.UTC(2027, 0, 1, 3);

describe('a pass within its budget', () => {
  it('never plans past the budget; tracks everything when it fits; else a proportional stratified sample, stated', () => {
    fc.assert(
      fc.property(fc.array(member, { maxLength: 600 }), settings, fc.integer({ min: 0, max: 20_000 }), (members, s, discovery) => {
        const plan = planPass(members, s, T, discovery);
        const perPass = s.maxCreditsPerDay * (CADENCE_MS[s.cadence] / 86_400_000);
        const cost = plan.fetches.reduce((sum, f) => sum + listingPassCost(f.platform, s), 0);
        expect(cost).toBe(plan.estimate.creditsPerPass);
        // Tracking within what the budget leaves after the discovery.
        expect(cost).toBeLessThanOrEqual(Math.max(0, perPass - discovery));
        expect(plan.estimate.discoveryCreditsPerPass).toBe(discovery);
        const distinct = new Set(members.map((m) => `${m.platform}|${m.listingId}`));
        expect(plan.sample.of).toBe(distinct.size);
        expect(plan.sample.tracked).toBe(plan.fetches.length);
        expect(new Set(plan.fetches.map((f) => f.item)).size).toBe(plan.fetches.length);
        if (plan.estimate.creditsPerDayAll + discovery * (86_400_000 / CADENCE_MS[s.cadence]) <= s.maxCreditsPerDay) expect(plan.sample.sampled).toBe(false);
        expect(plan.sample.sampled).toBe(plan.sample.tracked < plan.sample.of);
        // Proportional: every stratum's count is its share of the stated fraction, to one listing.
        for (const st of plan.sample.strata) {
          expect(st.tracked).toBeLessThanOrEqual(st.listings);
          expect(Math.abs(st.tracked - plan.sample.fraction * st.listings)).toBeLessThanOrEqual(1);
        }
        expect(plan.sample.strata.reduce((n, st) => n + st.listings, 0)).toBe(plan.sample.of);
        // Spread over the interval, no two a fair share apart too close: due times within the pass, evenly.
        const due = plan.fetches.map((x) => x.dueAt).sort((a, b) => a - b);
        for (const d of due) expect(d >= T && d < T + plan.intervalMs).toBe(true);
        for (let i = 1; i < due.length; i++) expect(due[i]! - due[i - 1]!).toBeLessThanOrEqual(Math.ceil(plan.intervalMs / due.length) + 1);
      }),
      { numRuns: 300 },
    );
  });

  it("a discovery's estimate before one ran: each listing's search row once, and the truncated searches of a population past the cap", () => {
    const city = (platform: string, n: number): Member[] => Array.from({ length: n }, (_, i) => ({ platform, listingId: String(i), bedrooms: null }));
    // vrbo, 286 listings under its 500 cap: 286 rows at 1 credit, in pages of 40 (each at least 5).
    expect(discoveryEstimate(city('vrbo', 286))).toBe(286);
    // airbnb, 5,000 listings past its 280 cap: 5,000 + 280 × ceil(log2(5,000 / 280)) = 6,400 rows at 2 credits.
    expect(discoveryEstimate(city('airbnb', 5_000))).toBe(12_800);
    expect(discoveryEstimate([...city('airbnb', 5_000), ...city('vrbo', 286)])).toBe(13_086);
    expect(discoveryEstimate([])).toBe(0);
  });

  it('the same sample every pass (and whatever order the population comes in); another collection draws its own', () => {
    const city: Member[] = Array.from({ length: 3_000 }, (_, i) => ({ platform: ['airbnb', 'vrbo', 'booking'][i % 3]!, listingId: String(i), bedrooms: i % 4 }));
    const s = { id: 'col_x', horizonNights: 180, cadence: 'daily' as const, rates: 'auto' as const, maxCreditsPerDay: 40_000 };
    const one = planPass(city, s, T);
    const two = planPass([...city].reverse(), s, T + 86_400_000);
    expect(one.sample.sampled).toBe(true);
    expect(new Set(two.fetches.map((f) => f.item))).toEqual(new Set(one.fetches.map((f) => f.item)));
    expect(two.fetches.map((f) => f.dueAt - 86_400_000)).toEqual(one.fetches.map((f) => f.dueAt));
    const other = planPass(city, { ...s, id: 'col_y' }, T);
    expect(new Set(other.fetches.map((f) => f.item))).not.toEqual(new Set(one.fetches.map((f) => f.item)));
    // A budget that covers everything tracks everything.
    const all = planPass(city, { ...s, maxCreditsPerDay: one.estimate.creditsPerDayAll }, T);
    expect(all.sample).toMatchObject({ sampled: false, tracked: 3_000, of: 3_000 });
    expect(all.estimate.creditsPerDay).toBe(one.estimate.creditsPerDayAll);
  });
});
