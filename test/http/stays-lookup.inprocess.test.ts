// Family S stay lookups through the app in-process (issue 11, items 1–3; D9, D11, D21, D26): GET /v1/stays/{id}
// in its three id forms, /by-url, /by-address (501), the eight sub-resources with exactly the
// spec's keys, the Stay schema strictly, the five field-availability rules, and typed S errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAY_PARTS, StayPartSchemas } from '../../src/core/schemas/stays.js';
import { credits, expectSError, expectSOk, expectStay, sCall } from '../helpers/s.js';
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

const get = (path: string, key = a.sandboxKey) => sCall(s, path, { key });
const ID = '12345';

/** The spec's table of sub-resources, key for key. */
const PART_KEYS: Record<(typeof STAY_PARTS)[number], string[]> = {
  photos: ['id', 'photos'],
  reviews: ['id', 'reviews_count', 'rating_breakdown', 'reviews'],
  host: ['id', 'host'],
  amenities: ['id', 'amenities'],
  availability: ['id', 'availability'],
  pricing: ['id', 'pricing'],
  location: ['id', 'location'],
  rating: ['id', 'star_rating', 'reviews_count', 'rating_breakdown'],
};

const NULL_PRICING = { price: null, currency: null, rate_type: null, breakdown: null };
const NULL_BREAKDOWN = { accuracy: null, cleanliness: null, communication: null, location: null, value: null, check_in: null, guest_satisfaction: null };

function expectRules(st: ReturnType<typeof expectStay>) {
  // Rule 1: pricing all null on a single-listing lookup.
  expect(st.pricing).toEqual(NULL_PRICING);
  // Rule 3: every rating_breakdown component null.
  expect(st.rating_breakdown).toEqual(NULL_BREAKDOWN);
  // Rule 4: room_type and property_type null.
  expect(st.property_type).toBeNull();
  expect(st.room_type).toBeNull();
  // Rule 5: latitude and longitude returned.
  expect(typeof st.location.latitude).toBe('number');
  expect(typeof st.location.longitude).toBe('number');
  // amenities: a single group named General.
  expect(st.amenities).toHaveLength(1);
  expect(st.amenities[0]!.category).toBe('General');
  expect(st.amenities[0]!.items.every((x) => typeof x === 'string')).toBe(true);
}

