// List parameters (propertyType, amenities, platforms, childAges) name the bad value over HTTP
// (the app in-process); a platform message offers only the platforms this service can use (D12).
// The same through the CLI against a server is in the e2e test/http/list-params.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';

let s: TestApp;
let a: TestAccount;
beforeAll(async () => {
  s = await startApp();
  a = await s.account();
});
afterAll(async () => {
  await s.stop();
});

interface ErrorBody {
  error: { type: string; code: string; message: string; param: string | null };
}

async function error(path: string, init: RequestInit = {}): Promise<ErrorBody['error']> {
  const res = await s.req(path, { ...init, key: a.sandboxKey });
  expect(res.status, path).toBe(400);
  const body = (await res.json()) as ErrorBody;
  expect(body.error.message, path).not.toMatch(/undefined/);
  return body.error;
}

const TYPES = 'hotel, apartment, house, villa, cottage, other';
const ENABLED = 'vrbo, booking, airbnb, google';

describe('list parameters over HTTP', () => {
  it.each([
    ['propertyType=flat', 'invalid_property_type', 'propertyType', `propertyType "flat" is not one of ${TYPES}.`],
    ['propertyType=hotel,flat', 'invalid_property_type', 'propertyType', `propertyType "flat" is not one of ${TYPES}.`],
    ['propertyType[]=hotel&propertyType[]=igloo', 'invalid_property_type', 'propertyType', `propertyType "igloo" is not one of ${TYPES}.`],
    ['amenities=pool,wifii', 'invalid_amenity', 'amenities', 'amenities "wifii" is not one of pool, hot_tub, kitchen, wifi,'],
    ['platforms=airbnbb', 'invalid_parameter', 'platforms', `platforms "airbnbb" is not one of ${ENABLED}.`],
    ['platforms=airbnb&platforms=Bookingg', 'invalid_parameter', 'platforms', `platforms "bookingg" is not one of ${ENABLED}.`],
    ['platform=airbnbb', 'invalid_parameter', 'platform', `platform must be one of ${ENABLED} (got "airbnbb").`],
    ['children=2&childAges=1,30', 'invalid_parameter', 'childAges', 'childAges must be at most 17 (got 30).'],
  ])('GET /v1/search?location=Lisbon&%s', async (query, code, param, message) => {
    const e = await error(`/v1/search?location=Lisbon&${query}`);
    expect(e).toMatchObject({ type: 'invalid_request', code, param });
    expect(e.message).toContain(message);
  });

  it('a platforms message never offers values that cannot be used', async () => {
    const e = await error('/v1/search?location=Lisbon&platforms=airbnbb');
    expect(e.message).not.toMatch(/expedia|hotels|tripadvisor/);
    // Still accepted, and skipped with a warning (D12): the offer is what can be searched.
    const ok = await s.req('/v1/search?location=Lisbon&platforms=airbnb,expedia&limit=1', { key: a.sandboxKey });
    expect(ok.status).toBe(200);
  });

  it('compare --listings: an unknown platform is named and only usable platforms are offered', async () => {
    const e = await error('/v1/price-compare?listings=airbnbb:1,booking:pt/casa-azul&checkIn=2027-03-01&checkOut=2027-03-04');
    expect(e.message).toContain(`unknown platform "airbnbb"; use one of ${ENABLED}.`);
    expect(e.message).not.toMatch(/expedia|hotels|tripadvisor/);
  });

  it('a JSON body list names its bad item too', async () => {
    const e = await error('/v1/search', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ location: 'Lisbon', propertyType: ['hotel', 'flat'], platforms: ['airbnb'] }),
    });
    expect(e).toMatchObject({ code: 'invalid_property_type', param: 'propertyType', message: `propertyType "flat" is not one of ${TYPES}.` });
  });
});
