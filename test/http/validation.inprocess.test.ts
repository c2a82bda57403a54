// Every invalid_request code of the spec, produced where the spec says, with param naming the
// parameter; each free and typed. Sandbox keys, the app in-process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/assert.js';
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

const stay = (n = 30, nights = 3) => `checkIn=${day(n)}&checkOut=${day(n + nights)}`;
const b64 = (v: string) => Buffer.from(v).toString('base64url');
const thirteen = Array.from({ length: 13 }, (_, i) => 1000 + i).join(',');

type Case = [path: string, status: number, code: string, param: string | null];
const CASES: Case[] = [
  // search
  ['/v1/search', 400, 'missing_parameter', 'location'],
  ['/v1/search?location=', 400, 'missing_parameter', 'location'],
  ['/v1/search?location=a&location=b', 400, 'invalid_parameter', 'location'],
  ['/v1/search?location=Lisbon&checkIn=2026-13-01&checkOut=2027-01-02', 400, 'invalid_parameter', 'checkIn'],
  ['/v1/search?location=Lisbon&checkIn=tomorrow', 400, 'invalid_parameter', 'checkIn'],
  [`/v1/search?location=Lisbon&checkIn=${day(5)}`, 400, 'missing_parameter', 'checkOut'],
  [`/v1/search?location=Lisbon&checkOut=${day(5)}`, 400, 'missing_parameter', 'checkIn'],
  [`/v1/search?location=Lisbon&checkIn=${day(-1)}&checkOut=${day(2)}`, 400, 'date_in_past', 'checkIn'],
  [`/v1/search?location=Lisbon&checkIn=${day(5)}&checkOut=${day(5)}`, 400, 'invalid_date_range', 'checkOut'],
  [`/v1/search?location=Lisbon&checkIn=${day(6)}&checkOut=${day(5)}`, 400, 'invalid_date_range', 'checkOut'],
  [`/v1/search?location=Lisbon&checkIn=${day(5)}&checkOut=${day(96)}`, 400, 'stay_too_long', 'checkOut'],
  ['/v1/search?location=Lisbon&children=2&childAges=5', 400, 'child_ages_mismatch', 'childAges'],
  ['/v1/search?location=Lisbon&children=1', 400, 'child_ages_mismatch', 'childAges'],
  ['/v1/search?location=Lisbon&childAges=4', 400, 'child_ages_mismatch', 'childAges'],
  ['/v1/search?location=Lisbon&children=1&childAges=30', 400, 'invalid_parameter', 'childAges'],
  ['/v1/search?location=Lisbon&propertyType=castle', 400, 'invalid_property_type', 'propertyType'],
  ['/v1/search?location=Lisbon&propertyType[]=hotel&propertyType[]=igloo', 400, 'invalid_property_type', 'propertyType'],
  ['/v1/search?location=Lisbon&amenities=pool,jacuzzi', 400, 'invalid_amenity', 'amenities'],
  ['/v1/search?location=Lisbon&priceMin=-1', 400, 'invalid_price_range', 'priceMin'],
  ['/v1/search?location=Lisbon&priceMin=100&priceMax=50', 400, 'invalid_price_range', 'priceMax'],
  ['/v1/search?location=Lisbon&priceMax=cheap', 400, 'invalid_parameter', 'priceMax'],
  ['/v1/search?location=Lisbon&sort=cheapest', 400, 'invalid_sort', 'sort'],
  ['/v1/search?location=Lisbon&cursor=!!!', 400, 'invalid_cursor', 'cursor'],
  [`/v1/search?location=Lisbon&cursor=${b64('hello')}`, 400, 'invalid_cursor', 'cursor'],
  [`/v1/search?location=Lisbon&cursor=${b64('{"v":1,"f":"x","o":{"vrbo":-1}}')}`, 400, 'invalid_cursor', 'cursor'],
  ['/v1/search?location=Lisbon&limit=0', 400, 'limit_out_of_range', 'limit'],
  ['/v1/search?location=Lisbon&limit=41', 400, 'limit_out_of_range', 'limit'],
  ['/v1/search?location=Lisbon&limit=abc', 400, 'invalid_parameter', 'limit'],
  ['/v1/search?location=Lisbon&limit=2.5', 400, 'invalid_parameter', 'limit'],
  ['/v1/search?location=Lisbon&adults=0', 400, 'invalid_parameter', 'adults'],
  ['/v1/search?location=Lisbon&rooms=0', 400, 'invalid_parameter', 'rooms'],
  ['/v1/search?location=Lisbon&minBedrooms=-2', 400, 'invalid_parameter', 'minBedrooms'],
  ['/v1/search?location=Lisbon&currency=EURO', 400, 'invalid_parameter', 'currency'],
  ['/v1/search?location=Lisbon&currency=XYZ', 400, 'invalid_parameter', 'currency'],
  ['/v1/search?location=Lisbon&platforms=airbnb&platform=vrbo', 400, 'mutually_exclusive_params', 'platform'],
  ['/v1/search?location=Lisbon&platforms=expedia,hotels', 400, 'no_enabled_platform', 'platforms'],
  ['/v1/search?location=Lisbon&platform=tripadvisor', 400, 'no_enabled_platform', 'platform'],
  ['/v1/search?location=Lisbon&platforms=booking-com', 400, 'invalid_parameter', 'platforms'],
  // reviews
  ['/v1/reviews?platform=airbnb', 400, 'missing_parameter', 'listingId'],
  ['/v1/reviews?platform=airbnb&listingId=123&url=https://www.airbnb.com/rooms/123', 400, 'mutually_exclusive_params', 'url'],
  ['/v1/reviews?listingId=123', 400, 'missing_parameter', 'platform'],
  ['/v1/reviews?platform=google&listingId=abc', 400, 'platform_not_enabled', 'platform'],
  ['/v1/reviews?platform=expedia&listingId=123', 400, 'platform_not_enabled', 'platform'],
  ['/v1/reviews?platform=airbnb&listingId=abc', 400, 'invalid_parameter', 'listingId'],
  ['/v1/reviews?platform=airbnb&url=https://example.com/rooms/1', 400, 'invalid_listing_url', 'url'],
  ['/v1/reviews?platform=airbnb&url=not%20a%20url', 400, 'invalid_listing_url', 'url'],
  ['/v1/reviews?platform=booking&listingId=hotel-aurora', 400, 'needs_country', 'country'],
  ['/v1/reviews?platform=booking&listingId=hotel-aurora&country=ZZ', 400, 'invalid_parameter', 'country'],
  ['/v1/reviews?platform=airbnb&listingId=123&language=xx', 400, 'invalid_language', 'language'],
  ['/v1/reviews?platform=airbnb&listingId=123&language=english', 400, 'invalid_language', 'language'],
  ['/v1/reviews?platform=airbnb&listingId=123&limit=101', 400, 'limit_out_of_range', 'limit'],
  ['/v1/reviews?platform=airbnb&listingId=123&limit=0', 400, 'limit_out_of_range', 'limit'],
  ['/v1/reviews?platform=airbnb&listingId=123&sort=best', 400, 'invalid_sort', 'sort'],
  ['/v1/reviews?platform=airbnb&listingId=123&cursor=%25%25', 400, 'invalid_cursor', 'cursor'],
  ['/v1/reviews?platform=airbnb&listingId=stays_vrbo_123', 400, 'invalid_parameter', 'listingId'],
  // price
  [`/v1/price?listingId=123&${stay()}`, 400, 'missing_parameter', 'platform'],
  [`/v1/price?platform=airbnb&${stay()}`, 400, 'missing_parameter', 'listingId'],
  ['/v1/price?platform=airbnb&listingId=123', 400, 'missing_parameter', 'checkIn'],
  [`/v1/price?platform=airbnb&listingId=123&checkIn=${day(3)}`, 400, 'missing_parameter', 'checkOut'],
  [`/v1/price?platform=expedia&listingId=123&${stay()}`, 400, 'platform_not_enabled', 'platform'],
  [`/v1/price?platform=airbnb&listingId=12ab&${stay()}`, 400, 'invalid_parameter', 'listingId'],
  [`/v1/price?platform=booking&listingId=casa-azul&${stay()}`, 400, 'needs_country', 'country'],
  [`/v1/price?platform=airbnb&listingId=123&checkIn=${day(-3)}&checkOut=${day(2)}`, 400, 'date_in_past', 'checkIn'],
  [`/v1/price?platform=airbnb&listingId=123&${stay(10, 91)}`, 400, 'stay_too_long', 'checkOut'],
  [`/v1/price?platform=airbnb&listingId=123&${stay()}&children=1&childAges=3,4`, 400, 'child_ages_mismatch', 'childAges'],
  // price-compare
  [`/v1/price-compare?${stay()}`, 400, 'missing_parameter', 'listings'],
  [`/v1/price-compare?listings=airbnb:1,booking:fr/x&name=Hotel&${stay()}`, 400, 'mutually_exclusive_params', 'name'],
  [`/v1/price-compare?googleHotelId=abc&name=Hotel&${stay()}`, 400, 'mutually_exclusive_params', 'googleHotelId'],
  [`/v1/price-compare?listings=airbnb:1&${stay()}`, 400, 'invalid_parameter', 'listings'],
  [`/v1/price-compare?listings=airbnb:1,airbnb:2,airbnb:3,airbnb:4,airbnb:5,airbnb:6,airbnb:7&${stay()}`, 400, 'invalid_parameter', 'listings'],
  [`/v1/price-compare?listings=foo:1,airbnb:2&${stay()}`, 400, 'invalid_parameter', 'listings'],
  [`/v1/price-compare?listings=nocolon,airbnb:2&${stay()}`, 400, 'invalid_parameter', 'listings'],
  [`/v1/price-compare?listings=expedia:1,airbnb:2&${stay()}`, 400, 'platform_not_enabled', 'platform'],
  ['/v1/price-compare?name=Hotel', 400, 'missing_parameter', 'checkIn'],
  [`/v1/price-compare?name=Hotel&checkIn=${day(4)}&checkOut=${day(2)}`, 400, 'invalid_date_range', 'checkOut'],
  // availability
  [`/v1/availability?platform=airbnb&startDate=${day(1)}&endDate=${day(10)}`, 400, 'missing_parameter', 'listingId'],
  [`/v1/availability?platform=airbnb&listingId=1&url=https://www.airbnb.com/rooms/1&startDate=${day(1)}&endDate=${day(10)}`, 400, 'mutually_exclusive_params', 'url'],
  [`/v1/availability?platform=airbnb&listingId=1&listingIds=2&startDate=${day(1)}&endDate=${day(10)}`, 400, 'mutually_exclusive_params', 'listingIds'],
  [`/v1/availability?platform=airbnb&listingIds=1,2&startDate=${day(1)}&endDate=${day(10)}`, 400, 'invalid_parameter', 'listingIds'],
  [`/v1/availability?platform=vrbo&listingIds=${thirteen}&startDate=${day(1)}&endDate=${day(10)}`, 400, 'invalid_parameter', 'listingIds'],
  [`/v1/availability?platform=vrbo&listingId=1&startDate=${day(1)}&endDate=${day(368)}`, 400, 'window_too_long', 'endDate'],
  [`/v1/availability?platform=vrbo&listingId=1&startDate=${day(-1)}&endDate=${day(3)}`, 400, 'date_in_past', 'startDate'],
  [`/v1/availability?platform=vrbo&listingId=1&startDate=${day(3)}&endDate=${day(3)}`, 400, 'invalid_date_range', 'endDate'],
  [`/v1/availability?platform=vrbo&listingId=1&startDate=${day(3)}`, 400, 'missing_parameter', 'endDate'],
  [`/v1/availability?platform=vrbo&url=https://www.vrbo.com/search?q=lisbon&startDate=${day(1)}&endDate=${day(10)}`, 400, 'invalid_listing_url', 'url'],
  [`/v1/availability?platform=vrbo&listingId=4193579ha&startDate=${day(1)}&endDate=${day(10)}`, 400, 'invalid_parameter', 'listingId'],
  [`/v1/availability?platform=vrbo&listingId=1&onlyAvailable=maybe&startDate=${day(1)}&endDate=${day(10)}`, 400, 'invalid_parameter', 'onlyAvailable'],
  [`/v1/availability?platform=hotels&listingId=1&startDate=${day(1)}&endDate=${day(10)}`, 400, 'platform_not_enabled', 'platform'],
  // listing
  ['/v1/listing/expedia/123', 400, 'platform_not_enabled', 'platform'],
  ['/v1/listing/airbnbz/123', 400, 'invalid_parameter', 'platform'],
  ['/v1/listing/booking/casa-azul', 400, 'needs_country', 'country'],
  ['/v1/listing/airbnb/not-a-number', 400, 'invalid_parameter', 'id'],
  [`/v1/listing/airbnb/123?checkIn=${day(3)}`, 400, 'missing_parameter', 'checkOut'],
  [`/v1/listing/airbnb/123?checkIn=${day(-3)}&checkOut=${day(3)}`, 400, 'date_in_past', 'checkIn'],
  [`/v1/listing/airbnb/123?${stay()}&children=2&childAges=1`, 400, 'child_ages_mismatch', 'childAges'],
];