describe('GET /v1/stays/{id}', () => {
  it('a native id: { data: Stay, meta, request_id }, the Stay exactly as the spec table, X-Request-Id === request_id', async () => {
    const r = await get(`/v1/stays/${ID}`);
    const { data, meta } = expectSOk(r);
    expect(Object.keys(r.body).sort()).toEqual(['data', 'meta', 'request_id']);
    const st = expectStay(data);
    expect(st.id).toBe(ID);
    expect(st.url).toBe(`https://www.airbnb.com/rooms/${ID}`);
    expect(st.title.length).toBeGreaterThan(0);
    expectRules(st);
    // A lookup carries a description and the calendar.
    expect(typeof st.description).toBe('string');
    expect(st.availability.length).toBeGreaterThan(0);
    // The calendar: today (UTC) and the next days, consecutive, no price (pricing is the search path's).
    // (the server's today may be a day behind ours if midnight UTC falls between the two)
    const start = st.availability[0]!.date;
    expect([day(0), day(-1)]).toContain(start);
    st.availability.forEach((d, i) => {
      expect(d.date).toBe(new Date(Date.parse(`${start}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10));
      expect(d.price).toBeNull();
    });
    expect(Number.isInteger(st.reviews_count)).toBe(true);
    // Sandbox is free (D6).
    expect(meta).toMatchObject({ credits_charged: 0, environment: 'test' });
  });

  it('the stays_airbnb_<id> form and a pasted room URL (encoded in the path) give the same stay', async () => {
    const base = expectSOk<unknown>(await get(`/v1/stays/${ID}`)).data;
    const viaStays = expectSOk<unknown>(await get(`/v1/stays/stays_airbnb_${ID}`)).data;
    const viaUrl = expectSOk<unknown>(await get(`/v1/stays/${encodeURIComponent(`https://www.airbnb.com/rooms/${ID}`)}`)).data;
    expect(viaStays).toEqual(base);
    expect(viaUrl).toEqual(base);
  });

  it('an id above 2^53 is echoed exactly, as a string', async () => {
    const big = '98765432109876543210';
    const st = expectStay(expectSOk(await get(`/v1/stays/${big}`)).data);
    expect(st.id).toBe(big);
    expect(st.url).toBe(`https://www.airbnb.com/rooms/${big}`);
  });

  it('the sandbox is deterministic: the same lookup twice is identical data', async () => {
    const x = expectSOk(await get('/v1/stays/987654')).data;
    const y = expectSOk(await get('/v1/stays/987654')).data;
    expect(x).toEqual(y);
  });

  it('D21: another server (another data directory) gives byte-identical sandbox data', async () => {
    const t = await startApp();
    try {
      const b = await t.account();
      for (const path of [`/v1/stays/${ID}`, `/v1/stays/${ID}/reviews`]) {
        const here = await get(path);
        const there = await sCall(t, path, { key: b.sandboxKey });
        expect(JSON.stringify(there.body.data)).toBe(JSON.stringify(here.body.data));
      }
      const body = { locationQueries: ['Lisbon', 'Kyoto'], maxItems: 30 };
      const here = await sCall(s, '/v1/search', { key: a.sandboxKey, json: body });
      const there = await sCall(t, '/v1/search', { key: b.sandboxKey, json: body });
      expect(JSON.stringify(there.body.data)).toBe(JSON.stringify(here.body.data));
    } finally {
      await t.stop();
    }
  });

  it.each([
    ['stays_vrbo_1', 'invalid_parameter', 'id'],
    ['abc', 'invalid_parameter', 'id'],
    ['0123', 'invalid_parameter', 'id'],
    [encodeURIComponent('https://www.vrbo.com/123'), 'invalid_parameter', 'id'],
  ])('%s → 400 %s (S envelope)', async (id, code, param) => {
    expectSError(await get(`/v1/stays/${id}`), 400, code, param);
  });

  it.each([
    ['404', 404, 'listing_not_found'],
    ['409', 404, 'identity_mismatch'],
    ['502', 503, 'actor_blocked'],
    ['503', 503, 'all_actors_failed'],
    ['504', 504, 'actor_timeout'],
  ])('sandbox magic id %s → %i %s as { error, request_id }', async (id, status, code) => {
    const e = expectSError(await get(`/v1/stays/${id}`), status, code);
    expect(e.type).toBe(status === 404 ? 'not_found' : status === 503 ? 'upstream_unavailable' : 'upstream_timeout');
    expect(e.retryable).toBe(status !== 404);
    expectSError(await get(`/v1/stays/stays_airbnb_${id}/host`), status, code);
  });

  it('every lookup of the sandbox key left the balance alone', async () => {
    expect(await credits(s, a.liveKey)).toMatchObject({ balance: 1000, held: 0 });
  });
});

describe('GET /v1/stays/by-url', () => {
  it('an airbnb room URL gives the same Stay as the id', async () => {
    const base = expectSOk<unknown>(await get(`/v1/stays/${ID}`)).data;
    for (const u of [`https://www.airbnb.com/rooms/${ID}`, `https://www.airbnb.co.uk/rooms/${ID}?adults=2`, `airbnb.com/rooms/${ID}`]) {
      const r = await get(`/v1/stays/by-url?url=${encodeURIComponent(u)}`);
      const { data } = expectSOk(r);
      expectStay(data);
      expect(data, u).toEqual(base);
    }
  });

  it.each([
    ['a vrbo URL', 'https://www.vrbo.com/4886746'],
    ['an airbnb search URL', 'https://www.airbnb.com/s/Lisbon--Portugal/homes'],
    ['a booking URL', 'https://www.booking.com/hotel/fr/le-marais.html'],
    ['garbage', 'garbage'],
    ['a bare id', '12345'],
    ['an ftp URL', 'ftp://www.airbnb.com/rooms/12345'],
  ])('%s → 400 invalid_listing_url, param url', async (_what, u) => {
    expectSError(await get(`/v1/stays/by-url?url=${encodeURIComponent(u)}`), 400, 'invalid_listing_url', 'url');
  });

  it('no url → 400 missing_parameter url', async () => {
    expectSError(await get('/v1/stays/by-url'), 400, 'missing_parameter', 'url');
  });

  it('sandbox magic ids behind a URL are typed S errors', async () => {
    expectSError(await get(`/v1/stays/by-url?url=${encodeURIComponent('https://www.airbnb.com/rooms/404')}`), 404, 'listing_not_found');
  });
});

describe('GET /v1/stays/by-address', () => {
  it('501, type and code not_implemented, S envelope, free for both keys', async () => {
    const before = await credits(s, a.liveKey);
    for (const key of [a.sandboxKey, a.liveKey]) {
      for (const q of ['', '?address=1%20Main%20St']) {
        const e = expectSError(await get(`/v1/stays/by-address${q}`, key), 501, 'not_implemented');
        expect(e.type).toBe('not_implemented');
      }
    }
    expect(await credits(s, a.liveKey)).toEqual(before);
  });
});

describe('the eight sub-resources', () => {
  let whole: ReturnType<typeof expectStay>;
  beforeAll(async () => {
    whole = expectStay(expectSOk(await get(`/v1/stays/${ID}`)).data);
  });

  it.each(STAY_PARTS.map((p) => [p]))('/%s: exactly the spec table keys, its schema, and the same values as the whole stay', async (part) => {
    const r = await get(`/v1/stays/${ID}/${part}`);
    const { data } = expectSOk<Record<string, unknown>>(r);
    expect(Object.keys(data).sort()).toEqual([...PART_KEYS[part]].sort());
    StayPartSchemas[part].strict().parse(data);
    expect(data.id).toBe(ID);
    for (const k of PART_KEYS[part].filter((x) => x !== 'id')) {
      expect(data[k], `${part}.${k}`).toEqual((whole as Record<string, unknown>)[k === 'star_rating' ? 'star_rating' : k]);
    }
  });

  it('/pricing is all null (rule 1); /rating and /reviews rating_breakdown all null (rule 3); /amenities one General group; /location has coordinates', async () => {
    expect(expectSOk<{ pricing: unknown }>(await get(`/v1/stays/${ID}/pricing`)).data.pricing).toEqual(NULL_PRICING);
    expect(expectSOk<{ rating_breakdown: unknown }>(await get(`/v1/stays/${ID}/rating`)).data.rating_breakdown).toEqual(NULL_BREAKDOWN);
    expect(expectSOk<{ rating_breakdown: unknown }>(await get(`/v1/stays/${ID}/reviews`)).data.rating_breakdown).toEqual(NULL_BREAKDOWN);
    const am = expectSOk<{ amenities: { category: string }[] }>(await get(`/v1/stays/${ID}/amenities`)).data.amenities;
    expect(am.map((g) => g.category)).toEqual(['General']);
    const loc = expectSOk<{ location: { latitude: unknown; longitude: unknown } }>(await get(`/v1/stays/${ID}/location`)).data.location;
    expect(typeof loc.latitude).toBe('number');
    expect(typeof loc.longitude).toBe('number');
  });

  it('sub-resources take the stays_airbnb_ and URL forms too', async () => {
    const a1 = expectSOk(await get(`/v1/stays/${ID}/photos`)).data;
    expect(expectSOk(await get(`/v1/stays/stays_airbnb_${ID}/photos`)).data).toEqual(a1);
    expect(expectSOk(await get(`/v1/stays/${encodeURIComponent(`https://www.airbnb.com/rooms/${ID}`)}/photos`)).data).toEqual(a1);
  });

  it.each(STAY_PARTS.map((p) => [p]))('/%s of sandbox magic 404 → 404 listing_not_found, of stays_vrbo_1 → 400', async (part) => {
    expectSError(await get(`/v1/stays/404/${part}`), 404, 'listing_not_found');
    expectSError(await get(`/v1/stays/stays_vrbo_1/${part}`), 400, 'invalid_parameter', 'id');
  });
});
