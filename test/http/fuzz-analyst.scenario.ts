// Property test of the analyst endpoints (issue 35, acceptance): random and hostile queries and
// bodies at /v1/history/*, /v1/market, /v1/matches and its decisions, /v1/compsets, /v1/watches,
// /v1/watches/run and /v1/collections (issue 38), with sandbox and live keys, on a store that live calls on the simulated
// upstream filled first. No answer is a 5xx, every refusal is a typed Error with creditsCharged 0,
// and every answer is JSON. Values are mostly plausible (known listings, dates near today, ids of
// the comp sets and watches the run made) so requests reach past validation into the operations
// and the store; the rest hostile. Seeded: a failure names its seed and shrunk request, and the
// same seed replays it. At least 2,000 requests per store. Run by fuzz-analyst.inprocess.test.ts
// (SQLite) and fuzz-analyst.pg.test.ts (PostgreSQL).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '../../src/core/schemas/resources.js';
import { type TestApp, startApp } from '../helpers/app.js';
import { type TestAccount, day } from '../helpers/stays.js';

/** Requests per store the acceptance asks for. */
const MIN_REQUESTS = 2_000;
/**
 * Each property's bound: alone one takes 1 to 15 s (the market's reads the most); in `npm test`,
 * beside three other workers on a 2-core box, the market's took over 30 s. Generous, so a busy
 * machine never fails it; a hang still does.
 */
const PROPERTY_TIMEOUT_MS = 180_000;
/** fast-check's seed: fixed, so a run is the same run on every machine (STAYS_FUZZ_SEED tries another). */
const SEED = Number(process.env.STAYS_FUZZ_SEED ?? 35_000);

const hostile = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    '%',
    '%00',
    '\u0000',
    '\u202e',
    '\uD800',
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
    '9999-12-31',
    '0001-01-01',
    '2026-02-30',
    '2027-01-01T25:00:00Z',
    'x'.repeat(5000),
    '../../etc/passwd',
    "' OR 1=1 --",
    '__proto__',
  ),
  fc.integer().map(String),
  fc.double().map(String),
);

const instantNear = fc.tuple(fc.integer({ min: -420, max: 30 }), fc.constantFrom('', 'T06:00:00Z', 'T23:59:59.999+02:00', 'T00:00Z')).map(([n, t]) => `${day(n)}${t}`);

