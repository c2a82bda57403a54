// Hostile input at volume (issue 8): generated requests over real HTTP on loopback against
// `stays serve`, covering nesting depth, sizes and control characters. Where the bounds decide the
// answer the test asserts it exactly (400 invalid_parameter naming the body or the parameter);
// everywhere else: no 5xx, every body JSON, every error the typed envelope, nothing charged.
// Raw malformed HTTP is in hostile-raw.test.ts; together they make the figure in docs/benchmarks.md.
import { Agent, request } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '../../src/core/schemas/resources.js';
import { type Stays, type TestAccount, day, startStays } from '../helpers/stays.js';

let s: Stays;
let a: TestAccount;
beforeAll(async () => {
  s = await startStays({ STAYS_ANON_RPM: '100000000' });
  // A free plan cannot top up, whatever a generated body says; live keys only send requests the
  // bounds refuse, so nothing here may cost a credit.
  a = await s.account({ plan: 'free', rpm: 100_000_000, credits: 100 });
});
afterAll(async () => {
  await s.stop();
});

/** The documented bounds (docs/decisions.md), restated so a change to them is a reviewed diff. */
const DEPTH = 32;
const VALUES = 10_000;
const STRING = 8_192;
const BATCH = 20;

let requests = 0;

interface Sent {
  path: string;
  init?: RequestInit & { key?: string };
  /** The answer the bounds dictate, when they do. */
  expect?: { code: string; param: string };
}

// node:http with a keep-alive pool rather than fetch: on a busy 2-core machine fetch's own cost
// per request was several times the server's.
const agent = new Agent({ keepAlive: true, maxSockets: BATCH });
afterAll(() => agent.destroy());