describe('invalid_request codes (GET)', () => {
  it.each(CASES)('%s → %i %s (%s)', async (path, status, code, param) => {
    await expectError(await s.req(path, { key: a.sandboxKey }), status, code, param);
  });

  it('the same checks run for live keys, before admission, and are free', async () => {
    for (const [path, status, code, param] of CASES.slice(0, 12)) {
      await expectError(await s.req(path, { key: a.liveKey }), status, code, param);
    }
    const acct = (await (await s.req('/v1/account', { key: a.liveKey })).json()) as { data: { credits: { balance: number } } };
    expect(acct.data.credits.balance).toBe(1000);
  });

  it('covers every invalid_request code the spec lists', () => {
    const required = [
      'missing_parameter',
      'invalid_parameter',
      'invalid_date_range',
      'date_in_past',
      'child_ages_mismatch',
      'stay_too_long',
      'window_too_long',
      'invalid_listing_url',
      'invalid_property_type',
      'invalid_amenity',
      'invalid_price_range',
      'invalid_language',
      'invalid_sort',
      'invalid_cursor',
      'limit_out_of_range',
      'mutually_exclusive_params',
      'platform_not_enabled',
      'no_enabled_platform',
      'needs_country',
    ];
    const covered = new Set(CASES.map((c) => c[2]));
    expect(required.filter((c) => !covered.has(c))).toEqual([]);
  });
});