export function fuzzAnalystSuite(title: string, store: () => Promise<{ env: NodeJS.ProcessEnv; drop?: () => Promise<void> }>, skip = false): void {
  describe.skipIf(skip)(title, () => {
    let t: TestApp;
    let a: TestAccount;
    let drop: (() => Promise<void>) | undefined;
    let requests = 0;
    /** Listings the live calls observed (platform, id), and the sandbox's own. */
    const listings: [string, string][] = [
      ['airbnb', '100'],
      ['airbnb', '12345'],
      ['vrbo', '4886746'],
      ['booking', 'pt/casa-azul'],
      ['airbnb', '404'],
    ];
    const made = { compsets: ['cs_nope'], watches: ['wat_nope'], collections: ['col_nope'] };

    beforeAll(async () => {
      const s = await store();
      drop = s.drop;
      t = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0', STAYS_SIM_FAIL: '', ...s.env });
      a = await t.account({ credits: 10_000_000, rpm: 100_000_000, scopes: 'stays.read,account.read,watches.write,collections.write' });
      // What the live endpoints read: a few live calls' observations (searches, a quote, a calendar).
      for (const location of ['Lisbon', 'Porto']) {
        const res = await t.req(`/v1/search?${new URLSearchParams({ location, limit: '20', checkIn: day(20), checkOut: day(23) })}`, { key: a.liveKey, headers: { prefer: 'wait=30' } });
        const body = (await res.json()) as { data?: { platform: string; platformListingId: string }[] };
        expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
        for (const row of body.data ?? []) listings.push([row.platform, row.platformListingId]);
      }
      const [p, id] = listings.at(-1)!;
      await (await t.req(`/v1/price?${new URLSearchParams({ platform: p, listingId: id, checkIn: day(20), checkOut: day(23) })}`, { key: a.liveKey, headers: { prefer: 'wait=30' } })).text();
      await (
        await t.req(`/v1/availability?${new URLSearchParams({ platform: 'airbnb', listingIds: listings.find(([x]) => x === 'airbnb')![1], startDate: day(2), endDate: day(40) })}`, {
          key: a.liveKey,
          headers: { prefer: 'wait=30' },
        })
      ).text();
    }, 120_000);
    afterAll(async () => {
      await t?.stop();
      await drop?.();
    });

    // `listings` grows in beforeAll: read it when a value is drawn, not when the arbitrary is built.
    const known = () => fc.integer({ min: 0, max: 1_000 }).map((i) => listings[i % listings.length]!);
    const listingRef = fc.oneof(
      known().map(([p, id]) => `${p}:${id}`),
      known().map(([p, id]) => `stays_${p}_${id}`),
      known().map(([, id]) => `https://www.airbnb.com/rooms/${id}`),
    );
    const createdId = (kind: 'compsets' | 'watches' | 'collections') => fc.integer({ min: 0, max: 1_000 }).map((i) => made[kind][i % made[kind].length]!);
    const pathId = (kind: 'compsets' | 'watches' | 'collections') =>
      fc.oneof({ arbitrary: createdId(kind), weight: 4 }, { arbitrary: hostile.map((x) => x.replace(/[\uD800-\uDFFF]/gu, '\uFFFD')), weight: 1 }).map((x) => encodeURIComponent(x) || 'x');

    type Params = Record<string, unknown>;
    /** A window of dates: `past` reads start up to 420 days back; its length 1 to `max` nights. */
    const window = (a: string, b: string, o: { past?: boolean; max?: number } = {}) =>
      fc.oneof(
        {
          arbitrary: fc.tuple(fc.integer({ min: o.past ? -420 : 1, max: o.past ? 30 : 400 }), fc.integer({ min: 1, max: o.max ?? 30 })).map(([n, k]) => ({ [a]: day(n), [b]: day(n + k) })),
          weight: 9,
        },
        // A window at the edges of the dates the service takes, and past them (the 500 of issue 35, item 7).
        {
          arbitrary: fc
            .tuple(fc.constantFrom('9999-11-20', '0001-01-01', '0099-12-20', '1999-12-20', '2099-12-20', '2000-01-01'), fc.integer({ min: 1, max: o.max ?? 30 }))
            .map(([d, k]) => ({ [a]: d, [b]: new Date(Date.parse(`${d}T00:00:00Z`) + k * 86_400_000).toISOString().slice(0, 10) })),
          weight: 1,
        },
      );
    const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
    const pair = known().map(([platform, listingId]) => ({ platform, listingId }));
    const pageOf = fc.record({ from: opt(instantNear), limit: opt(fc.constantFrom(1, 2, 50, 1000)) }).map((o) => ({ ...o, to: o.from === undefined ? undefined : day(0) }));
    const merge = (...parts: fc.Arbitrary<Params>[]) => fc.tuple(...parts).map((xs) => Object.assign({}, ...xs) as Params);

    /**
     * A plausible request's parameters, then (two times in five) one to three of them replaced by
     * a hostile value, removed, or a stray one added: the first reach the operations and the
     * store, the others their validation.
     */
    const mutate = (base: fc.Arbitrary<Params>, keys: string[]) =>
      fc
        .tuple(
          base,
          fc.option(
            fc.array(fc.tuple(fc.constantFrom(...keys, 'stray', '__proto__'), fc.option(fc.oneof(hostile, fc.integer(), fc.constant(null)), { nil: undefined })), { minLength: 1, maxLength: 3 }),
            { freq: 3 },
          ),
        )
        .map(([o, changes]) => {
          const out: Params = { ...o };
          for (const [k, v] of changes ?? []) {
            if (v === undefined) delete out[k];
            else out[k] = v;
          }
          return out;
        });
    const toQuery = (o: Params) => {
      const sp = new URLSearchParams();
      for (const [k, v] of Object.entries(o)) if (v !== undefined) sp.append(k, Array.isArray(v) ? v.join(',') : String(v));
      return sp.toString();
    };

    type Call = { method: string; path: string; body?: string };
    const get = (path: string, base: fc.Arbitrary<Params>, keys: string[]): fc.Arbitrary<Call> => mutate(base, keys).map((o) => ({ method: 'GET', path: `${path}?${toQuery(o)}` }));
    const postJson = (path: string, base: fc.Arbitrary<Params>, keys: string[]): fc.Arbitrary<Call> =>
      fc.oneof(
        { arbitrary: mutate(base, keys).map((o) => ({ method: 'POST', path, body: JSON.stringify(o) })), weight: 8 },
        { arbitrary: fc.oneof(fc.json(), fc.string()).map((b) => ({ method: 'POST', path, body: b })), weight: 1 },
      );

    async function send(c: Call, live: boolean): Promise<void> {
      requests++;
      const res = await t.req(c.path, {
        method: c.method,
        key: live ? a.liveKey : a.sandboxKey,
        ...(c.body === undefined ? {} : { body: c.body, headers: { 'content-type': 'application/json' } }),
      });
      const text = await res.text();
      const where = `${c.method} ${c.path.slice(0, 300)} ${(c.body ?? '').slice(0, 300)} (${live ? 'live' : 'sandbox'}) → ${res.status} ${text.slice(0, 300)}`;
      if (res.status < 300) answered.add(`${c.method} ${c.path.split('?')[0]!.replace(/^(\/v1\/(?:compsets|watches|collections))\/(?!run$)[^/]+/, '$1/ID')}`);
      expect(res.status, where).toBeLessThan(500);
      if (res.status === 204) return;
      let body: unknown;
      expect(() => (body = JSON.parse(text)), where).not.toThrow();
      if (res.status >= 400) {
        const parsed = ErrorEnvelopeSchema.safeParse(body);
        expect(parsed.success, where).toBe(true);
        expect(parsed.data!.error.creditsCharged, where).toBe(0);
        return;
      }
      // What the run made, so later requests read, use and delete it.
      const id = (body as { data?: { id?: unknown } }).data?.id;
      if (c.method === 'POST' && res.status === 201 && typeof id === 'string') {
        if (c.path.startsWith('/v1/compsets')) made.compsets.push(id);
        if (c.path.startsWith('/v1/watches')) made.watches.push(id);
        if (c.path.startsWith('/v1/collections')) made.collections.push(id);
      }
    }
    /** The routes (METHOD path, ids as ID) that answered a 2xx at least once. */
    const answered = new Set<string>();

    const run = (calls: fc.Arbitrary<Call>, numRuns: number) =>
      fc.assert(
        fc.asyncProperty(calls, fc.boolean(), (c, live) => send(c, live)),
        { numRuns, seed: SEED, endOnFailure: true },
      );

    it(
      'the history reads',
      async () => {
        const LOCATION = fc.constantFrom('Lisbon', 'Porto', 'lisbon', ' Lisbon ', 'Kyoto', 'Nowhere at all');
        await run(
          fc.oneof(
            get('/v1/history/price', merge(pair, window('checkIn', 'checkOut', { past: true, max: 10 }), fc.record({ adults: opt(fc.integer({ min: 1, max: 6 })) }), pageOf), [
              'platform',
              'listingId',
              'checkIn',
              'checkOut',
              'adults',
              'from',
              'to',
              'limit',
              'cursor',
              'country',
            ]),
            get('/v1/history/availability', merge(pair, window('startDate', 'endDate', { past: true, max: 60 }), pageOf), [
              'platform',
              'listingId',
              'startDate',
              'endDate',
              'from',
              'to',
              'limit',
              'cursor',
            ]),
            get('/v1/history/listings', merge(fc.record({ location: LOCATION, platforms: opt(fc.constantFrom('airbnb', 'airbnb,vrbo')) }), pageOf), [
              'location',
              'platforms',
              'from',
              'to',
              'limit',
              'cursor',
            ]),
            get('/v1/history/observations', fc.record({ since: instantNear, limit: opt(fc.constantFrom(1, 50, 1000)) }), ['since', 'limit', 'cursor']),
            get('/v1/history/bookings', merge(pair, window('from', 'to', { past: true, max: 120 })), ['platform', 'listingId', 'from', 'to', 'country']),
          ),
          650,
        );
      },
      PROPERTY_TIMEOUT_MS,
    );

    it(
      'comp sets',
      async () => {
        const body = fc.record({
          name: fc.constantFrom('Alfama 2br', 'comp', 'Porto riverside'),
          near: listingRef,
          radiusMeters: fc.integer({ min: 50, max: 20_000 }),
          bedrooms: opt(fc.integer({ min: 0, max: 5 })),
          platforms: opt(fc.constantFrom(['airbnb'], ['airbnb', 'vrbo'], ['booking', 'google'])),
        });
        await run(
          fc.oneof(
            postJson('/v1/compsets', body, ['name', 'near', 'radiusMeters', 'bedrooms', 'platforms']),
            get('/v1/compsets', fc.record({ limit: opt(fc.constantFrom(1, 10, 100)) }), ['limit']),
            pathId('compsets').map((id) => ({ method: 'GET', path: `/v1/compsets/${id}` })),
            pathId('compsets').map((id) => ({ method: 'DELETE', path: `/v1/compsets/${id}` })),
          ),
          350,
        );
      },
      PROPERTY_TIMEOUT_MS,
    );

    it(
      'market',
      async () => {
        const scope = fc.oneof(
          fc.record({ location: fc.constantFrom('Lisbon', 'Porto', 'lisbon', 'Kyoto') }),
          fc.record({ bbox: fc.constantFrom('-9.3,38.6,-9.0,38.8', '-8.8,41.0,-8.4,41.3', '0,0,0.1,0.1', '-10,36,-6,42') }),
          fc.record({ compSet: createdId('compsets') }),
        );
        const rest = fc.record({
          platforms: opt(fc.constantFrom('airbnb', 'airbnb,vrbo', 'booking,google')),
          bedrooms: opt(fc.integer({ min: 0, max: 4 })),
          interval: opt(fc.constantFrom('week', 'month')),
        });
        await run(get('/v1/market', merge(scope, window('from', 'to', { past: true, max: 90 }), rest), ['location', 'bbox', 'compSet', 'from', 'to', 'platforms', 'bedrooms', 'interval']), 250);
      },
      PROPERTY_TIMEOUT_MS,
    );

    it(
      'matches and their decisions',
      async () => {
        await run(
          fc.oneof(
            get('/v1/matches', merge(pair, fc.record({ platforms: opt(fc.constantFrom('booking', 'vrbo,google')), threshold: opt(fc.constantFrom(0, 0.5, 0.8, 1)) })), [
              'platform',
              'listingId',
              'platforms',
              'threshold',
              'country',
            ]),
            postJson('/v1/matches/decisions', fc.record({ listing: listingRef, match: listingRef, decision: fc.constantFrom('pinned', 'rejected') }), ['listing', 'match', 'decision']),
            mutate(fc.record({ listing: listingRef, match: listingRef }), ['listing', 'match']).map((o) => ({ method: 'DELETE', path: `/v1/matches/decisions?${toQuery(o)}` })),
          ),
          400,
        );
      },
      PROPERTY_TIMEOUT_MS,
    );

    it(
      'watches and their runs',
      async () => {
        const call = fc.oneof(
          merge(pair, window('checkIn', 'checkOut', { max: 7 })).map((params) => ({ call: { type: 'price', params }, rules: [{ type: 'price_below', amount: 150 }] })),
          merge(pair, window('startDate', 'endDate', { max: 60 })).map((params) => ({ call: { type: 'availability', params }, rules: [{ type: 'nights_available', nights: 3 }] })),
          window('checkIn', 'checkOut', { max: 7 }).map((d) => ({ call: { type: 'search', params: { location: 'Lisbon', limit: 5, ...d } }, rules: [{ type: 'new_listings' }] })),
        );
        const body = fc
          .tuple(call, fc.record({ name: opt(fc.constantFrom('Alfama', 'watch')), intervalMinutes: opt(fc.constantFrom(15, 60, 1440)), maxCreditsPerDay: opt(fc.constantFrom(0, 10, 1000)) }))
          .map(([c, o]) => ({ ...c, ...o }) as Params);
        await run(
          fc.oneof(
            { arbitrary: postJson('/v1/watches', body, ['call', 'rules', 'name', 'intervalMinutes', 'maxCreditsPerDay']), weight: 4 },
            { arbitrary: get('/v1/watches', fc.record({ limit: opt(fc.constantFrom(1, 10, 100)) }), ['limit', 'cursor']), weight: 1 },
            { arbitrary: pathId('watches').map((id) => ({ method: 'GET', path: `/v1/watches/${id}` })), weight: 1 },
            { arbitrary: fc.tuple(pathId('watches'), fc.constantFrom('', 'limit=1', 'limit=0', 'cursor=x')).map(([id, q]) => ({ method: 'GET', path: `/v1/watches/${id}/events?${q}` })), weight: 1 },
            { arbitrary: pathId('watches').map((id) => ({ method: 'DELETE', path: `/v1/watches/${id}` })), weight: 1 },
            { arbitrary: fc.oneof(fc.constant(undefined), fc.constant('{}'), fc.json(), fc.string()).map((b) => ({ method: 'POST', path: '/v1/watches/run', body: b })), weight: 1 },
          ),
          400,
        );
      },
      PROPERTY_TIMEOUT_MS,
    );

    it(
      'collections',
      async () => {
        const area = fc.oneof(
          fc.record({ location: fc.constantFrom('Lisbon', 'Porto', ' lisbon ') }),
          fc.record({ bbox: fc.constantFrom('-9.3,38.6,-9.0,38.8', '-8.8,41.0,-8.4,41.3', '10,10,9,9', '-10,36,-6,42') }),
          fc.record({ compSet: createdId('compsets') }),
        );
        const settings = fc.record({
          name: fc.string({ minLength: 1, maxLength: 12 }).map((x) => `c ${x}`),
          platforms: opt(fc.constantFrom(['airbnb'], ['airbnb', 'vrbo'], 'booking,google')),
          horizonNights: opt(fc.constantFrom(1, 30, 180, 365, 366, 0)),
          cadence: opt(fc.constantFrom('daily', 'weekly', 'hourly')),
          rates: opt(fc.constantFrom('auto', 'sampled', 'none')),
          maxCreditsPerDay: fc.constantFrom(1, 500, 10_000, 0, 1.5),
        });
        const patch = fc.record({
          name: opt(fc.constantFrom('renamed', 'c a', '')),
          status: opt(fc.constantFrom('active', 'paused', 'deleted')),
          maxCreditsPerDay: opt(fc.constantFrom(1, 200, -1)),
          cadence: opt(fc.constantFrom('weekly', 'daily')),
          horizonNights: opt(fc.constantFrom(7, 400)),
        });
        const patchKeys = ['name', 'status', 'maxCreditsPerDay', 'cadence', 'horizonNights', 'location', 'platforms', 'rates'];
        await run(
          fc.oneof(
            {
              arbitrary: postJson('/v1/collections', merge(area, settings), ['name', 'location', 'bbox', 'compSet', 'platforms', 'horizonNights', 'cadence', 'rates', 'maxCreditsPerDay', 'status']),
              weight: 4,
            },
            { arbitrary: get('/v1/collections', fc.record({ limit: opt(fc.constantFrom(1, 10, 20, 21)) }), ['limit']), weight: 1 },
            { arbitrary: pathId('collections').map((id) => ({ method: 'GET', path: `/v1/collections/${id}` })), weight: 1 },
            {
              arbitrary: fc.tuple(pathId('collections'), mutate(patch, patchKeys)).map(([id, o]) => ({ method: 'PATCH', path: `/v1/collections/${id}`, body: JSON.stringify(o) })),
              weight: 2,
            },
            { arbitrary: pathId('collections').map((id) => ({ method: 'DELETE', path: `/v1/collections/${id}` })), weight: 1 },
            {
              // A run asked with bad input only (a run of the fuzz's collections would search whole
              // boxes): a collection that is not the account's, of the wrong type, or a field it does
              // not take; each a typed 400 or 404, free.
              arbitrary: fc
                .oneof(
                  fc.record({ collection: fc.constantFrom<unknown>('col_nope', 'nope', 5, '', null, ['a'], 'x'.repeat(300)) }),
                  fc.record({ collection: fc.constant('col_nope'), extra: fc.constantFrom<unknown>(1, 'a') }),
                  fc.record({ wholePass: fc.constantFrom<unknown>(true, 'yes') }),
                )
                .map((o) => ({ method: 'POST', path: '/v1/collections/run', body: JSON.stringify(o) })),
              weight: 1,
            },
          ),
          400,
        );
      },
      PROPERTY_TIMEOUT_MS,
    );

    it(`at least ${MIN_REQUESTS} requests were made`, () => {
      expect(requests).toBeGreaterThanOrEqual(MIN_REQUESTS);
    });

    it('the requests reached past validation: every route answered a success at least once', () => {
      const routes = [
        'GET /v1/history/price',
        'GET /v1/history/availability',
        'GET /v1/history/listings',
        'GET /v1/history/observations',
        'GET /v1/history/bookings',
        'GET /v1/market',
        'GET /v1/matches',
        'POST /v1/matches/decisions',
        'POST /v1/compsets',
        'GET /v1/compsets',
        'GET /v1/compsets/ID',
        'POST /v1/watches',
        'GET /v1/watches',
        'GET /v1/watches/ID',
        'GET /v1/watches/ID/events',
        'DELETE /v1/watches/ID',
        'POST /v1/watches/run',
        'POST /v1/collections',
        'GET /v1/collections',
        'GET /v1/collections/ID',
        'PATCH /v1/collections/ID',
        'DELETE /v1/collections/ID',
      ];
      expect(routes.filter((r) => !answered.has(r))).toEqual([]);
    });
  });
}
