// Property test: random and hostile query strings and bodies at every route. No response is a
// 500, every error is a typed Error with creditsCharged 0, and nothing is ever charged.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema, ErrorSchema } from '../../src/core/schemas/resources.js';
import { STAY_PARTS } from '../../src/core/schemas/stays.js';
import { FAMILY_S_SEARCH_KEYS } from '../../src/core/ops/stay-search.js';
import { normalizeInput } from '../../src/core/validate.js';
import { pollJob } from '../helpers/jobs.js';
import { type TestApp, startApp } from '../helpers/app.js';
import { type TestAccount, day } from '../helpers/stays.js';

let s: TestApp;
let a: TestAccount;
beforeAll(async () => {
  s = await startApp();
  // billing.write, so random top-up bodies reach validation; a sandbox top-up mints nothing (D24).
  a = await s.account({ rpm: 1_000_000, credits: 100, scopes: 'stays.read,billing.write' });
});
afterAll(async () => {
  await s.stop();
});

const PARAMS = [
  'location',
  'checkIn',
  'checkOut',
  'adults',
  'children',
  'childAges',
  'childAges[]',
  'rooms',
  'propertyType',
  'amenities',
  'minBedrooms',
  'priceMin',
  'priceMax',
  'minGuestRating',
  'platforms',
  'platforms[]',
  'platform',
  'limit',
  'cursor',
  'sort',
  'currency',
  'listingId',
  'listingIds',
  'url',
  'country',
  'language',
  'minRating',
  'listings',
  'name',
  'googleHotelId',
  'startDate',
  'endDate',
  'onlyAvailable',
  'credits',
  '__proto__',
  'constructor',
];

const hostile = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constantFrom(
    '',
    ' ',
    '%',
    '%00',
    '%E0%A4%A',
    '\u0000',
    '-1',
    '0',
    '1e309',
    'NaN',
    'Infinity',
    '9999999999999999999999',
    'null',
    'true',
    '[]',
    '{}',
    'airbnb',
    'booking',
    'vrbo',
    'google',
    'expedia',
    'Lisbon',
    'fail',
    'partial',
    '404',
    'https://www.airbnb.com/rooms/1',
    'stays_airbnb_1',
    'fr/slug',
    'airbnb:1,vrbo:2',
    day(1),
    day(3),
    day(-1),
    day(400),
    '2026-02-30',
    'x'.repeat(5000),
    '../../etc/passwd',
    '<script>',
    "' OR 1=1 --",
    '\uD800',
  ),
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

/** D8: a POST /v1/search body is Family S only when it has a key only Family S has; null and blank values are absent (normalizeInput), so they select nothing. */
const isSBody = (parsed: unknown) =>
  typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && FAMILY_S_SEARCH_KEYS.some((k) => k in normalizeInput(parsed as Record<string, unknown>));

/**
 * A Family S answer: never a 500; 5xx only the documented 501 of by-address and the typed upstream
 * failures (sandbox triggers, or no upstream for a live key); every error `{ error, request_id }`
 * with the shared Error object, creditsCharged 0 and request_id equal to X-Request-Id (D9, D11).
 */