function send(r: Sent): Promise<{ status: number; requestId: string | undefined; text: string }> {
  const url = new URL(s.url);
  const body = r.init?.body === undefined ? undefined : Buffer.from(String(r.init.body));
  const headers: Record<string, string | number> = { ...(r.init?.headers as Record<string, string> | undefined) };
  if (r.init?.key !== undefined) headers.authorization = `Bearer ${r.init.key}`;
  if (body) headers['content-length'] = body.length;
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: r.path, method: r.init?.method ?? 'GET', headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode!, requestId: res.headers['x-request-id'] as string | undefined, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function run(r: Sent): Promise<void> {
  requests++;
  const res = await send(r);
  const text = res.text;
  const where = `${r.init?.method ?? 'GET'} ${r.path.slice(0, 200)} ${String(r.init?.body ?? '').slice(0, 200)} → ${res.status} ${text.slice(0, 300)}`;
  expect(res.status, where).toBeLessThan(500);
  let body: unknown;
  expect(() => (body = JSON.parse(text)), `not JSON: ${where}`).not.toThrow();
  if (res.status >= 400) {
    const e = ErrorEnvelopeSchema.parse(body).error;
    expect(e.requestId, where).toBe(res.requestId);
    expect(e.creditsCharged).toBe(0);
  } else {
    expect((body as { meta?: { creditsCharged?: number } }).meta?.creditsCharged ?? 0, where).toBe(0);
  }
  if (r.expect) {
    expect(res.status, where).toBe(400);
    expect((body as { error: { code: string; param: string } }).error, where).toMatchObject(r.expect);
  }
}

/**
 * Generators yield small specs (so a counterexample prints short) that build() turns into the
 * request, megabyte bodies included. Batches of BATCH run concurrently, numRuns times.
 */
async function volley<T>(gen: fc.Arbitrary<T>, build: (spec: T) => Sent, numRuns: number): Promise<void> {
  const before = requests;
  await fc.assert(
    fc.asyncProperty(fc.array(gen, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
      await Promise.all(batch.map((spec) => run(build(spec))));
    }),
    { numRuns },
  );
  expect(requests - before).toBe(BATCH * numRuns);
}

const post = (_path: string, body: string, key: string): Sent['init'] & {} => ({ method: 'POST', key, body, headers: { 'content-type': 'application/json' } });
const keyOf = (live: boolean) => (live ? a.liveKey : a.sandboxKey);
const refused = (path: string, body: string, live: boolean): Sent => ({ path, init: post(path, body, keyOf(live)), expect: { code: 'invalid_parameter', param: 'body' } });
/** Within the bounds: sandbox only, since a valid live call would be billed. */
const allowed = (path: string, body: string): Sent => ({ path, init: post(path, body, a.sandboxKey) });

// Family S keys (maxItems, locationQueries…) are left out: within the bounds they answer 501
// not_implemented by design (D8) until Family S lands.
const FIELDS = [
  'location',
  'sort',
  'limit',
  'platforms',
  'platform',
  'childAges',
  'cursor',
  'currency',
  'checkIn',
  'priceMin',
  'amenities',
  'propertyType',
  'credits',
  'unknown',
  '__proto__',
  'constructor',
  '',
];
const field = fc.constantFrom(...FIELDS);
const LEAVES = ['"x"', '1', 'null', 'true', '"price_asc"', '{}', '[]'];
const leaf = fc.constantFrom(...LEAVES);

// ---- Depth -------------------------------------------------------------------------------------

const OPEN: Record<string, string> = { obj: '{"a":', arr: '[', key: '{"":', pre: '[1,' };
const CLOSE: Record<string, string> = { obj: '}', arr: ']', key: '}', pre: ']' };
const deep = fc.record({
  route: fc.constantFrom('/v1/search', '/v1/search', '/v1/billing/topups'),
  field,
  levels: fc.oneof(
    { weight: 39, arbitrary: fc.array(fc.constantFrom('obj', 'arr', 'key', 'pre'), { maxLength: 45 }) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('obj', 'arr'), fc.constantFrom(100, 6_000, 50_000)).map(([unit, n]) => ({ unit, n })) },
  ),
  leaf,
  live: fc.boolean(),
});
const buildDeep = (r: typeof deep extends fc.Arbitrary<infer T> ? T : never): Sent => {
  const levels = Array.isArray(r.levels) ? r.levels : Array<string>(r.levels.n).fill(r.levels.unit);
  const inner =
    levels.map((l) => OPEN[l]).join('') +
    r.leaf +
    [...levels]
      .reverse()
      .map((l) => CLOSE[l])
      .join('');
  const body = `{"location":"Lisbon",${JSON.stringify(r.field)}:${inner}}`;
  // The body object is level 1; an empty {} or [] leaf is one more.
  const depth = 1 + levels.length + (r.leaf === '{}' || r.leaf === '[]' ? 1 : 0);
  if (depth <= DEPTH) return allowed(r.route, body);
  // Top-ups check the key's scope too; only search is certain to answer with the bounds.
  return r.route === '/v1/search' ? refused(r.route, body, r.live) : { path: r.route, init: post(r.route, body, keyOf(r.live)) };
};

// ---- Sizes -------------------------------------------------------------------------------------

const longString = fc.record({
  kind: fc.constant('long' as const),
  field,
  len: fc.oneof(fc.nat(3_000), fc.integer({ min: STRING - 5, max: STRING + 5 }), fc.integer({ min: 8_000, max: 20_000 })),
  inKey: fc.boolean(),
  live: fc.boolean(),
});
const manyValues = fc.record({
  kind: fc.constant('many' as const),
  field,
  items: fc.oneof(fc.nat(200), fc.integer({ min: VALUES - 20, max: VALUES + 20 }), fc.nat(30_000)),
  keys: fc.oneof(fc.nat(20), fc.nat(6_000)),
  live: fc.boolean(),
});
const QUERY_PARAMS = ['location', 'platforms', 'platforms[]', 'childAges', 'amenities', 'listingIds', 'listings', 'cursor', 'sort', 'x'];
const bigQuery = fc.record({
  kind: fc.constant('query' as const),
  route: fc.constantFrom('/v1/search', '/v1/reviews', '/v1/availability', '/v1/price-compare', '/v1/listing/airbnb/1'),
  repeat: fc.oneof(fc.nat(20), fc.nat(2_000)),
  name: fc.constantFrom(...QUERY_PARAMS),
  value: fc.oneof(fc.constantFrom('airbnb', '1', 'a,b,c', ','), fc.nat(20_000)),
});
const hugeBody = fc.record({ kind: fc.constant('huge' as const), size: fc.integer({ min: 1024 * 1024 - 64, max: 1024 * 1024 + 64 }) });
const sizes = fc.oneof({ weight: 12, arbitrary: longString }, { weight: 12, arbitrary: manyValues }, { weight: 12, arbitrary: bigQuery }, { weight: 1, arbitrary: hugeBody });

