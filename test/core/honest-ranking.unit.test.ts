// Compare's honest ranking (issue 27, item 3), property-based over any offers: every offer is
// listed once; with no warning, every offer in the asked currency includes the same things and
// they come cheapest first; an offer whose inclusions are less known never precedes a better-known
// one without the price_inclusions_differ warning naming it; min and median (stats) cover only the
// offers ranked together.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rankHonestly } from '../../src/core/price-parts.js';
import type { Offer } from '../../src/core/schemas/resources.js';

const tri = fc.constantFrom(true, false, null);
const offerArb = (i: number): fc.Arbitrary<Offer> =>
  fc
    .record({
      totalPrice: fc.integer({ min: 0, max: 5000 }),
      currency: fc.constantFrom('USD', 'USD', 'USD', 'EUR'),
      includes: fc.option(fc.record({ cleaning: tri, serviceFee: tri, taxes: tri }), { nil: undefined, freq: 4 }),
    })
    .map(({ totalPrice, currency, includes }) => {
      const o: Offer = { ota: `seller-${i}`, totalPrice, currency, url: `https://example.com/${i}` };
      if (includes) o.includes = includes;
      return o;
    });
const offersArb = fc.integer({ min: 1, max: 7 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => offerArb(i))));

const known = (o: Offer) => (o.includes ? [o.includes.cleaning, o.includes.serviceFee, o.includes.taxes].filter((v) => v !== null).length : 0);
const key = (o: Offer) => JSON.stringify(o.includes ? [o.includes.cleaning, o.includes.serviceFee, o.includes.taxes] : [null, null, null]);

describe('rankHonestly', () => {
  it('lists every offer once, ranks like with like, and never puts a less-known price above a better-known one silently', () => {
    fc.assert(
      fc.property(offersArb, (offers) => {
        const r = rankHonestly(offers, 'USD', (o) => o.ota);
        expect([...r.offers].sort((a, b) => a.ota.localeCompare(b.ota))).toEqual([...offers].sort((a, b) => a.ota.localeCompare(b.ota)));
        const usd = r.offers.filter((o) => o.currency === 'USD');
        // Offers in another currency follow every offer in the asked one.
        expect(r.offers.slice(0, usd.length)).toEqual(usd);
        const ranked = r.stats;
        expect(usd.slice(0, ranked.length)).toEqual(ranked);
        expect(ranked.map((o) => o.totalPrice)).toEqual([...ranked.map((o) => o.totalPrice)].sort((a, b) => a - b));
        expect(new Set(ranked.map(key)).size).toBeLessThanOrEqual(1);
        if (r.warning === null) {
          expect(new Set(usd.map(key)).size).toBeLessThanOrEqual(1);
          expect(ranked).toEqual(usd);
        } else {
          expect(r.warning.code).toBe('price_inclusions_differ');
          const apart = usd.slice(ranked.length);
          expect(apart.length).toBeGreaterThan(0);
          for (const o of apart) {
            expect(key(o)).not.toBe(key(ranked[0]!));
            expect(r.warning.message).toContain(`${o.ota} (`);
          }
          // The ranked group is the best known: nothing listed apart is better known.
          for (const o of apart) expect(known(o)).toBeLessThanOrEqual(known(ranked[0]!));
        }
        // The acceptance line: a less-known USD offer above a better-known one only with the warning.
        for (let i = 0; i < usd.length; i++) for (let j = i + 1; j < usd.length; j++) if (known(usd[i]!) < known(usd[j]!)) expect(r.warning).not.toBeNull();
      }),
      { numRuns: 2000 },
    );
  });
});