async function checkS(res: Response, where: string, o: { byAddress?: boolean; billed?: boolean } = {}): Promise<void> {
  const text = await res.text();
  expect(res.status, `${where} → ${text.slice(0, 300)}`).not.toBe(500);
  let body: { error?: unknown; request_id?: unknown; meta?: { credits_charged?: number } } = {};
  expect(() => (body = JSON.parse(text) as typeof body), `${where}: not JSON: ${text.slice(0, 200)}`).not.toThrow();
  const requestId = res.headers.get('x-request-id');
  if (res.status >= 400) {
    expect(Object.keys(body).sort(), `${where}: ${text.slice(0, 300)}`).toEqual(['error', 'request_id']);
    const parsed = ErrorSchema.safeParse(body.error);
    expect(parsed.success, `${where}: ${text.slice(0, 300)}`).toBe(true);
    expect(parsed.data!.creditsCharged).toBe(0);
    expect(parsed.data!.requestId).toBe(requestId);
    expect(body.request_id).toBe(requestId);
    if (res.status === 501) expect(o.byAddress && parsed.data!.code === 'not_implemented', `${where}: ${text.slice(0, 300)}`).toBe(true);
    else if (res.status >= 500) expect(UPSTREAM_CODES.has(parsed.data!.code) && parsed.data!.code !== 'not_implemented', `${where}: ${text.slice(0, 300)}`).toBe(true);
    if (o.byAddress) expect(res.status === 501 || res.status === 401 || res.status === 429 || res.status === 403, `${where}: ${text.slice(0, 300)}`).toBe(true);
  } else {
    expect(body.request_id, where).toBe(requestId);
    if (!o.billed) expect(body.meta?.credits_charged ?? 0).toBe(0);
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
        fc.oneof(
          fc.dictionary(fc.constantFrom(...PARAMS, 'maxItems', 'locationQueries'), jsonValue, { maxKeys: 8 }).map((o) => JSON.stringify(o)),
          fc.string(),
          fc.json(),
        ),
        async (route, body) => {
          await check(await s.req(route, { method: 'POST', key: a.sandboxKey, body, headers: { 'content-type': 'application/json' } }), `${route} ${body.slice(0, 200)}`);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('random ids, sub-resources and queries on every Family S GET route', async () => {
    const idArb = fc
      .oneof(hostile, fc.constantFrom('12345', 'stays_airbnb_12345', 'stays_vrbo_1', 'stays_', 'by-url', 'by-address', 'batch', '502', '503', '504'))
      // An empty, '.' or '..' segment makes a path no route serves (fetch normalises the dots).
      .map((id) => encodeURIComponent(id.replace(/[\uD800-\uDFFF]/gu, '\uFFFD')))
      .filter((seg) => !/^(?:\.|%2e){0,2}$/i.test(seg));
    const pathArb = fc.oneof(
      idArb.map((seg) => `/v1/stays/${seg}`),
      fc.tuple(idArb, fc.constantFrom(...STAY_PARTS)).map(([seg, part]) => `/v1/stays/${seg}/${part}`),
      fc.constant('/v1/stays/by-url'),
      fc.constant('/v1/stays/by-address'),
    );
    await fc.assert(
      fc.asyncProperty(pathArb, fc.array(fc.tuple(fc.constantFrom('url', 'id', 'address', 'fields', 'url[]', '__proto__'), hostile), { maxLength: 4 }), fc.boolean(), async (base, entries, live) => {
        const path = entries.length ? `${base}?${query(entries)}` : base;
        const res = await s.req(path, { key: live ? a.liveKey : a.sandboxKey });
        await checkS(res, path, { byAddress: base === '/v1/stays/by-address' });
      }),
      { numRuns: 400 },
    );
  });

  it('random JSON bodies on every Family S POST route', async () => {
    const S_KEYS = [
      'location',
      'locationQueries',
      'searchUrls',
      'checkIn',
      'checkOut',
      'adults',
      'children',
      'infants',
      'pets',
      'priceMin',
      'priceMax',
      'minBeds',
      'minBedrooms',
      'minBathrooms',
      'currency',
      'locale',
      'maxItems',
      'nextPageToken',
      'fields',
      'limit',
      'platforms',
      '__proto__',
    ];
    const entry = fc.oneof(jsonValue, fc.dictionary(fc.constantFrom('id', 'url', 'address', 'x'), hostile, { maxKeys: 3 }), fc.record({ id: hostile }), fc.record({ url: hostile }));
    const batchBody = fc.oneof(fc.record({ entries: fc.array(entry, { maxLength: 60 }) }), fc.dictionary(fc.constantFrom('entries', 'id', 'url'), jsonValue, { maxKeys: 3 }));
    const searchBody = fc.dictionary(fc.constantFrom(...S_KEYS), fc.oneof(jsonValue, fc.integer({ min: -5, max: 400 }), fc.array(hostile, { minLength: 1, maxLength: 3 })), { maxKeys: 8 });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/v1/stays/batch', '/v1/search', '/v1/search/with-details', '/v1/listings/superhost', '/v1/listings/luxury', '/v1/listings/instant-book'),
        fc.oneof(
          batchBody.map((o) => JSON.stringify(o)),
          searchBody.map((o) => JSON.stringify(o)),
          fc.string(),
          fc.json(),
        ),
        fc.boolean(),
        async (route, body, live) => {
          const res = await s.req(route, { method: 'POST', key: live ? a.liveKey : a.sandboxKey, body, headers: { 'content-type': 'application/json' } });
          const where = `${route} ${body.slice(0, 200)}`;
          if (route !== '/v1/search') return checkS(res, where);
          // D8: POST /v1/search is Family S only when the body has a key only Family S has.
          let parsed: unknown;
          try {
            parsed = JSON.parse(body);
          } catch {
            parsed = null;
          }
          return isSBody(parsed) ? checkS(res, where) : check(res, where);
        },
      ),
      // Found by this property: an S body refused for a lone surrogate answered in the U envelope.
      { numRuns: 400, examples: [['/v1/search', '{"minBeds":0,"location":["\\ud800"]}', false]] },
    );
  });

  it('nothing was charged', async () => {
    const acct = (await (await s.req('/v1/account', { key: a.liveKey })).json()) as { data: { credits: { balance: number; held: number } } };
    expect(acct.data.credits).toMatchObject({ balance: 100, held: 0 });
  });
});

