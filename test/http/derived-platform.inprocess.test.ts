// Issue 22, item 15, over HTTP: a single-listing call whose listing reference names its platform
// (a listing URL, a stays_<platform>_<id> id) needs no platform parameter; one that names none
// still gets missing_parameter naming platform, free.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk } from '../helpers/assert.js';
import { type TestApp, startApp } from '../helpers/app.js';
import { type TestAccount, day } from '../helpers/stays.js';

let s: TestApp;
let a: TestAccount;
beforeAll(async () => {
  s = await startApp();
  a = await s.account({ rpm: 100_000 });
});
afterAll(async () => {
  await s.stop();
});

const get = (path: string) => s.req(path, { key: a.sandboxKey });
const enc = encodeURIComponent;
const stay = `checkIn=${day(30)}&checkOut=${day(33)}`;
const window = `startDate=${day(30)}&endDate=${day(37)}`;

describe('the platform a listing reference names', () => {
  it('price: a listing URL or a stays_ id alone gives the same quote as with the platform', async () => {
    const named = await expectOk<{ platform: string; total: number }>(await get(`/v1/price?platform=vrbo&listingId=83168293&${stay}`));
    for (const ref of ['https://www.vrbo.com/83168293', 'stays_vrbo_83168293']) {
      const derived = await expectOk<{ platform: string; total: number }>(await get(`/v1/price?listingId=${enc(ref)}&${stay}`));
      expect(derived.data).toEqual(named.data);
      expect(derived.meta.platforms).toEqual(['vrbo']);
    }
  });

  it('availability: by url, listingId or the first of listingIds', async () => {
    const named = await expectOk<unknown[]>(await get(`/v1/availability?platform=airbnb&listingId=62959596&${window}`));
    for (const q of [`url=${enc('https://www.airbnb.com/rooms/62959596')}`, 'listingId=stays_airbnb_62959596', 'listingIds=stays_airbnb_62959596']) {
      const derived = await expectOk<unknown[]>(await get(`/v1/availability?${q}&${window}`));
      expect(derived.data, q).toEqual(named.data);
    }
  });

  it('a reference that names no platform: missing_parameter platform, nothing charged', async () => {
    for (const path of [`/v1/price?listingId=83168293&${stay}`, `/v1/availability?listingId=62959596&${window}`, '/v1/reviews?listingId=62959596']) {
      const e = await expectError(await get(path), 400, 'missing_parameter', 'platform');
      expect(e.error.creditsCharged, path).toBe(0);
    }
  });

  it('a URL of one site with another platform asked for is refused, not quoted', async () => {
    const r = await get(`/v1/price?platform=booking&listingId=${enc('https://www.vrbo.com/83168293')}&${stay}`);
    expect(r.status).toBe(400);
  });
});
