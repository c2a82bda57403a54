// Property test: random and hostile query strings and bodies at every route. No response is a
// 500, every error is a typed Error with creditsCharged 0, and nothing is ever charged.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '../../src/core/schemas/resources.js';
import { type Stays, type TestAccount, day, startStays } from '../helpers/stays.js';

let s: Stays;
let a: TestAccount;
beforeAll(async () => {
  s = await startStays();
  // billing.write, so random top-up bodies reach validation; a sandbox top-up mints nothing (D24).
  a = await s.account({ rpm: 1_000_000, credits: 100, scopes: 'stays.read,billing.write' });
});
afterAll(async () => {
  await s.stop();
});

const PARAMS = ['location', 'checkIn', 'checkOut', 'adults', 'children', 'childAges', 'childAges[]', 'rooms', 'propertyType', 'amenities', 'minBedrooms', 'priceMin', 'priceMax',
  'minGuestRating', 'platforms', 'platforms[]', 'platform', 'limit', 'cursor', 'sort', 'currency', 'listingId', 'listingIds', 'url', 'country', 'language', 'minRating',
  'listings', 'name', 'googleHotelId', 'startDate', 'endDate', 'onlyAvailable', 'credits', '__proto__', 'constructor'];

const hostile = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constantFrom('', ' ', '%', '%00', '%E0%A4%A', '\u0000', '-1', '0', '1e309', 'NaN', 'Infinity', '9999999999999999999999', 'null', 'true', '[]', '{}',
    'airbnb', 'booking', 'vrbo', 'google', 'expedia', 'Lisbon', 'fail', 'partial', '404', 'https://www.airbnb.com/rooms/1', 'stays_airbnb_1', 'fr/slug', 'airbnb:1,vrbo:2',
    day(1), day(3), day(-1), day(400), '2026-02-30', 'x'.repeat(5000), '../../etc/passwd', '<script>', "' OR 1=1 --", '\uD800'),
  fc.integer().map(String),
  fc.double().map(String),
);

const jsonValue = fc.oneof(hostile, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(hostile, { maxLength: 5 }), fc.dictionary(fc.string(), hostile, { maxKeys: 3 }));

const ROUTES = ['/v1/search', '/v1/reviews', '/v1/price', '/v1/price-compare', '/v1/availability', '/v1/account', '/v1/listing/airbnb/1'];
const UPSTREAM_CODES = new Set(['upstream_unavailable', 'all_actors_failed', 'actor_blocked', 'upstream_degraded', 'actor_timeout', 'not_implemented']);

async function check(res: Response, where: string): Promise<void> {
  const text = await res.text();
  expect(res.status, `${where} → ${text.slice(0, 300)}`).not.toBe(500);
  let body: unknown;
  expect(() => (body = JSON.parse(text)), `${where}: not JSON: ${text.slice(0, 200)}`).not.toThrow();
  if (res.status >= 400) {
    const parsed = ErrorEnvelopeSchema.safeParse(body);
    expect(parsed.success, `${where}: ${text.slice(0, 300)}`).toBe(true);
    if (res.status >= 500) expect(UPSTREAM_CODES.has(parsed.data!.error.code), `${where}: ${text.slice(0, 300)}`).toBe(true);
  } else {
    expect((body as { meta?: { creditsCharged?: number } }).meta?.creditsCharged ?? 0).toBe(0);
  }
}

function query(entries: [string, string][]): string {
  const sp = new URLSearchParams();
  for (const [k, v] of entries) sp.append(k, v);
  return sp.toString();
}

describe('hostile input', () => {
  it('random query strings on every GET route', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), fc.array(fc.tuple(fc.constantFrom(...PARAMS), hostile), { maxLength: 8 }), fc.boolean(), async (route, entries, live) => {
        const path = `${route}?${query(entries)}`;
        await check(await s.req(path, { key: live ? a.liveKey : a.sandboxKey }), path);
      }),
      { numRuns: 400 },
    );
  });

  it('raw, badly encoded query strings and paths', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES, '/v1/listing/', '/v1/jobs/'), fc.string({ maxLength: 80 }), async (route, tail) => {
        const safe = tail.replace(/[#\s]/g, '').replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c));
        const path = route.endsWith('/') ? `${route}${safe}` : `${route}?${safe}`;
        let res: Response;
        try {
          res = await s.req(path, { key: a.sandboxKey });
        } catch {
          return; // the client itself refused the URL
        }
        await check(res, path);
      }),
      { numRuns: 300 },
    );
  });

  it('random JSON bodies on the POST routes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/v1/search', '/v1/billing/topups'),
        fc.oneof(fc.dictionary(fc.constantFrom(...PARAMS, 'maxItems', 'locationQueries'), jsonValue, { maxKeys: 8 }).map((o) => JSON.stringify(o)), fc.string(), fc.json()),
        async (route, body) => {
          await check(await s.req(route, { method: 'POST', key: a.sandboxKey, body, headers: { 'content-type': 'application/json' } }), `${route} ${body.slice(0, 200)}`);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('nothing was charged', async () => {
    const acct = (await (await s.req('/v1/account', { key: a.liveKey })).json()) as { data: { credits: { balance: number; held: number } } };
    expect(acct.data.credits).toMatchObject({ balance: 100, held: 0 });
  });
});
