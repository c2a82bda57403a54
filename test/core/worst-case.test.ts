// The worst case the CLI guards with (core/worst-case.ts, from the call as sent) is the amount the
// service's plan builders hold at admission (D5), for every billable operation: one rule, checked
// over generated calls, built by the client's own operation descriptors.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiCall } from '../../src/client/http.js';
import { operations } from '../../src/client/operations.js';
import { manualClock } from '../../src/core/clock.js';
import type { RequestContext, Services } from '../../src/core/context.js';
import { availabilityPlan } from '../../src/core/ops/availability.js';
import { priceComparePlan } from '../../src/core/ops/compare.js';
import { listingPlan } from '../../src/core/ops/listing.js';
import { pricePlan } from '../../src/core/ops/price.js';
import { reviewsPlan } from '../../src/core/ops/reviews.js';
import { searchPlan } from '../../src/core/ops/search.js';
import { S_SEARCH_KINDS, sSearchPlan } from '../../src/core/ops/stay-search.js';
import { batchPlan, stayPlan } from '../../src/core/ops/stays.js';
import { worstCaseOf } from '../../src/core/worst-case.js';

const TODAY = Date.UTC(2027, 0, 10);
const services = { clock: manualClock(TODAY) } as unknown as Services;
const ctx = { requestId: 'req_test', account: { id: 'acct_test' }, key: { env: 'live', scopes: ['stays.read'] } } as unknown as RequestContext;

/** The query as the HTTP layer hands it to a plan: every value a string, lists comma-joined. */
const raw = (call: ApiCall): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(call.query ?? {})
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)]),
  );

const day = (offset: number) => new Date(TODAY + offset * 86_400_000).toISOString().slice(0, 10);
const ID: Record<string, (n: number) => string> = { airbnb: (n) => String(10_000_000 + n), vrbo: (n) => String(1_000_000 + n), google: (n) => `ChIJ${'a'.repeat(20)}${n}` };

describe('worst case of a call, as the CLI computes it = as the service holds it', () => {
  it('search: any platforms and limit', () => {
    fc.assert(
      fc.property(fc.subarray(['airbnb', 'booking', 'vrbo', 'google'] as const), fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }), (platforms, limit) => {
        const call = operations.search({ location: 'Lisbon', ...(platforms.length ? { platforms: platforms.join(',') } : {}), ...(limit ? { limit } : {}) } as never);
        expect(worstCaseOf(call)).toBe(searchPlan(services, ctx, raw(call)).plan.worstCase);
      }),
    );
  });

  it('reviews: any platform and limit', () => {
    fc.assert(
      fc.property(fc.constantFrom('airbnb', 'vrbo'), fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }), (platform, limit) => {
        const call = operations.reviews({ platform, listingId: ID[platform]!(1), ...(limit ? { limit } : {}) } as never);
        expect(worstCaseOf(call)).toBe(reviewsPlan(services, ctx, raw(call)).worstCase);
      }),
    );
  });

  it('availability: any platform, distinct ids and window', () => {
    fc.assert(
      fc.property(fc.constantFrom('airbnb', 'vrbo'), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 1, max: 365 }), (platform, n, start, days) => {
        const ids = Array.from({ length: platform === 'airbnb' ? 1 : n }, (_, i) => ID[platform]!(i));
        const call = operations.availability({ platform, ...(ids.length > 1 ? { listingIds: ids.join(',') } : { listingId: ids[0] }), startDate: day(start), endDate: day(start + days) } as never);
        expect(worstCaseOf(call)).toBe(availabilityPlan(services, ctx, raw(call)).worstCase);
      }),
    );
  });

  it('price, price comparison and listing', () => {
    const stay = { checkIn: day(5), checkOut: day(8) };
    const price = operations.price({ platform: 'airbnb', listingId: ID.airbnb!(1), ...stay } as never);
    expect(worstCaseOf(price)).toBe(pricePlan(services, ctx, raw(price)).worstCase);
    for (let n = 2; n <= 6; n++) {
      const compare = operations.compare({ listings: Array.from({ length: n }, (_, i) => `vrbo:${ID.vrbo!(i)}`).join(','), ...stay } as never);
      expect(worstCaseOf(compare)).toBe(priceComparePlan(services, ctx, raw(compare)).worstCase);
    }
    const google = operations.compare({ name: 'Hotel Lisboa', location: 'Lisbon', ...stay } as never);
    expect(worstCaseOf(google)).toBe(priceComparePlan(services, ctx, raw(google)).worstCase);
    for (const platform of ['airbnb', 'vrbo'] as const) {
      const listing = operations.listing(platform, ID[platform]!(1));
      expect(worstCaseOf(listing)).toBe(listingPlan(services, ctx, { platform, id: ID[platform]!(1) }, raw(listing)).worstCase);
    }
  });

  it('Family S: search, details and presets at any maxItems; batches; lookups', () => {
    fc.assert(
      fc.property(fc.constantFrom(...S_SEARCH_KINDS), fc.option(fc.integer({ min: 1, max: 1_000 }), { nil: undefined }), (kind, maxItems) => {
        const body = { location: 'Lisbon', ...(maxItems ? { maxItems } : {}) };
        const call = kind === 'search' ? operations.staySearch(body) : kind === 'with-details' ? operations.staySearchWithDetails(body) : operations.stayListings(kind, body);
        expect(worstCaseOf(call)).toBe(sSearchPlan(services, ctx, call.body as Record<string, unknown>, kind).plan.worstCase);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), (n) => {
        const call = operations.stayBatch(Array.from({ length: n }, (_, i) => ({ id: ID.airbnb!(i) })));
        expect(worstCaseOf(call)).toBe(batchPlan(services, ctx, call.body as Record<string, unknown>).plan.worstCase);
      }),
    );
    const lookup = operations.stay(ID.airbnb!(1));
    expect(worstCaseOf(lookup)).toBe(stayPlan(services, ctx, { id: ID.airbnb!(1) }).worstCase);
  });
});
