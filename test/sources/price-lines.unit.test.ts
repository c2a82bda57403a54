// Honest prices (issue 27, item 3), the contract: whatever a source's row holds, a normalized
// quote says what its total includes, and its line items (when the source itemizes) add up to
// totalPrice within 0.01. Property-based over each normalizer's raw price fields, the sandbox
// world's quotes (every platform, currency and stay) and the moving world's (any instant).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENABLED_PLATFORMS } from '../../src/core/platforms.js';
import { type Price, PriceSchema } from '../../src/core/schemas/resources.js';
import type { StayQuery } from '../../src/core/upstream.js';
import * as airbnb from '../../src/sources/normalize/airbnb.js';
import * as booking from '../../src/sources/normalize/booking.js';
import * as google from '../../src/sources/normalize/google.js';
import * as vrbo from '../../src/sources/normalize/vrbo.js';
import { formatMoney } from '../../src/sources/raw/labels.js';
import { worldTruth } from '../../src/sources/sandbox/moving.js';
import { createSandboxWorld } from '../../src/sources/sandbox/world.js';

const RUNS = 400;

/** The contract every quote keeps. */
function honest(q: Price | null): void {
  if (q === null) return;
  PriceSchema.parse(q);
  expect(q.includes).toBeDefined();
  for (const v of Object.values(q.includes!)) expect([true, false, null]).toContain(v);
  if (q.lineItems) {
    expect(q.lineItems[0]!.kind).toBe('nightly');
    const sum = q.lineItems.reduce((s, i) => s + i.amount, 0);
    expect(Math.abs(sum - q.totalPrice)).toBeLessThanOrEqual(0.01);
    for (const i of q.lineItems) expect(i.currency).toBe(q.currency);
    // A fee the total does not include is never one of its lines.
    if (q.includes!.cleaning === false) expect(q.lineItems.some((i) => i.kind === 'cleaning')).toBe(false);
    if (q.includes!.taxes === false) expect(q.lineItems.some((i) => i.kind === 'taxes')).toBe(false);
  }
}

const stay: StayQuery = { checkIn: '2026-11-06', checkOut: '2026-11-09', adults: 2, children: 0, childAges: [], currency: 'USD' };
const cents = fc.integer({ min: 0, max: 2_000_000 }).map((n) => n / 100);
/** Money as sources give it: numbers, "$1,234.50" text, "1.234,50 €", junk, or nothing. */
const money = fc.oneof(
  cents,
  cents.map((n) => formatMoney(n, 'USD')),
  cents.map((n) => formatMoney(n, 'EUR')),
  fc.constantFrom('Free', '', 'Price unavailable', '-$20', '−€5'),
  fc.constant(undefined),
);
const text = (m: fc.Arbitrary<unknown>) => m.map((v) => (typeof v === 'number' ? formatMoney(v, 'USD') : (v as string | undefined)));

const airbnbLine = fc.record(
  {
    description: fc.constantFrom(
      'Cleaning fee',
      'Airbnb service fee',
      'Taxes',
      'Occupancy taxes and fees',
      'Total',
      'Total before taxes',
      '$107 x 3 nights',
      'Early bird discount',
      'Total (USD)',
      'Base price',
    ),
    price: text(money),
  },
  { requiredKeys: [] },
);
const airbnbRaw = fc.record({
  label: fc.option(fc.oneof(fc.constantFrom('$107 per night', '$321 for 3 nights', '$1,079 total, originally $1,549'), text(money)), { nil: undefined }),
  amount: fc.option(text(money), { nil: undefined }),
  qualifier: fc.option(fc.constantFrom('night', 'total', 'for 3 nights', 'per night', ''), { nil: undefined }),
  breakDown: fc.option(
    fc.dictionary(fc.constantFrom('basePrice', 'cleaningFee', 'serviceFee', 'taxes', 'total', 'totalBeforeTaxes', 'earlyBirdDiscount', 'specialOffer'), airbnbLine, { maxKeys: 8 }),
    { nil: undefined },
  ),
});

