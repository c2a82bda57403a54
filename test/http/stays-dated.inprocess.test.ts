// Issue 22, item 13 through the app in-process: a Family S lookup takes an optional stay (checkIn, checkOut,
// party, currency) and then quotes pricing, at the lookup's cost; an S search without dates names
// the default dates its prices are for in meta.default_dates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk } from '../helpers/assert.js';
import { credits, expectSError, expectSOk, sCall } from '../helpers/s.js';
import { type TestApp, startApp } from '../helpers/app.js';
import { type TestAccount, day } from '../helpers/stays.js';
import { manualClock } from '../../src/core/clock.js';
import { worldTruth } from '../../src/sources/sandbox/moving.js';

let s: TestApp;
let a: TestAccount;
// Held still: the live lookup's quote is the moving world's at this instant (worldTruth).
const clock = manualClock(Date.now());
beforeAll(async () => {
  s = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '20', STAYS_SIM_FAIL: '' }, { clock });
  a = await s.account({ rpm: 100_000, credits: 1000 });
});
afterAll(async () => {
  await s.stop();
});

const ID = '12345678';
const stay = `checkIn=${day(30)}&checkOut=${day(33)}`;
type Pricing = { price: number | null; currency: string | null; rate_type: string | null; breakdown: { label: string; amount: number }[] | null };

describe('dated Family S lookups', () => {
  it('/pricing with dates is the quote of that stay (as GET /v1/price gives it); without dates all null', async () => {
    const quote = (
      await expectOk<{ nightlyPrice: number; currency: string; nights: number }>(await s.req(`/v1/price?platform=airbnb&listingId=${ID}&${stay}&adults=3&currency=EUR`, { key: a.sandboxKey }))
    ).data;
    const dated = expectSOk<{ id: string; pricing: Pricing }>(await sCall(s, `/v1/stays/${ID}/pricing?${stay}&adults=3&currency=EUR`, { key: a.sandboxKey })).data;
    expect(dated.pricing).toMatchObject({ price: quote.nightlyPrice, currency: 'EUR', rate_type: 'nightly' });
    expect(dated.pricing.breakdown![0]).toEqual({ label: '3 nights', amount: expect.any(Number) });
    const undated = expectSOk<{ pricing: Pricing }>(await sCall(s, `/v1/stays/${ID}/pricing`, { key: a.sandboxKey })).data;
    expect(undated.pricing).toEqual({ price: null, currency: null, rate_type: null, breakdown: null });
  });

  it('the whole stay and by-url take the dates too; a live lookup still costs 1 credit', async () => {
    const whole = expectSOk<{ pricing: Pricing }>(await sCall(s, `/v1/stays/${ID}?${stay}`, { key: a.sandboxKey })).data;
    const byUrl = expectSOk<{ pricing: Pricing }>(await sCall(s, `/v1/stays/by-url?url=${encodeURIComponent(`https://www.airbnb.com/rooms/${ID}`)}&${stay}`, { key: a.sandboxKey })).data;
    expect(whole.pricing.price).toBeGreaterThan(0);
    expect(byUrl.pricing).toEqual(whole.pricing);
    const before = await credits(s, a.liveKey);
    const live = expectSOk<{ pricing: Pricing }>(await sCall(s, `/v1/stays/${ID}/pricing?${stay}`, { key: a.liveKey }));
    // A live key reads the simulated upstream: the same quote's shape, priced by the moving world
    // (the default party: two adults).
    const truth = worldTruth.priceAt('airbnb', ID, { checkIn: day(30), checkOut: day(33), adults: 2, children: 0, childAges: [], currency: 'USD' }, clock.now());
    expect(live.data.pricing.price).toBe(truth.nightlyPrice);
    expect(live.data.pricing.breakdown?.map((b) => b.label)).toEqual(whole.pricing.breakdown?.map((b) => b.label));
    expect(live.data.pricing.breakdown?.[0]?.amount).toBeCloseTo(truth.nightlyPrice * 3, 2);
    expect(live.meta.credits_charged).toBe(1);
    expect((await credits(s, a.liveKey)).balance).toBe(before.balance - 1);
  });

  it('half a stay is a typed 400, free', async () => {
    const e = expectSError(await sCall(s, `/v1/stays/${ID}/pricing?checkIn=${day(30)}`, { key: a.liveKey }), 400, 'missing_parameter', 'checkOut');
    expect(e.creditsCharged).toBe(0);
  });
});

describe('default dates of an S search are named', () => {
  it('no dates: meta.default_dates is the stay the rows are priced for; with dates it is absent', async () => {
    const r = expectSOk<{ pricing: Pricing }[]>(await sCall(s, '/v1/search', { key: a.sandboxKey, json: { location: 'Lisbon', maxItems: 2 } }));
    expect(r.meta.default_dates).toEqual({ check_in: day(14), check_out: day(16) });
    const explicit = expectSOk<{ pricing: Pricing }[]>(await sCall(s, '/v1/search', { key: a.sandboxKey, json: { location: 'Lisbon', maxItems: 2, checkIn: day(14), checkOut: day(16) } }));
    expect(explicit.meta.default_dates).toBeUndefined();
    expect(explicit.data.map((x) => x.pricing)).toEqual(r.data.map((x) => x.pricing));
  });
});
