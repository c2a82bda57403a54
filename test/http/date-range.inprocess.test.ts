// One date type, one range (issue 35, item 7): every endpoint that takes a date refuses one outside
// DATE_MIN..DATE_MAX with a typed 400 invalid_parameter naming the parameter, free, on both key
// kinds. Before, a sandbox /v1/history/bookings window ending on or after 9999-12-01 answered 500
// ("Not a YYYY-MM-DD date: +010000-01") and a year below 100 was read as 19xx.
// The sweep is checked against the OpenAPI document: a date parameter (the date pattern) of any
// route without a case here fails the last test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATE_MAX, DATE_MIN } from '../../src/core/schemas/fields.js';
import { buildOpenApi } from '../../src/http/openapi.js';
import { FAMILY_S_ROUTES } from '../../src/http/routes/s/index.js';
import { FAMILY_U_ROUTES } from '../../src/http/routes/u/index.js';
import { type TestApp, startApp } from '../helpers/app.js';
import { type TestAccount, day } from '../helpers/stays.js';

let t: TestApp;
let a: TestAccount;
beforeAll(async () => {
  t = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0' });
  a = await t.account({ credits: 1_000, rpm: 1_000_000, scopes: 'stays.read,account.read,watches.write' });
});
afterAll(async () => {
  await t?.stop();
});

/** Out of range, each side, and the values that broke: a window's month past 9999, a two-digit year. */
const OUT = ['9999-12-05', '9999-12-31', '2100-01-01', '1999-12-31', '0001-01-01', '0099-06-30'];

const IN = { start: day(30), end: day(33) };
const PAST = { start: day(-40), end: day(-37) };

interface Case {
  /** METHOD path, as the OpenAPI document names the route. */
  route: string;
  /** The parameter as the route names it (query or body). */
  name: string;
  /** The param the error names (a watch names its call's). */
  param?: string;
  /** The request with `v` in the parameter. */
  make(v: string): { path: string; body?: unknown; method?: string };
}

const q = (path: string, o: Record<string, string>) => `${path}?${new URLSearchParams(o)}`;
/** Both dates of a window, the one swept taking `v`. */
const pair = (names: [string, string], which: 0 | 1, v: string, dates = IN) => ({ [names[0]]: which === 0 ? v : dates.start, [names[1]]: which === 1 ? v : dates.end });
const both = (route: string, names: [string, string], make: (d: Record<string, string>) => { path: string; body?: unknown; method?: string }, dates = IN, param?: (n: string) => string): Case[] =>
  ([0, 1] as const).map((i) => ({ route, name: names[i], param: param?.(names[i]), make: (v: string) => make(pair(names, i, v, dates)) }));
const post = (path: string, body: unknown) => ({ path, body, method: 'POST' });

const CASES: Case[] = [
  ...both('GET /v1/search', ['checkIn', 'checkOut'], (d) => ({ path: q('/v1/search', { location: 'Lisbon', ...d }) })),
  ...both('POST /v1/search', ['checkIn', 'checkOut'], (d) => post('/v1/search', { location: 'Lisbon', ...d })),
  // Family S's body of the same route (locationQueries is one of its keys).
  ...both('POST /v1/search', ['checkIn', 'checkOut'], (d) => post('/v1/search', { locationQueries: ['Lisbon'], ...d })),
  ...both('GET /v1/price', ['checkIn', 'checkOut'], (d) => ({ path: q('/v1/price', { platform: 'airbnb', listingId: '1', ...d }) })),
  ...both('GET /v1/price-compare', ['checkIn', 'checkOut'], (d) => ({ path: q('/v1/price-compare', { listings: 'airbnb:1,vrbo:2', ...d }) })),
  ...both('GET /v1/availability', ['startDate', 'endDate'], (d) => ({ path: q('/v1/availability', { platform: 'airbnb', listingIds: '1', ...d }) })),
  ...both('GET /v1/listing/{platform}/{id}', ['checkIn', 'checkOut'], (d) => ({ path: q('/v1/listing/airbnb/1', d) })),
  ...both('GET /v1/history/price', ['checkIn', 'checkOut'], (d) => ({ path: q('/v1/history/price', { platform: 'airbnb', listingId: '1', ...d }) }), PAST),
  ...both('GET /v1/history/price', ['from', 'to'], (d) => ({ path: q('/v1/history/price', { platform: 'airbnb', listingId: '1', checkIn: IN.start, checkOut: IN.end, ...d }) }), PAST),
  ...both('GET /v1/history/availability', ['startDate', 'endDate'], (d) => ({ path: q('/v1/history/availability', { platform: 'airbnb', listingId: '1', ...d }) }), PAST),
  ...both('GET /v1/history/availability', ['from', 'to'], (d) => ({ path: q('/v1/history/availability', { platform: 'airbnb', listingId: '1', startDate: IN.start, endDate: IN.end, ...d }) }), PAST),
  ...both('GET /v1/history/listings', ['from', 'to'], (d) => ({ path: q('/v1/history/listings', { location: 'Lisbon', ...d }) }), PAST),
  { route: 'GET /v1/history/observations', name: 'since', make: (v) => ({ path: q('/v1/history/observations', { since: v }) }) },
  ...both('GET /v1/history/bookings', ['from', 'to'], (d) => ({ path: q('/v1/history/bookings', { platform: 'airbnb', listingId: '1', ...d }) }), PAST),
  ...both('GET /v1/market', ['from', 'to'], (d) => ({ path: q('/v1/market', { location: 'Lisbon', ...d }) })),
  ...both('GET /v1/stays/by-url', ['checkIn', 'checkOut'], (d) => ({ path: q('/v1/stays/by-url', { url: 'https://www.airbnb.com/rooms/1', ...d }) })),
  ...both('GET /v1/stays/{id}', ['checkIn', 'checkOut'], (d) => ({ path: q('/v1/stays/stays_airbnb_1', d) })),
  ...both('GET /v1/stays/{id}/pricing', ['checkIn', 'checkOut'], (d) => ({ path: q('/v1/stays/stays_airbnb_1/pricing', d) })),
  ...['/v1/search/with-details', '/v1/listings/superhost', '/v1/listings/luxury', '/v1/listings/instant-book'].flatMap((path) =>
    both(`POST ${path}`, ['checkIn', 'checkOut'], (d) => post(path, { location: 'Lisbon', ...d })),
  ),
  // A watch's call: the dates of the call it would make, named as the body names them.
  ...both(
    'POST /v1/watches',
    ['checkIn', 'checkOut'],
    (d) => post('/v1/watches', { call: { type: 'price', params: { platform: 'airbnb', listingId: '1', ...d } }, rules: [{ type: 'price_below', amount: 50 }] }),
    IN,
    (n) => `call.params.${n}`,
  ),
  ...both(
    'POST /v1/watches',
    ['startDate', 'endDate'],
    (d) => post('/v1/watches', { call: { type: 'availability', params: { platform: 'airbnb', listingId: '1', ...d } }, rules: [{ type: 'nights_available', nights: 1 }] }),
    IN,
    (n) => `call.params.${n}`,
  ),
  ...both(
    'POST /v1/watches',
    ['checkIn', 'checkOut'],
    (d) => post('/v1/watches', { call: { type: 'search', params: { location: 'Lisbon', ...d } }, rules: [{ type: 'new_listings' }] }),
    IN,
    (n) => `call.params.${n}`,
  ),
];

