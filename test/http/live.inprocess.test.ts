// Live keys before the live path exists: auth, validation, rate limit and admission apply, then a
// typed 503 upstream_unavailable; nothing is held or charged. (Top-ups: topups.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/assert.js';
import { type TestApp, startApp } from '../helpers/app.js';
import { day } from '../helpers/stays.js';

let s: TestApp;
beforeAll(async () => {
  s = await startApp();
});
afterAll(async () => {
  await s.stop();
});

const credits = async (key: string) => ((await (await s.req('/v1/account', { key })).json()) as { data: { credits: { balance: number; held: number; available: number } } }).data.credits;
const stay = `checkIn=${day(30)}&checkOut=${day(33)}`;

describe('live keys', () => {
  it('an admitted live call → 503 upstream_unavailable saying how to get data, free', async () => {
    const a = await s.account({ credits: 1000 });
    for (const path of [
      '/v1/search?location=Lisbon',
      `/v1/price?platform=airbnb&listingId=1&${stay}`,
      '/v1/listing/vrbo/123',
      '/v1/reviews?platform=airbnb&listingId=1',
      `/v1/availability?platform=airbnb&listingId=1&startDate=${day(1)}&endDate=${day(9)}`,
      `/v1/price-compare?name=Hotel&${stay}`,
    ]) {
      const body = await expectError(await s.req(path, { key: a.liveKey }), 503, 'upstream_unavailable');
      expect(body.error.retryable).toBe(true);
      expect(body.error.message).toMatch(/STAYS_UPSTREAM=simulated/);
      expect(body.error.message).toMatch(/stay_test_/);
    }
    expect(await credits(a.liveKey)).toEqual({ balance: 1000, held: 0, available: 1000, expiringSoon: 0 });
  });

  it('402 credit_balance_too_low when available credits are below the worst case (D5)', async () => {
    const a = await s.account({ credits: 10 });
    // Worst case of a default search at limit 10: vrbo 10 + booking 10 + airbnb 20 + google 15 = 55.
    await expectError(await s.req('/v1/search?location=Lisbon', { key: a.liveKey }), 402, 'credit_balance_too_low');
    // A price call costs 3: admitted, then no upstream.
    await expectError(await s.req(`/v1/price?platform=airbnb&listingId=1&${stay}`, { key: a.liveKey }), 503, 'upstream_unavailable');
    // vrbo listing costs 15.
    await expectError(await s.req('/v1/listing/vrbo/123', { key: a.liveKey }), 402, 'credit_balance_too_low');
  });

  it('sandbox keys of a zero-credit account still work (D6)', async () => {
    const a = await s.account({ credits: 0 });
    expect((await s.req('/v1/search?location=Lisbon', { key: a.sandboxKey })).status).toBe(200);
  });

  it('403 free_tier_budget_exhausted on a free plan whose budget the worst case would pass (D7)', async () => {
    const a = await s.account({ plan: 'free', credits: 1000, freeTierBudget: 20 });
    await expectError(await s.req('/v1/search?location=Lisbon', { key: a.liveKey }), 403, 'free_tier_budget_exhausted');
    await expectError(await s.req(`/v1/price?platform=airbnb&listingId=1&${stay}`, { key: a.liveKey }), 503, 'upstream_unavailable');
  });
});