function buildSize(r: typeof sizes extends fc.Arbitrary<infer T> ? T : never): Sent {
  switch (r.kind) {
    case 'long': {
      const big = 'x'.repeat(r.len);
      const body = JSON.stringify(Object.fromEntries([['location', 'Lisbon'], r.inKey ? [big, 1] : [r.field, big]]));
      return r.len > STRING ? refused('/v1/search', body, r.live) : allowed('/v1/search', body);
    }
    case 'many': {
      // fromEntries, so that a "__proto__" key is a key like any other.
      const entries: [string, unknown][] = [['location', 'Lisbon'], ...Array.from({ length: r.keys }, (_, i): [string, unknown] => [`k${i}`, 1]), [r.field, Array<number>(r.items).fill(1)]];
      const obj = Object.fromEntries(entries);
      // Values: the body object, each key and its value, each item.
      const values = 1 + 2 * Object.keys(obj).length + (obj[r.field] as unknown[]).length;
      return values > VALUES ? refused('/v1/search', JSON.stringify(obj), r.live) : allowed('/v1/search', JSON.stringify(obj));
    }
    case 'query': {
      const sp = new URLSearchParams({ location: 'Lisbon', platform: 'airbnb', listingId: '1' });
      const value = typeof r.value === 'number' ? 'v'.repeat(r.value) : r.value;
      // Past ~60 KB the URL alone is over Node's 16 KiB header limit (431) either way.
      const repeat = Math.min(r.repeat, Math.ceil(60_000 / (r.name.length + value.length + 2)));
      for (let i = 0; i < repeat; i++) sp.append(r.name, value);
      return { path: `${r.route}?${sp.toString()}`, init: { key: a.sandboxKey } };
    }
    case 'huge':
      return allowed('/v1/search', JSON.stringify({ location: 'Lisbon', pad: 'p'.repeat(r.size - 32) }));
  }
}

// ---- Control characters ------------------------------------------------------------------------