describe('line items add up to totalPrice within 0.01, for every normalizer', () => {
  it('airbnb: any breakdown, keys that lie, labels "per night" or "for N nights"', () => {
    fc.assert(
      fc.property(airbnbRaw, (price) => {
        honest(airbnb.normalizePrice({ id: '14926879', checkIn: stay.checkIn, checkOut: stay.checkOut, price }, { stay }));
      }),
      { numRuns: RUNS },
    );
  });

  it('booking: a stay total, a nightly rate, taxes and charges stated or not', () => {
    fc.assert(
      fc.property(money, money, money, (price, pricePerNight, taxes) => {
        const raw = {
          url: 'https://www.booking.com/hotel/pt/casa-azul.en-gb.html',
          rooms: [{ price: price as number, pricePerNight: pricePerNight as number, taxesAndCharges: typeof taxes === 'number' ? taxes : taxes && `+${taxes} taxes and charges` }],
        };
        honest(booking.normalizePrice(raw, { stay }));
      }),
      { numRuns: RUNS },
    );
  });

  it('vrbo: uneven rents, fees and a total stated or not', () => {
    fc.assert(
      fc.property(fc.array(cents, { minLength: 1, maxLength: 5 }), money, money, money, money, (rents, total, cleaningFee, serviceFee, taxes) => {
        const rateSummary = { rentNightsConverted: rents, total: total as number, cleaningFee: cleaningFee as number, serviceFee: serviceFee as number, taxes: taxes as number };
        honest(vrbo.normalizePrice({ id: '4886746', rateSummary }, { stay }));
      }),
      { numRuns: RUNS },
    );
  });

  it('google: per night and total, either or both', () => {
    fc.assert(
      fc.property(money, money, (pricePerNight, totalPrice) => {
        honest(google.normalizePrice({ url: 'https://www.google.com/travel/hotels/entity/ChIJp2sSS4wOPfKDxtDWA', pricePerNight, totalPrice } as never, { stay }));
      }),
      { numRuns: RUNS },
    );
  });
});

const world = createSandboxWorld();
const day = fc.integer({ min: 0, max: 700 }).map((n) => new Date(Date.UTC(2026, 6, 1) + n * 86_400_000).toISOString().slice(0, 10));
const stayArb: fc.Arbitrary<StayQuery> = fc
  .record({ checkIn: day, nights: fc.integer({ min: 1, max: 21 }), adults: fc.integer({ min: 1, max: 8 }), currency: fc.constantFrom('USD', 'EUR', 'JPY', 'KRW', 'CHF', 'BRL') })
  .map(({ checkIn, nights, adults, currency }) => ({
    checkIn,
    checkOut: new Date(Date.parse(`${checkIn}T00:00:00Z`) + nights * 86_400_000).toISOString().slice(0, 10),
    adults,
    children: 0,
    childAges: [],
    currency,
  }));
const idArb = fc.integer({ min: 1_000, max: 99_999_999 }).map(String);

describe('line items add up in the sandbox world', () => {
  it('every platform, currency and stay; airbnb and booking itemize, vrbo and google state no fee (unknown)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ENABLED_PLATFORMS), idArb, stayArb, (platform, n, s) => {
        const id = platform === 'booking' ? `pt/casa-${n}` : n;
        const q = world.price(platform, id, s);
        honest(q);
        expect(q.lineItems !== undefined).toBe(platform === 'airbnb' || platform === 'booking');
        if (platform === 'airbnb') expect(q.includes).toEqual({ cleaning: true, serviceFee: true, taxes: true });
        if (platform === 'vrbo' || platform === 'google') expect(q.includes).toEqual({ cleaning: null, serviceFee: null, taxes: null });
      }),
      { numRuns: RUNS },
    );
  });

  it('the moving world (the simulated upstream) at any instant', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ENABLED_PLATFORMS), idArb, stayArb, fc.integer({ min: 0, max: 2000 }), (platform, n, s, hours) => {
        const id = platform === 'booking' ? `pt/casa-${n}` : n;
        honest(worldTruth.priceAt(platform, id, s, Date.parse(`${s.checkIn}T00:00:00Z`) - hours * 3_600_000));
      }),
      { numRuns: RUNS },
    );
  });
});
