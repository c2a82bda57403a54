// The Family S search forms through the app in-process (issue 11 items 4–5; D8, D10, D18, D26): POST /v1/search
// with an S body, /v1/search/with-details and the three presets. Family selection by the body's
// keys, the place forms, default dates, paging by next_page_token, maxItems (sync, async, clamp),
// the fields projection, the filters and the presets' rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_ID_PATTERN } from '../../src/core/schemas/resources.js';
import { FAMILY_S_SEARCH_KEYS } from '../../src/core/ops/stay-search.js';
import { pollJob } from '../helpers/jobs.js';
import { type SResult, expectRequestId, expectSError, expectSOk, expectStay, sCall } from '../helpers/s.js';
import { type TestApp, startApp } from '../helpers/app.js';
import { type TestAccount, day } from '../helpers/stays.js';

let s: TestApp;
let a: TestAccount;
beforeAll(async () => {
  // Sandbox keys use the sandbox world; live keys the simulated upstream with a short latency.
  s = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '50', STAYS_SIM_FAIL: '' });
  a = await s.account({ rpm: 100_000, credits: 100_000 });
});
afterAll(async () => {
  await s.stop();
});

type Row = ReturnType<typeof expectStay>;
type ListMeta = {
  count: number;
  limit: number;
  has_more: boolean;
  next_page_token: string | null;
  credits_charged: number;
  environment: string;
  cached: boolean;
  warnings: { code: string; message: string }[];
  warning?: string;
};

const post = (path: string, json: unknown, key = a.sandboxKey, headers: Record<string, string> = {}) => sCall(s, path, { key, json, headers });
const search = (json: unknown, key?: string) => post('/v1/search', json, key);

/** A 200 S list: `{ data: Stay[], meta: { count, limit, has_more, next_page_token, … }, request_id }`. */
function list(r: SResult, opts: { strict?: boolean } = {}): { rows: Row[]; meta: ListMeta; raw: Record<string, unknown>[] } {
  const { data, meta } = expectSOk<Record<string, unknown>[]>(r);
  expect(Object.keys(r.body).sort()).toEqual(['data', 'meta', 'request_id']);
  const m = meta as unknown as ListMeta;
  expect(Object.keys(m).slice(0, 4)).toEqual(['count', 'limit', 'has_more', 'next_page_token']);
  expect(m.count).toBe(data.length);
  expect(m.has_more).toBe(m.next_page_token !== null);
  expect(m.count).toBeLessThanOrEqual(m.limit);
  return { rows: opts.strict === false ? (data as never) : data.map(expectStay), meta: m, raw: data };
}

const PLACES = ['Lisbon', 'Porto', 'Paris', 'Rome', 'Berlin', 'Madrid'];