const word = fc.stringMatching(/^[A-Za-z0-9]{1,8}$/);
const control = fc.oneof(fc.integer({ min: 0, max: 0x1f }), fc.constant(0x7f)).map((c) => String.fromCharCode(c));
/** Text with a control character inside (edges are trimmed, so it sits between words), or a bare one that trimming keeps. */
const dirty = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(word, control, word).map(([x, c, y]) => `${x}${c}${y}`) },
  { weight: 1, arbitrary: fc.constantFrom('\u0000', '\u0001', '\u001b', '\u001f', '\u007f') },
);
const enc = encodeURIComponent;
const stay = () => `checkIn=${day(30)}&checkOut=${day(33)}`;
const window = () => `startDate=${day(1)}&endDate=${day(5)}`;
const CONTROL_CASES: [param: string, path: (v: string) => string][] = [
  ['location', (v) => `/v1/search?location=${enc(v)}`],
  ['cursor', (v) => `/v1/search?location=Lisbon&cursor=${enc(v)}`],
  ['listingId', (v) => `/v1/reviews?platform=airbnb&listingId=${enc(v)}`],
  ['url', (v) => `/v1/reviews?platform=booking&url=${enc(`https://www.booking.com/hotel/pt/${v}.html`)}`],
  ['listingId', (v) => `/v1/price?platform=vrbo&listingId=${enc(v)}&${stay()}`],
  ['name', (v) => `/v1/price-compare?name=${enc(v)}&location=Lisbon&${stay()}`],
  ['googleHotelId', (v) => `/v1/price-compare?googleHotelId=${enc(v)}&${stay()}`],
  ['location', (v) => `/v1/price-compare?name=Aurora&location=${enc(v)}&${stay()}`],
  ['listings', (v) => `/v1/price-compare?listings=airbnb:1,${enc(`booking:pt/${v}`)}&${stay()}`],
  ['listingId', (v) => `/v1/availability?platform=vrbo&listingId=${enc(v)}&${window()}`],
  ['listingIds', (v) => `/v1/availability?platform=vrbo&listingIds=1,${enc(v)}&${window()}`],
  ['url', (v) => `/v1/availability?platform=airbnb&url=${enc(`https://www.airbnb.com/rooms/${v}`)}&${window()}`],
  ['id', (v) => `/v1/listing/airbnb/${enc(v)}`],
];
const controlChars = fc.record({ c: fc.nat(CONTROL_CASES.length + 1), v: dirty, live: fc.boolean() });
function buildControl(r: typeof controlChars extends fc.Arbitrary<infer T> ? T : never): Sent {
  const expected = (param: string) => ({ code: 'invalid_parameter', param });
  if (r.c >= CONTROL_CASES.length) {
    const param = r.c === CONTROL_CASES.length ? 'location' : 'cursor';
    const body = JSON.stringify(param === 'location' ? { location: r.v } : { location: 'Lisbon', cursor: r.v });
    return { path: '/v1/search', init: post('/v1/search', body, keyOf(r.live)), expect: expected(param) };
  }
  const [param, path] = CONTROL_CASES[r.c]!;
  return { path: path(r.v), init: { key: keyOf(r.live) }, expect: expected(param) };
}

// ---- Anything --------------------------------------------------------------------------------

const hostileText = fc.oneof(fc.string(), fc.string({ unit: 'binary', maxLength: 20 }), dirty, fc.constantFrom('', '%00', '\uD800', '1e309', 'NaN', '-1', 'airbnb', 'Lisbon', day(3)));
const anything = fc.oneof(
  fc.record({
    route: fc.constantFrom('/v1/search', '/v1/reviews', '/v1/price', '/v1/price-compare', '/v1/availability', '/v1/account', '/v1/listing/vrbo/1'),
    q: fc.array(fc.tuple(fc.constantFrom(...FIELDS, ...QUERY_PARAMS, 'listingId', 'platform', 'url', 'name', 'startDate', 'endDate'), hostileText), { maxLength: 8 }),
  }),
  fc.record({
    entries: fc.array(
      fc.tuple(
        field,
        fc.oneof(
          hostileText.map((t) => JSON.stringify(t)),
          leaf,
        ),
      ),
      { maxLength: 6 },
    ),
    raw: fc.oneof(fc.constant(''), fc.string({ maxLength: 30 })),
  }),
);
function buildAnything(r: typeof anything extends fc.Arbitrary<infer T> ? T : never): Sent {
  if ('route' in r) return { path: `${r.route}?${new URLSearchParams(r.q).toString()}`, init: { key: a.sandboxKey } };
  const body = r.raw === '' ? `{${r.entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}` : r.raw;
  return allowed('/v1/search', body);
}

describe('hostile input at volume', () => {
  it('nesting depth: 2,000 bodies up to 50,000 levels deep', () => volley(deep, buildDeep, 100), 120_000);
  it('sizes: 2,000 long strings, many values, long query strings and bodies at the 1 MiB limit', () => volley(sizes, buildSize, 100), 120_000);
  it('control characters: 2,000 requests, each text parameter of every route', () => volley(controlChars, buildControl, 100), 120_000);
  it('anything: 1,500 random query strings and bodies', () => volley(anything, buildAnything, 75), 120_000);

  it('nothing was charged', async () => {
    const acct = (await (await s.req('/v1/account', { key: a.liveKey })).json()) as { data: { credits: { balance: number; held: number } } };
    expect(acct.data.credits).toMatchObject({ balance: 100, held: 0 });
    expect(requests).toBe(7_500);
    console.info(`hostile: ${requests} generated requests, 0 answered 5xx or non-JSON`);
  });
});