describe('random Family S calls with a live key on the simulated upstream', () => {
  let live: TestApp;
  let b: TestAccount;
  const START = 1_000_000;
  beforeAll(async () => {
    live = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0', STAYS_SIM_FAIL: '' });
    b = await live.account({ rpm: 1_000_000, credits: START });
  });
  afterAll(async () => {
    await live.stop();
  });

  const PLACE = fc.constantFrom('Lisbon', 'Porto', 'lisbon', 'Kyoto', 'fail', 'empty', 'partial', 'blocked', 'x');
  const ID = fc.oneof(fc.constantFrom('404', '409', '502', '503', '504', 'abc', 'stays_airbnb_77'), fc.integer({ min: 1, max: 999_999 }).map(String));
  const searchBody = fc.record(
    {
      location: PLACE,
      locationQueries: fc.array(PLACE, { minLength: 1, maxLength: 4 }),
      maxItems: fc.oneof(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 300 })),
      pets: fc.integer({ min: 0, max: 2 }),
      priceMin: fc.integer({ min: 0, max: 500 }),
      priceMax: fc.integer({ min: 0, max: 900 }),
      minBedrooms: fc.integer({ min: 0, max: 4 }),
      fields: fc.constantFrom('id', 'id,pricing.price', 'title,host', 'nope'),
      adults: fc.integer({ min: 1, max: 8 }),
    },
    { requiredKeys: [] },
  );
  const call = fc.oneof(
    fc.tuple(
      fc.constant('GET'),
      fc.oneof(
        ID.map((id) => `/v1/stays/${id}`),
        fc.tuple(ID, fc.constantFrom(...STAY_PARTS)).map(([id, p]) => `/v1/stays/${id}/${p}`),
      ),
      fc.constant(undefined as unknown),
    ),
    fc.tuple(
      fc.constant('POST'),
      fc.constant('/v1/stays/batch'),
      fc
        .array(
          fc.oneof(
            ID.map((id) => ({ id })),
            ID.map((id) => ({ url: `https://www.airbnb.com/rooms/${id}` })),
          ),
          { minLength: 0, maxLength: 8 },
        )
        .map((entries) => ({ entries }) as unknown),
    ),
    fc
      .tuple(
        fc.constant('POST'),
        fc.constantFrom('/v1/search', '/v1/search/with-details', '/v1/listings/superhost', '/v1/listings/luxury', '/v1/listings/instant-book'),
        searchBody.map((x) => x as unknown),
      )
      // D8: a POST /v1/search body without a key only Family S has is a Family U search (the property above checks those).
      .filter(([, path, body]) => path !== '/v1/search' || isSBody(body)),
  );

  it('every answer is typed, every error free, and the credits_charged returned sum to the balance change exactly', async () => {
    let total = 0;
    await fc.assert(
      fc.asyncProperty(call, async ([method, path, json]) => {
        const res = await live.req(path, method === 'POST' ? { method, key: b.liveKey, body: JSON.stringify(json), headers: { 'content-type': 'application/json' } } : { key: b.liveKey });
        const where = `${method} ${path} ${JSON.stringify(json ?? null).slice(0, 200)}`;
        if (res.status === 202) {
          const accepted = (await res.json()) as { data: { jobId: string }; request_id: string };
          expect(accepted.request_id, where).toBe(res.headers.get('x-request-id'));
          const job = await pollJob(live, b.liveKey, accepted.data.jobId, 30_000);
          total += job.data.status === 'completed' ? job.meta.creditsCharged : 0;
          if (job.data.status === 'failed') expect(job.meta.creditsCharged).toBe(0);
          return;
        }
        const copy = res.clone();
        await checkS(res, where, { billed: true });
        if (res.status === 200) {
          const body = (await copy.json()) as { meta: { credits_charged: number; count?: number }; data: unknown };
          total += body.meta.credits_charged;
          // D26: 1 per row (with-details 2), whatever the filters left.
          if (Array.isArray(body.data)) expect(body.meta.credits_charged, where).toBe(body.data.length * (path === '/v1/search/with-details' ? 2 : 1));
          else expect(body.meta.credits_charged, where).toBe(1);
        } else {
          await copy.text();
        }
      }),
      { numRuns: 150 },
    );
    const acct = (await (await live.req('/v1/account', { key: b.liveKey })).json()) as { data: { credits: { balance: number; held: number } } };
    expect(acct.data.credits.held).toBe(0);
    expect(START - acct.data.credits.balance).toBe(total);
  }, 120_000);
});