describe('POST /v1/search validation', () => {
  const post = (body: unknown) => s.req('/v1/search', { method: 'POST', key: a.sandboxKey, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

  it.each([
    [{}, 'missing_parameter', 'location'],
    [{ location: 42 }, 'invalid_parameter', 'location'],
    [{ location: 'Lisbon', limit: 0 }, 'limit_out_of_range', 'limit'],
    [{ location: 'Lisbon', limit: '50' }, 'limit_out_of_range', 'limit'],
    [{ location: 'Lisbon', platforms: ['airbnb', 'nope'] }, 'invalid_parameter', 'platforms'],
    [{ location: 'Lisbon', children: 1, childAges: [] }, 'child_ages_mismatch', 'childAges'],
    [{ location: 'Lisbon', sort: ['price_asc', 'price_desc'] }, 'invalid_parameter', 'sort'],
    [{ location: 'Lisbon', adults: { n: 2 } }, 'invalid_parameter', 'adults'],
    [{ location: 'Lisbon', limit: 5, maxItems: 10 }, 'mutually_exclusive_params', 'maxItems'],
  ])('%j → %s', async (body, code, param) => {
    await expectError(await post(body), 400, code, param);
  });

  it('a pure stay-centric body is a Family S search (D8): { data, meta, request_id }', async () => {
    const res = await post({ location: 'Lisbon', maxItems: 3 });
    const body = (await res.json()) as { data: { id: string }[]; meta: { count: number }; request_id: string };
    expect(res.status).toBe(200);
    expect(body.data).toHaveLength(3);
    expect(body.meta.count).toBe(3);
    expect(body.request_id).toBe(res.headers.get('x-request-id'));
  });
});

describe('POST /v1/billing/topups validation', () => {
  // billing.write is not among a new key's default scopes (issue 8, item 9).
  let billing: TestAccount;
  beforeAll(async () => {
    billing = await s.account({ rpm: 100_000, scopes: 'stays.read,account.read,billing.write' });
  });

  it.each([
    [{}, 'missing_parameter', 'credits'],
    [{ credits: 0 }, 'invalid_parameter', 'credits'],
    [{ credits: -5 }, 'invalid_parameter', 'credits'],
    [{ credits: 1.5 }, 'invalid_parameter', 'credits'],
    [{ credits: 'many' }, 'invalid_parameter', 'credits'],
  ])('%j → %s', async (body, code, param) => {
    const res = await s.req('/v1/billing/topups', { method: 'POST', key: billing.liveKey, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    await expectError(res, 400, code, param);
  });
});

// Issue 8: control characters (C0 and DEL) in any free-text parameter are invalid_parameter naming
// the parameter, for every key kind, and free.
describe('control characters in text parameters', () => {
  const CTRL: [string, string][] = [
    ['%00', 'NUL'],
    ['%01', 'SOH'],
    ['%1B', 'ESC'],
    ['%1F', 'US'],
    ['%7F', 'DEL'],
    ['%0A', 'LF'],
    ['%09', 'TAB'],
  ];
  const at = (v: string) => `Lis${v}bon`; // inside the value: trimming must not remove it
  const GET: [path: (v: string) => string, param: string][] = [
    [(v) => `/v1/search?location=${at(v)}`, 'location'],
    [(v) => `/v1/search?location=Lisbon&cursor=ab${v}cd`, 'cursor'],
    [(v) => `/v1/reviews?platform=airbnb&listingId=12${v}3`, 'listingId'],
    [(v) => `/v1/reviews?platform=airbnb&url=https://www.airbnb.com/rooms/1${v}2`, 'url'],
    [(v) => `/v1/price?platform=airbnb&listingId=12${v}3&${stay()}`, 'listingId'],
    [(v) => `/v1/price-compare?name=Hotel${v}Aurora&location=Lisbon&${stay()}`, 'name'],
    [(v) => `/v1/price-compare?googleHotelId=g${v}1&${stay()}`, 'googleHotelId'],
    [(v) => `/v1/price-compare?listings=airbnb:1,booking:fr/a${v}b&${stay()}`, 'listings'],
    [(v) => `/v1/availability?platform=vrbo&listingIds=1,2${v}3&startDate=${day(1)}&endDate=${day(10)}`, 'listingIds'],
    [(v) => `/v1/listing/airbnb/12${v}34`, 'id'],
  ];
  it.each(CTRL)('%s (%s) in every GET text parameter → 400 invalid_parameter naming it', async (v) => {
    for (const [path, param] of GET) {
      const body = await expectError(await s.req(path(v), { key: a.sandboxKey }), 400, 'invalid_parameter', param);
      expect(body.error.message).toContain('control characters');
    }
  });

  it('a bare NUL is not a location (location=%00), for a live key too, and is free', async () => {
    await expectError(await s.req('/v1/search?location=%00', { key: a.sandboxKey }), 400, 'invalid_parameter', 'location');
    await expectError(await s.req('/v1/search?location=%00', { key: a.liveKey }), 400, 'invalid_parameter', 'location');
    const acct = (await (await s.req('/v1/account', { key: a.liveKey })).json()) as { data: { credits: { balance: number; held: number } } };
    expect(acct.data.credits).toMatchObject({ balance: 1000, held: 0 });
  });

  it.each(['\u0000', '\u0007', '\u001f', '\u007f', 'a\nb'])('POST /v1/search body strings: %j', async (c) => {
    const post = (body: unknown) => s.req('/v1/search', { method: 'POST', key: a.sandboxKey, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    await expectError(await post({ location: `Lis${c}bon` }), 400, 'invalid_parameter', 'location');
    await expectError(await post({ location: 'Lisbon', cursor: `x${c}y` }), 400, 'invalid_parameter', 'cursor');
  });

  it('printable text, including non-ASCII, is still accepted', async () => {
    for (const loc of ['São Paulo', 'Zürich', '東京', 'Lisbon, Portugal', "L'Aquila"]) {
      const res = await s.req(`/v1/search?location=${encodeURIComponent(loc)}&limit=1`, { key: a.sandboxKey });
      expect(res.status, loc).toBe(200);
    }
  });
});

// Issue 8: JSON bodies are bounded (depth, number of values, string length) before validation,
// and no error message ever stringifies an unbounded value.
describe('JSON body bounds', () => {
  const postRaw = (path: string, body: string) => s.req(path, { method: 'POST', key: a.sandboxKey, body, headers: { 'content-type': 'application/json' } });
  /** {"location":"L","<key>": n objects deep } built as text: JSON.stringify itself cannot go 6,000 deep. */
  const nested = (key: string, n: number, open = '{"a":', close = '}') => `{"location":"L","${key}":${open.repeat(n)}"x"${close.repeat(n)}}`;

  it('a 6,000-deep object in an enum field is a 400 naming the body, not a 500', async () => {
    const body = await expectError(await postRaw('/v1/search', nested('sort', 6000)), 400, 'invalid_parameter', 'body');
    expect(body.error.message).toMatch(/deeper than 32 levels.*"sort"/);
  });

  it.each(['sort', 'location', 'platforms', 'limit', 'childAges', 'unknownKey'])('deep nesting in %s, objects or lists', async (key) => {
    await expectError(await postRaw('/v1/search', nested(key, 6000, '[', ']')), 400, 'invalid_parameter', 'body');
    await expectError(await postRaw('/v1/search', nested(key, 100_000, '[', ']')), 400, 'invalid_parameter', 'body');
    // A key without billing.write is refused before the body matters (scope → body, docs/decisions.md).
    await expectError(await postRaw('/v1/billing/topups', `{"credits":${'['.repeat(5000)}1${']'.repeat(5000)}}`), 403, 'scope_insufficient');
    const billing = await s.account({ rpm: 100_000, scopes: 'stays.read,billing.write' });
    const topup = await s.req('/v1/billing/topups', {
      method: 'POST',
      key: billing.sandboxKey,
      body: `{"credits":${'['.repeat(5000)}1${']'.repeat(5000)}}`,
      headers: { 'content-type': 'application/json' },
    });
    await expectError(topup, 400, 'invalid_parameter', 'body');
  });

  it('the limit is 32 levels: 32 pass to field validation, 33 do not', async () => {
    // The body object is level 1, so 31 more levels make 32.
    await expectError(await postRaw('/v1/search', nested('sort', 31)), 400, 'invalid_sort', 'sort');
    await expectError(await postRaw('/v1/search', nested('sort', 32)), 400, 'invalid_parameter', 'body');
  });

  it('at most 10,000 values (keys and items) and strings of at most 8,192 characters', async () => {
    const items = (n: number) => JSON.stringify({ location: 'Lisbon', platforms: Array.from({ length: n }, () => 'airbnb') });
    await expectError(await postRaw('/v1/search', items(9_990)), 400, 'invalid_parameter', 'platforms'); // within bounds: the list rule (100) answers
    await expectError(await postRaw('/v1/search', items(10_000)), 400, 'invalid_parameter', 'body');
    const keys = Object.fromEntries(Array.from({ length: 5_001 }, (_, i) => [`k${i}`, 1]));
    await expectError(await postRaw('/v1/search', JSON.stringify({ location: 'Lisbon', ...keys })), 400, 'invalid_parameter', 'body');
    await expectError(await postRaw('/v1/search', JSON.stringify({ location: 'x'.repeat(8_192) })), 400, 'invalid_parameter', 'location'); // the field's own 2,048 rule
    await expectError(await postRaw('/v1/search', JSON.stringify({ location: 'x'.repeat(8_193) })), 400, 'invalid_parameter', 'body');
    await expectError(await postRaw('/v1/search', JSON.stringify({ location: 'Lisbon', ['k'.repeat(8_193)]: 1 })), 400, 'invalid_parameter', 'body');
  });

  it('a "__proto__" key is ignored like any unknown key, not read as the parameters', async () => {
    await expectError(await postRaw('/v1/search', '{"__proto__":{"location":"Lisbon"}}'), 400, 'missing_parameter', 'location');
    await expectError(await s.req('/v1/search?__proto__=x', { key: a.sandboxKey }), 400, 'missing_parameter', 'location');
  });

  it('error messages quote at most ~60 characters of a value and never an object or list', async () => {
    const cases: unknown[] = [
      { location: 'Lisbon', sort: 'x'.repeat(2000) },
      { location: 'Lisbon', sort: { a: { b: 'y'.repeat(5000) } } },
      { location: 'Lisbon', sort: Array.from({ length: 50 }, () => 'z'.repeat(100)) },
      { location: 'Lisbon', limit: 'w'.repeat(3000) },
      { location: 'Lisbon', currency: { deep: ['v'.repeat(4000)] } },
    ];
    for (const c of cases) {
      const res = await postRaw('/v1/search', JSON.stringify(c));
      const text = await res.text();
      expect(res.status, text).toBe(400);
      const msg = (JSON.parse(text) as { error: { message: string } }).error.message;
      expect(msg.length, msg).toBeLessThan(200);
      expect(msg).not.toMatch(/[xyzwv]{61}/);
    }
  });
});