describe('D8: the body selects the family', () => {
  it.each(FAMILY_S_SEARCH_KEYS.map((k) => [k]))('a body with %s is an S search: { data, meta, request_id }', async (k) => {
    const sample: Record<string, unknown> = {
      locationQueries: ['Lisbon'],
      searchUrls: ['https://www.airbnb.com/s/Lisbon--Portugal/homes'],
      maxItems: 3,
      nextPageToken: undefined,
      fields: 'id,title',
      infants: 0,
      pets: 0,
      locale: 'en',
      minBeds: 1,
      minBathrooms: 1,
    };
    const body: Record<string, unknown> = k === 'locationQueries' || k === 'searchUrls' ? { [k]: sample[k] } : { location: 'Lisbon', [k]: sample[k] };
    if (k === 'nextPageToken') {
      const first = list(await search({ location: 'Lisbon', maxItems: 2 }));
      body.maxItems = 2;
      body.nextPageToken = first.meta.next_page_token;
    }
    const { meta } = list(await search(body), { strict: k !== 'fields' });
    expect(meta.environment).toBe('test');
  });

  it('a body with only shared keys stays Family U ({ data, meta.requestId }, no request_id)', async () => {
    const res = await s.req('/v1/search', { method: 'POST', key: a.sandboxKey, body: JSON.stringify({ location: 'Lisbon', limit: 2 }), headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: unknown[]; meta: { requestId: string }; request_id?: string };
    expect(body.request_id).toBeUndefined();
    expect(body.meta.requestId).toBe(res.headers.get('x-request-id'));
  });

  // Was a bug: the family was chosen by `key in body`, so a null S key made a U body a mix.
  it('a U body with an S-only key set to null is still a U search (null is absent)', async () => {
    const res = await s.req('/v1/search', { method: 'POST', key: a.sandboxKey, body: JSON.stringify({ location: 'Lisbon', limit: 2, pets: null }), headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { meta: { requestId: string } }).meta.requestId).toBe(res.headers.get('x-request-id'));
  });

  it.each([
    ['limit', 'maxItems', { location: 'Lisbon', limit: 3, maxItems: 3 }],
    ['platforms', 'pets', { location: 'Lisbon', platforms: ['airbnb'], pets: 1 }],
    ['cursor', 'locationQueries', { locationQueries: ['Lisbon'], cursor: 'abc' }],
    ['sort', 'fields', { location: 'Lisbon', sort: 'price_asc', fields: 'id' }],
  ])('a body mixing %s (U) with %s (S) → 400 mutually_exclusive_params in the S envelope (the S key selected the form), naming both', async (u, sk, body) => {
    const e = expectSError(await search(body), 400, 'mutually_exclusive_params');
    expect([u, sk]).toContain(e.param);
    expect(e.message).toContain(u);
    expect(e.message).toContain(sk);
  });
});

describe('the place: location xor locationQueries xor searchUrls', () => {
  it('none → 400 missing_parameter', async () => {
    expectSError(await search({ maxItems: 3 }), 400, 'missing_parameter');
  });

  it.each([
    [{ location: 'Lisbon', locationQueries: ['Porto'] }],
    [{ location: 'Lisbon', searchUrls: ['https://www.airbnb.com/s/Porto/homes'] }],
    [{ locationQueries: ['Lisbon'], searchUrls: ['https://www.airbnb.com/s/Porto/homes'] }],
  ])('two of them → 400 mutually_exclusive_params (%j)', async (body) => {
    expectSError(await search({ ...body, maxItems: 3 }), 400, 'mutually_exclusive_params');
  });

  it('an airbnb /s/<place>/homes URL searches that place: the same rows as location', async () => {
    const viaUrl = list(await search({ searchUrls: ['https://www.airbnb.com/s/Lisbon/homes'], maxItems: 5 })).rows;
    const viaLoc = list(await search({ location: 'Lisbon', maxItems: 5 })).rows;
    expect(viaUrl.map((r) => r.id)).toEqual(viaLoc.map((r) => r.id));
    expect(viaUrl.every((r) => r.location.city === 'Lisbon')).toBe(true);
  });

  it('other airbnb hosts and query strings are understood', async () => {
    const viaLoc = list(await search({ location: 'Lisbon', maxItems: 5 })).rows.map((r) => r.id);
    for (const u of ['https://www.airbnb.pt/s/Lisbon/homes?adults=2', 'https://fr.airbnb.ca/s/Lisbon/homes', 'https://www.airbnb.com/s/Lisbon']) {
      expect(
        list(await search({ searchUrls: [u], maxItems: 5 })).rows.map((r) => r.id),
        u,
      ).toEqual(viaLoc);
    }
  });

  // In /s/homes?query=Lisbon the place is the query ("homes" is a category), and /s/homes alone
  // names no place.
  it('the /s/homes?query=<place> form searches the query; /s/homes alone names no place', async () => {
    const viaLoc = list(await search({ location: 'Lisbon', maxItems: 5 })).rows.map((r) => r.id);
    expect(list(await search({ searchUrls: ['https://www.airbnb.com/s/homes?query=Lisbon'], maxItems: 5 })).rows.map((r) => r.id)).toEqual(viaLoc);
    expectSError(await search({ searchUrls: ['https://www.airbnb.com/s/homes'], maxItems: 5 }), 400, 'invalid_parameter', 'searchUrls[0]');
  });

  it.each([
    ['an airbnb URL naming no place', 'https://www.airbnb.com/'],
    ['a room URL', 'https://www.airbnb.com/rooms/12345'],
    ['another site', 'https://www.vrbo.com/search?destination=Lisbon'],
    ['booking', 'https://www.booking.com/searchresults.html?ss=Lisbon'],
    ['not a URL', 'Lisbon'],
    ['an ftp URL', 'ftp://www.airbnb.com/s/Lisbon/homes'],
  ])('searchUrls with %s → 400 invalid_parameter, param searchUrls[i]', async (_w, u) => {
    expectSError(await search({ searchUrls: ['https://www.airbnb.com/s/Porto/homes', u], maxItems: 3 }), 400, 'invalid_parameter', 'searchUrls[1]');
  });

  // Was a bug: a place given twice (or in another case or spacing) repeated its stays, billed per copy.
  it('a place repeated in locationQueries does not repeat stays: every id at most once, across pages too', async () => {
    const { rows } = list(await search({ locationQueries: ['Lisbon', 'lisbon', ' LISBON '], maxItems: 30 }));
    const ids = rows.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    const body = { locationQueries: ['Porto', 'porto', 'Lisbon'], maxItems: 25 };
    const seen: string[] = [];
    let token: string | null = null;
    for (let i = 0; i < 20; i++) {
      const page = list(await search(token === null ? body : { ...body, nextPageToken: token }));
      seen.push(...page.rows.map((r) => r.id));
      token = page.meta.next_page_token;
      if (token === null) break;
    }
    expect(token).toBeNull();
    expect(new Set(seen).size).toBe(seen.length);
    const union = list(await search({ locationQueries: ['Porto', 'Lisbon'], maxItems: 240 })).rows.map((r) => r.id);
    expect([...seen].sort()).toEqual([...union].sort());
  });

  it('locationQueries interleaves the places; location.city comes from the query (rule 5)', async () => {
    const { rows } = list(await search({ locationQueries: ['Lisbon', 'Porto'], maxItems: 6 }));
    expect(rows.map((r) => r.location.city)).toEqual(['Lisbon', 'Porto', 'Lisbon', 'Porto', 'Lisbon', 'Porto']);
  });
});

describe('search rows: discovery fields, dated pricing', () => {
  it('default dates: a 2-night stay 14 days out; pricing populated on every row (rule 1); description null, availability []', async () => {
    const dflt = list(await search({ location: 'Lisbon', maxItems: 20 })).rows;
    const explicit = list(await search({ location: 'Lisbon', maxItems: 20, checkIn: day(14), checkOut: day(16) })).rows;
    expect(dflt).toEqual(explicit);
    expect(dflt.length).toBe(20);
    for (const r of dflt) {
      expect(typeof r.pricing.price).toBe('number');
      expect(r.pricing).toMatchObject({ currency: 'USD', rate_type: 'nightly' });
      expect(r.pricing.breakdown![0]).toEqual({ label: '2 nights', amount: expect.any(Number) });
      expect(r.pricing.breakdown![0]!.amount).toBeCloseTo(r.pricing.price! * 2, 1);
      expect(r.url).toBe(`https://www.airbnb.com/rooms/${r.id}`);
      expect(r.id).toMatch(/^[1-9]\d*$/);
      expect(r.description).toBeNull();
      expect(r.availability).toEqual([]);
      expect(r.rating_breakdown).toEqual({ accuracy: null, cleanliness: null, communication: null, location: null, value: null, check_in: null, guest_satisfaction: null });
      expect(r.property_type).toBeNull();
      expect(r.room_type).toBeNull();
      expect(r.amenities.map((g) => g.category)).toEqual(['General']);
      expect(typeof r.location.latitude).toBe('number');
      expect(typeof r.location.longitude).toBe('number');
    }
    const three = list(await search({ location: 'Lisbon', maxItems: 3, checkIn: day(30), checkOut: day(33) })).rows;
    expect(three.every((r) => r.pricing.breakdown![0]!.label === '3 nights')).toBe(true);
  });

  it('currency is echoed in pricing.currency', async () => {
    const { rows } = list(await search({ location: 'Lisbon', maxItems: 3, currency: 'EUR' }));
    expect(rows.every((r) => r.pricing.currency === 'EUR')).toBe(true);
  });

  it.each([
    [{ location: 'Lisbon', checkIn: day(20) }, 'missing_parameter'],
    [{ location: 'Lisbon', checkIn: day(-2), checkOut: day(1) }, 'date_in_past'],
    [{ location: 'Lisbon', checkIn: day(20), checkOut: day(20) }, 'invalid_date_range'],
    [{ location: 'Lisbon', priceMin: 300, priceMax: 100 }, 'invalid_price_range'],
    [{ location: 'Lisbon', adults: 0 }, 'invalid_parameter'],
    [{ location: 'Lisbon', locale: 'english' }, 'invalid_parameter'],
    [{ location: 'Lisbon', currency: 'dollars' }, 'invalid_parameter'],
    [{ location: '' }, 'invalid_parameter'],
  ])('%j → 400 %s (S envelope)', async (body, code) => {
    const r = await search({ ...body, maxItems: 3 });
    expect(r.status).toBe(400);
    expect(['invalid_parameter', 'missing_parameter', code]).toContain(expectSError(r, 400, r.body.error!.code).code);
    if (code !== 'invalid_parameter') expect(r.body.error!.code).toBe(code);
  });
});

describe('paging by resending the same body with next_page_token', () => {
  it('pages are disjoint and their concatenation is one big page, in order; the last page has next_page_token null', async () => {
    const body = { locationQueries: ['Lisbon', 'Porto', 'Paris'], maxItems: 25 };
    const big = list(await search({ ...body, maxItems: 240 }));
    expect(big.meta.has_more).toBe(false);
    const seen: string[] = [];
    let token: string | null = null;
    for (let i = 0; i < 20; i++) {
      const page = list(await search(token === null ? body : { ...body, nextPageToken: token }));
      expect(page.meta.limit).toBe(25);
      seen.push(...page.rows.map((r) => r.id));
      token = page.meta.next_page_token;
      if (token === null) break;
      expect(page.rows).toHaveLength(25);
    }
    expect(token).toBeNull();
    expect(new Set(seen).size).toBe(seen.length);
    // Round-robin restarts at the first place on each page, so the order within the union may
    // differ from one big page's; the set of rows may not.
    expect([...seen].sort()).toEqual(big.rows.map((r) => r.id).sort());
  });

  it('a token with a changed body → 400 invalid_cursor, param nextPageToken; a garbage token too', async () => {
    const first = list(await search({ location: 'Lisbon', maxItems: 5 }));
    const token = first.meta.next_page_token!;
    for (const changed of [
      { location: 'Porto', maxItems: 5 },
      { location: 'Lisbon', maxItems: 6 },
      { location: 'Lisbon', maxItems: 5, pets: 1 },
      { location: 'Lisbon', maxItems: 5, priceMax: 400 },
    ]) {
      expectSError(await search({ ...changed, nextPageToken: token }), 400, 'invalid_cursor', 'nextPageToken');
    }
    expectSError(await search({ location: 'Lisbon', maxItems: 5, nextPageToken: 'not-a-token' }), 400, 'invalid_cursor', 'nextPageToken');
    // A token of one form is not a token of another.
    expectSError(await post('/v1/search/with-details', { location: 'Lisbon', maxItems: 5, nextPageToken: token }), 400, 'invalid_cursor', 'nextPageToken');
  });
});

describe('maxItems (D10)', () => {
  it('0 and negative → 400 limit_out_of_range; fractional or not a number → 400 invalid_parameter; param maxItems', async () => {
    for (const maxItems of [0, -1]) expectSError(await search({ location: 'Lisbon', maxItems }), 400, 'limit_out_of_range', 'maxItems');
    for (const maxItems of [2.5, 'ten', true]) expectSError(await search({ location: 'Lisbon', maxItems }), 400, 'invalid_parameter', 'maxItems');
  });

  it('default 50', async () => {
    const { meta, rows } = list(await search({ locationQueries: ['Lisbon', 'Porto'] }));
    expect(meta.limit).toBe(50);
    expect(rows).toHaveLength(50);
  });

  it('240 is synchronous (sandbox and live): 200 with 240 rows', async () => {
    const body = { locationQueries: PLACES, maxItems: 240 };
    const sb = list(await search(body));
    expect(sb.rows).toHaveLength(240);
    const live = list(await search({ locationQueries: ['Oslo', 'Bergen', 'Tromso', 'Stavanger', 'Trondheim', 'Bodo'], maxItems: 240 }, a.liveKey));
    expect(live.rows).toHaveLength(240);
    expect(live.meta.environment).toBe('live');
  });

  it('above 250 → clamped to 250 with a meta.warnings entry (sandbox: 200)', async () => {
    const { rows, meta } = list(await search({ locationQueries: PLACES, maxItems: 1000 }));
    expect(rows).toHaveLength(250);
    expect(meta.limit).toBe(250);
    expect(meta.has_more).toBe(true);
    expect(meta.warnings.map((w) => w.code)).toContain('max_items_clamped');
    for (const w of meta.warnings) expect(Object.keys(w).sort()).toEqual(['code', 'message']);
  });

  it('241–250 with a live key → 202, Retry-After, the D18 job shape plus request_id; the completed job pages on', async () => {
    const places = ['Vilnius', 'Riga', 'Tallinn', 'Helsinki', 'Tampere', 'Turku'];
    const body = { locationQueries: places, maxItems: 245 };
    const r = await search(body, a.liveKey);
    expect(r.status, r.text.slice(0, 300)).toBe(202);
    expect(r.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    const b = r.body as unknown as {
      data: { jobId: string; status: string; pollUrl: string; estimatedSeconds: number };
      meta: { requestId: string; creditsCharged: number; platforms: string[] };
      request_id: string;
    };
    expect(Object.keys(b).sort()).toEqual(['data', 'meta', 'request_id']);
    expect(b.data.jobId).toMatch(/^job_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(b.data).toMatchObject({ status: 'pending', pollUrl: `/v1/jobs/${b.data.jobId}`, estimatedSeconds: expect.any(Number) });
    expect(b.meta).toMatchObject({ creditsCharged: 0, platforms: ['airbnb'] });
    expect(b.request_id).toMatch(REQUEST_ID_PATTERN);
    expect(b.request_id).toBe(b.meta.requestId);
    expect(b.request_id).toBe(r.headers.get('x-request-id'));

    const job = await pollJob(s, a.liveKey, b.data.jobId);
    expect(job.data.status).toBe('completed');
    const result = job.data.result as unknown[];
    expect(result).toHaveLength(245);
    result.forEach(expectStay);
    expect(job.meta.creditsCharged).toBe(245);
    const pg = (job.meta as unknown as { pagination: { limit: number; hasMore: boolean; nextCursor: string | null } }).pagination;
    expect(pg).toMatchObject({ limit: 245, hasMore: true });
    expect(typeof pg.nextCursor).toBe('string');

    // The next page: the same body with the cursor; the legs are cached, so it is answered at once.
    const next = list(await search({ ...body, nextPageToken: pg.nextCursor }, a.liveKey));
    expect(next.rows.length).toBeGreaterThan(0);
    const firstIds = new Set((result as { id: string }[]).map((x) => x.id));
    expect(next.rows.some((x) => firstIds.has(x.id))).toBe(false);
  });

  it('above 250 with a live key: clamped to 250, so async; the job carries the max_items_clamped warning', async () => {
    const r = await search({ locationQueries: ['Pula', 'Split', 'Zadar', 'Rijeka', 'Osijek', 'Dubrovnik'], maxItems: 1000 }, a.liveKey);
    expect(r.status, r.text.slice(0, 200)).toBe(202);
    expect((r.body as { request_id?: string }).request_id).toBe(r.headers.get('x-request-id'));
    const job = await pollJob(s, a.liveKey, (r.body.data as { jobId: string }).jobId);
    expect(job.data.status).toBe('completed');
    expect((job.data.result as unknown[]).length).toBe(250);
    expect(job.meta.warnings!.map((w) => w.code)).toContain('max_items_clamped');
    expect(job.meta.creditsCharged).toBe(250);
  });

  it('241–250 live with Prefer: wait=N answers 200 in the S envelope when the job finishes in time (D17)', async () => {
    const r = await post('/v1/search', { locationQueries: ['Graz', 'Linz', 'Salzburg', 'Innsbruck', 'Villach', 'Bregenz'], maxItems: 245 }, a.liveKey, { prefer: 'wait=20' });
    const { rows, meta } = list(r);
    expect(rows).toHaveLength(245);
    expect(meta).toMatchObject({ environment: 'live', credits_charged: 245, limit: 245 });
  });

  it('241–250 with a sandbox key is answered at once (sandbox is always sync)', async () => {
    expect(list(await search({ locationQueries: PLACES, maxItems: 245 })).rows).toHaveLength(245);
  });
});

describe('fields projection', () => {
  it('id,title,pricing.price gives exactly those keys, in every row', async () => {
    const { raw } = list(await search({ location: 'Lisbon', maxItems: 5, fields: 'id,title,pricing.price' }), { strict: false });
    expect(raw).toHaveLength(5);
    for (const r of raw) {
      expect(Object.keys(r).sort()).toEqual(['id', 'pricing', 'title']);
      expect(Object.keys(r.pricing as object)).toEqual(['price']);
      expect(typeof (r.pricing as { price: unknown }).price).toBe('number');
    }
  });

  it('array paths project each item; a parent path wins over its children; blanks are ignored', async () => {
    const { raw } = list(await search({ location: 'Lisbon', maxItems: 3, fields: ' id , photos.url,, location,location.city' }), { strict: false });
    for (const r of raw) {
      expect(Object.keys(r).sort()).toEqual(['id', 'location', 'photos']);
      for (const p of r.photos as object[]) expect(Object.keys(p)).toEqual(['url']);
      expect(Object.keys(r.location as object).sort()).toEqual(['address', 'city', 'country', 'latitude', 'longitude']);
    }
  });

  it('the projection keeps the same rows as the full search', async () => {
    const full = list(await search({ location: 'Porto', maxItems: 7 })).rows;
    const proj = list(await search({ location: 'Porto', maxItems: 7, fields: 'id' }), { strict: false }).raw;
    expect(proj).toEqual(full.map((r) => ({ id: r.id })));
  });

  it.each(['id,nope', 'pricing.cost', 'Id', 'host.is_superhost.x', ','])('unknown path %j → 400 invalid_parameter, param fields, the message names the path', async (fields) => {
    const e = expectSError(await search({ location: 'Lisbon', maxItems: 3, fields }), 400, 'invalid_parameter', 'fields');
    const bad = fields.split(',').find((f) => f !== 'id' && f.trim() !== '');
    if (bad) expect(e.message).toContain(bad);
  });

  it('fields works on with-details and presets too', async () => {
    for (const path of ['/v1/search/with-details', '/v1/listings/superhost', '/v1/listings/luxury', '/v1/listings/instant-book']) {
      const { raw } = list(await post(path, { location: 'Lisbon', maxItems: 3, fields: 'id,host.is_superhost' }), { strict: false });
      for (const r of raw) expect(Object.keys(r).sort(), path).toEqual(['host', 'id']);
      expectSError(await post(path, { location: 'Lisbon', fields: 'nope' }), 400, 'invalid_parameter', 'fields');
    }
  });
});

/** Facts a lookup's description states (core/stays/shape.ts describe): bedrooms and baths. */
function facts(description: string): { bedrooms: number | null; baths: number | null } {
  const bedrooms = /\bstudio\b/.test(description) ? 0 : Number(/(\d+) bedrooms?/.exec(description)?.[1] ?? NaN);
  const baths = Number(/([\d.]+) baths?/.exec(description)?.[1] ?? NaN);
  return { bedrooms: Number.isNaN(bedrooms) ? null : bedrooms, baths: Number.isNaN(baths) ? null : baths };
}

describe('filters', () => {
  const body = { locationQueries: ['Lisbon', 'Porto', 'Paris'], maxItems: 240 };
  let all: Row[];
  beforeAll(async () => {
    all = list(await search(body)).rows;
  });

  it('pets > 0 keeps only pet-friendly stays (as their lookup says too), and fewer than unfiltered', async () => {
    const pets = list(await search({ ...body, pets: 1 })).rows;
    expect(pets.length).toBeGreaterThan(0);
    expect(pets.length).toBeLessThan(all.length);
    for (const r of pets) expect(r.amenities[0]!.items).toContain('pet_friendly');
    for (const r of pets.slice(0, 3)) {
      const looked = expectStay(expectSOk(await sCall(s, `/v1/stays/${r.id}`, { key: a.sandboxKey })).data);
      expect(looked.amenities[0]!.items).toContain('pet_friendly');
    }
    // Every pet-friendly row of the unfiltered search is kept.
    expect(pets.map((r) => r.id).sort()).toEqual(
      all
        .filter((r) => r.amenities[0]!.items.includes('pet_friendly'))
        .map((r) => r.id)
        .sort(),
    );
  });

  it('priceMin/priceMax bound pricing.price', async () => {
    const rows = list(await search({ ...body, priceMin: 100, priceMax: 200 })).rows;
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.pricing.price!).toBeGreaterThanOrEqual(100);
      expect(r.pricing.price!).toBeLessThanOrEqual(200);
    }
    expect(rows.map((r) => r.id).sort()).toEqual(
      all
        .filter((r) => r.pricing.price! >= 100 && r.pricing.price! <= 200)
        .map((r) => r.id)
        .sort(),
    );
  });

  it('minBedrooms and minBathrooms filter (checked against the with-details description)', async () => {
    const wd = list(await post('/v1/search/with-details', { location: 'Lisbon', maxItems: 60, minBedrooms: 2, minBathrooms: 2 })).rows;
    expect(wd.length).toBeGreaterThan(0);
    for (const r of wd) {
      const f = facts(r.description!);
      expect(f.bedrooms, r.description!).not.toBeNull();
      expect(f.bedrooms!).toBeGreaterThanOrEqual(2);
      expect(f.baths!).toBeGreaterThanOrEqual(2);
    }
    const unfiltered = list(await search({ location: 'Lisbon', maxItems: 60 })).rows;
    expect(wd.length).toBeLessThan(unfiltered.length);
  });

  it('minBeds is accepted and ignored with a filter_ignored warning', async () => {
    const { rows, meta } = list(await search({ ...body, minBeds: 3 }));
    expect(rows.map((r) => r.id)).toEqual(all.map((r) => r.id));
    expect(meta.warnings.map((w) => w.code)).toContain('filter_ignored');
  });

  it('infants do not count towards capacity; children do', async () => {
    const withInfants = list(await search({ ...body, infants: 5 })).rows;
    expect(withInfants.map((r) => r.id)).toEqual(all.map((r) => r.id));
    const withChildren = list(await search({ ...body, adults: 2, children: 3 })).rows;
    for (const r of withChildren) if (r.person_capacity !== null) expect(r.person_capacity).toBeGreaterThanOrEqual(5);
  });

  it("adults above a stay's capacity leave it out", async () => {
    const rows = list(await search({ ...body, adults: 6 })).rows;
    for (const r of rows) if (r.person_capacity !== null) expect(r.person_capacity).toBeGreaterThanOrEqual(6);
  });
});

describe('POST /v1/search/with-details', () => {
  it('the same rows as the search, each enriched like a lookup: description, amenities, availability, reviews', async () => {
    const body = { location: 'Lisbon', maxItems: 8 };
    const plain = list(await search(body)).rows;
    const { rows, meta } = list(await post('/v1/search/with-details', body));
    expect(rows.map((r) => r.id)).toEqual(plain.map((r) => r.id));
    expect(meta.credits_charged).toBe(0);
    for (const [i, r] of rows.entries()) {
      expect(typeof r.description).toBe('string');
      expect(r.availability.length).toBeGreaterThan(0);
      expect(r.amenities.map((g) => g.category)).toEqual(['General']);
      // Still the dated search path: priced like the search row (rule 1), the place from the query (rule 5).
      expect(r.pricing).toEqual(plain[i]!.pricing);
      expect(r.location.city).toBe('Lisbon');
      const looked = expectStay(expectSOk(await sCall(s, `/v1/stays/${r.id}`, { key: a.sandboxKey })).data);
      expect(r.availability).toEqual(looked.availability);
      expect(r.reviews).toEqual(looked.reviews);
      expect(r.amenities).toEqual(looked.amenities);
    }
  });

  it('pages by next_page_token like the search', async () => {
    const body = { location: 'Porto', maxItems: 4 };
    const p1 = list(await post('/v1/search/with-details', body));
    const p2 = list(await post('/v1/search/with-details', { ...body, nextPageToken: p1.meta.next_page_token }));
    const both = list(await post('/v1/search/with-details', { ...body, maxItems: 8 }));
    expect([...p1.rows, ...p2.rows].map((r) => r.id)).toEqual(both.rows.map((r) => r.id));
  });
});

describe('presets (D10: maxItems default 50, capped at 50, always sync)', () => {
  const P = ['/v1/listings/superhost', '/v1/listings/luxury', '/v1/listings/instant-book'];

  it('instant-book: unfiltered, default 50 rows, meta.warning "experimental"', async () => {
    const { rows, meta } = list(await post('/v1/listings/instant-book', { locationQueries: ['Lisbon', 'Porto'] }));
    expect(meta.limit).toBe(50);
    expect(rows).toHaveLength(50);
    expect(meta.warning).toBe('experimental');
    const plain = list(await search({ locationQueries: ['Lisbon', 'Porto'], maxItems: 50 })).rows;
    expect(rows.map((r) => r.id)).toEqual(plain.map((r) => r.id));
    // Only instant-book carries meta.warning.
    expect(list(await search({ location: 'Lisbon', maxItems: 2 })).meta.warning).toBeUndefined();
  });

  it.each(P.map((p) => [p]))('%s: maxItems above 50 is clamped to 50 with a max_items_clamped warning', async (path) => {
    const { rows, meta } = list(await post(path, { locationQueries: PLACES, maxItems: 200 }));
    expect(meta.limit).toBe(50);
    expect(rows.length).toBeLessThanOrEqual(50);
    expect(meta.warnings.map((w) => w.code)).toContain('max_items_clamped');
  });

  it('superhost: every row has host.is_superhost true; the count may be below maxItems', async () => {
    const { rows } = list(await post('/v1/listings/superhost', { location: 'Lisbon' }));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.host.is_superhost)).toBe(true);
    const all = list(await search({ location: 'Lisbon', maxItems: 60 })).rows;
    expect(rows.map((r) => r.id)).toEqual(
      all
        .filter((r) => r.host.is_superhost)
        .map((r) => r.id)
        .slice(0, 50),
    );
  });

  it('luxury: every pricing.price >= max(300, priceMin)', async () => {
    for (const priceMin of [undefined, 100, 450]) {
      const { rows } = list(await post('/v1/listings/luxury', { locationQueries: PLACES, ...(priceMin === undefined ? {} : { priceMin }) }));
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) expect(r.pricing.price!).toBeGreaterThanOrEqual(Math.max(300, priceMin ?? 0));
    }
  });

  it('presets page by next_page_token like the search', async () => {
    const body = { locationQueries: PLACES, maxItems: 20 };
    const p1 = list(await post('/v1/listings/superhost', body));
    expect(p1.meta.has_more).toBe(true);
    const p2 = list(await post('/v1/listings/superhost', { ...body, nextPageToken: p1.meta.next_page_token }));
    expect(p2.rows.length).toBeGreaterThan(0);
    expect(p2.rows.every((r) => r.host.is_superhost)).toBe(true);
    const ids = new Set(p1.rows.map((r) => r.id));
    expect(p2.rows.some((r) => ids.has(r.id))).toBe(false);
    // A superhost token is not a luxury token.
    expectSError(await post('/v1/listings/luxury', { ...body, nextPageToken: p1.meta.next_page_token }), 400, 'invalid_cursor', 'nextPageToken');
  });

  it('luxury with priceMax below the floor → 400 invalid_price_range', async () => {
    expectSError(await post('/v1/listings/luxury', { location: 'Lisbon', priceMax: 200 }), 400, 'invalid_price_range');
  });

  it.each(P.map((p) => [p]))('%s is synchronous for a live key (200 even with maxItems 245)', async (path) => {
    const r = await post(path, { locationQueries: ['Kyiv', 'Lviv', 'Odesa', 'Kharkiv', 'Dnipro', 'Uzhhorod'], maxItems: 245 }, a.liveKey);
    const { meta } = list(r);
    expect(meta.environment).toBe('live');
    expect(meta.limit).toBe(50);
    const r2 = await post(path, { location: `Gdansk`, maxItems: 50 }, a.liveKey);
    expect(list(r2).meta.environment).toBe('live');
  });

  it.each(P.map((p) => [p]))('%s validates like the search: no place → 400 missing_parameter (S envelope)', async (path) => {
    expectSError(await post(path, {}), 400, 'missing_parameter');
    expectRequestId(await post(path, { location: 'Lisbon', maxItems: 1 }));
  });
});