describe(`dates outside ${DATE_MIN}..${DATE_MAX}`, () => {
  it.each(CASES.map((c) => [`${c.route} ${c.param ?? c.name}`, c] as const))('%s: 400 invalid_parameter naming it, free, on both keys', async (_, c) => {
    for (const key of [a.sandboxKey, a.liveKey]) {
      for (const v of OUT) {
        const r = c.make(v);
        const res = await t.req(r.path, {
          method: r.method ?? 'GET',
          key,
          headers: r.body === undefined ? {} : { 'content-type': 'application/json' },
          body: r.body === undefined ? undefined : JSON.stringify(r.body),
        });
        const text = await res.text();
        const where = `${r.method ?? 'GET'} ${r.path} ${r.body ? JSON.stringify(r.body) : ''} (${key === a.liveKey ? 'live' : 'sandbox'}) → ${text.slice(0, 300)}`;
        expect(res.status, where).toBe(400);
        const error = (JSON.parse(text) as { error: { type: string; code: string; param: string; creditsCharged: number; message: string } }).error;
        expect(error, where).toMatchObject({ type: 'invalid_request', code: 'invalid_parameter', param: c.param ?? c.name, creditsCharged: 0 });
        expect(error.message, where).toContain(`${DATE_MIN} to ${DATE_MAX}`);
      }
    }
  });

  it('the edges of the range are taken', async () => {
    // A past night is fine for the history: the first and the last day of the range are dates it takes.
    for (const [from, to] of [
      [DATE_MIN, '2000-01-05'],
      ['2099-12-01', DATE_MAX],
    ]) {
      const res = await t.req(q('/v1/history/bookings', { platform: 'airbnb', listingId: '1', from: from!, to: to! }), { key: a.sandboxKey });
      expect(res.status, await res.clone().text()).toBe(200);
      expect(((await res.json()) as { data: { nights: { date: string }[] } }).data.nights[0]!.date).toBe(from);
    }
  });

  it('nothing was charged', async () => {
    const acct = (await (await t.req('/v1/account', { key: a.liveKey })).json()) as { data: { credits: { balance: number; held: number } } };
    expect(acct.data.credits).toMatchObject({ balance: 1_000, held: 0 });
  });

  it('every date parameter of every route in the OpenAPI document has a case here', () => {
    const doc = buildOpenApi([...FAMILY_U_ROUTES, ...FAMILY_S_ROUTES]) as unknown as {
      paths: Record<string, Record<string, { parameters?: { name: string; schema?: { pattern?: string } }[]; requestBody?: { content?: Record<string, { schema?: unknown }> } }>>;
      components?: { schemas?: Record<string, unknown> };
    };
    const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
    type S = { $ref?: string; pattern?: string; properties?: Record<string, S>; anyOf?: S[]; oneOf?: S[]; allOf?: S[] };
    const names = (s: S | undefined, out: Set<string>, depth = 0): Set<string> => {
      if (!s || depth > 6) return out;
      const r = s.$ref ? (doc.components?.schemas?.[s.$ref.split('/').pop()!] as S) : s;
      for (const [k, v] of Object.entries(r?.properties ?? {})) {
        if (v.pattern === DATE_PATTERN) out.add(k);
        names(v, out, depth + 1);
      }
      for (const x of [...(r?.anyOf ?? []), ...(r?.oneOf ?? []), ...(r?.allOf ?? [])]) names(x, out, depth + 1);
      return out;
    };
    const covered = new Set(CASES.map((c) => `${c.route} ${c.name}`));
    const missing: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const route = `${method.toUpperCase()} ${path}`;
        const found = new Set((op.parameters ?? []).filter((p) => p.schema?.pattern === DATE_PATTERN).map((p) => p.name));
        names(op.requestBody?.content?.['application/json']?.schema as S | undefined, found);
        for (const n of found) if (!covered.has(`${route} ${n}`)) missing.push(`${route} ${n}`);
      }
    }
    expect(missing).toEqual([]);
    // The document was read: it names date parameters (else the check above proves nothing).
    expect(covered.size).toBeGreaterThan(20);
  });
});
