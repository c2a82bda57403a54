// Issue 21 (9): text no store can hold (a NUL, a lone UTF-16 surrogate) is a typed 400 naming the
// parameter, the same on SQLite and on PostgreSQL, never a 500 (POST /oauth/register with
// "client_name": "x\u0000y" answered 201 on SQLite and 500 on PostgreSQL). A property over the
// routes where user strings reach a store: OAuth registration, authorization and token, the
// search parameters (cache keys and job parameters are stored), webhooks, batch entries, and JSON
// keys; each on a real `stays serve` of each store.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '../../src/core/schemas/resources.js';
import { type Instance, admin, startInstance, stopAll } from '../helpers/multi.js';
import { type TestDatabase, freshDatabase, pgAvailable } from '../helpers/pg.js';
import { type Stays, startStays } from '../helpers/stays.js';
import { REDIRECT } from '../oauth/helpers.js';

interface Server {
  url: string;
  sandboxKey: string;
  liveKey: string;
}

/** What a hostile string carries: a NUL (any transport) or a lone surrogate (JSON only: a URL cannot carry one). */
const NUL = fc.constantFrom('\u0000');
const SURROGATE = fc.constantFrom('\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\uDC00\uD800');
const printable = fc.string({ unit: fc.constantFrom(...'abcXYZ019 -_.é東'.split('')), maxLength: 8 });
const around = (bad: fc.Arbitrary<string>) => fc.tuple(printable, bad, printable).map(([a, b, c]) => `x${a}${b}${c}y`);
const inJson = around(fc.oneof(NUL, SURROGATE));
const inUrl = around(NUL);

const env = { STAYS_ANON_RPM: '1000000', STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0' };
const RUNS = 15;

async function expectTyped(res: Response, where: string, code: string, param: string | null): Promise<void> {
  const text = await res.text();
  expect(res.status, `${where}: ${text.slice(0, 300)}`).toBe(400);
  const body = ErrorEnvelopeSchema.parse(JSON.parse(text));
  expect(body.error.code, where).toBe(code);
  expect(body.error.param, where).toBe(param);
  expect(body.error.creditsCharged).toBe(0);
}

async function expectOAuth(res: Response, where: string, error: string): Promise<void> {
  const text = await res.text();
  expect(res.status, `${where}: ${text.slice(0, 300)}`).toBe(400);
  expect((JSON.parse(text) as { error: string }).error, where).toBe(error);
}

function suite(name: string, server: () => Server) {
  const post = (path: string, key: string | null, body: unknown) =>
    fetch(server().url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) }, body: JSON.stringify(body) });
  const get = (path: string, key: string) => fetch(server().url + path, { headers: { authorization: `Bearer ${key}` } });

  describe(name, () => {
    it('POST /oauth/register: client_name and redirect_uris → 400 invalid_client_metadata / invalid_redirect_uri', async () => {
      await fc.assert(
        fc.asyncProperty(inJson, async (bad) => {
          await expectOAuth(await post('/oauth/register', null, { client_name: bad, redirect_uris: [REDIRECT] }), `client_name ${JSON.stringify(bad)}`, 'invalid_client_metadata');
          await expectOAuth(await post('/oauth/register', null, { redirect_uris: [`${REDIRECT}?s=${bad}`] }), `redirect_uri ${JSON.stringify(bad)}`, 'invalid_redirect_uri');
        }),
        { numRuns: RUNS },
      );
    });

    it('the OAuth authorization page and token endpoint: a client_id with a NUL is refused with 400, never looked up', async () => {
      await fc.assert(
        fc.asyncProperty(inUrl, async (bad) => {
          const q = new URLSearchParams({ response_type: 'code', client_id: bad, redirect_uri: REDIRECT, code_challenge: 'a'.repeat(43), code_challenge_method: 'S256' });
          const page = await fetch(`${server().url}/oauth/authorize?${q}`);
          expect(page.status, JSON.stringify(bad)).toBe(400);
          expect(await page.text()).toContain('not registered');
          const form = new URLSearchParams({ grant_type: 'authorization_code', client_id: bad, code: 'c', redirect_uri: REDIRECT, code_verifier: 'v'.repeat(43) });
          const tok = await fetch(`${server().url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
          await expectOAuth(tok, `token client_id ${JSON.stringify(bad)}`, 'invalid_request');
        }),
        { numRuns: RUNS },
      );
    });

    it('search, price-compare and jobs parameters (query and body, sandbox and live keys) → 400 invalid_parameter naming them', async () => {
      await fc.assert(
        fc.asyncProperty(inJson, inUrl, fc.constantFrom('sandboxKey', 'liveKey') as fc.Arbitrary<'sandboxKey' | 'liveKey'>, async (badJson, badUrl, which) => {
          const key = server()[which];
          const e = encodeURIComponent(badUrl);
          await expectTyped(await get(`/v1/search?location=${e}`, key), 'GET location', 'invalid_parameter', 'location');
          await expectTyped(await get(`/v1/price-compare?name=${e}&location=Lisbon`, key), 'GET name', 'invalid_parameter', 'name');
          await expectTyped(await get(`/v1/jobs?cursor=${e}`, key), 'GET cursor', 'invalid_parameter', 'cursor');
          await expectTyped(await post('/v1/search', key, { location: badJson }), `POST location ${JSON.stringify(badJson)}`, 'invalid_parameter', 'location');
          await expectTyped(await post('/v1/search', key, { location: 'Lisbon', cursor: badJson }), 'POST cursor', 'invalid_parameter', 'cursor');
          await expectTyped(await post('/v1/search', key, { location: 'Lisbon', [badJson]: 1 }), 'POST key', 'invalid_parameter', 'body');
          await expectTyped(await post('/v1/stays/batch', key, { entries: [badJson] }), 'batch', 'invalid_parameter', 'entries');
        }),
        { numRuns: RUNS },
      );
    });

    it('POST /v1/webhooks: url and description → 400 invalid_parameter naming them', async () => {
      await fc.assert(
        fc.asyncProperty(inJson, async (bad) => {
          const key = server().liveKey;
          await expectTyped(await post('/v1/webhooks', key, { url: 'https://example.com/h', events: ['job.succeeded'], description: bad }), 'description', 'invalid_parameter', 'description');
          await expectTyped(await post('/v1/webhooks', key, { url: `https://example.com/${bad}`, events: ['job.succeeded'] }), 'url', 'invalid_parameter', 'url');
        }),
        { numRuns: RUNS },
      );
    });

    it('printable text, non-ASCII and astral included, is still stored', async () => {
      const res = await post('/oauth/register', null, { client_name: 'Agent 東京 😀 é', redirect_uris: [`${REDIRECT}?x=%00`] });
      expect(res.status, await res.clone().text()).toBe(201);
      expect(((await res.json()) as { client_name: string }).client_name).toBe('Agent 東京 😀 é');
      const w = await post('/v1/webhooks', server().liveKey, { url: 'https://example.com/h', events: ['job.succeeded'], description: 'Zürich 😀' });
      expect(w.status, await w.clone().text()).toBe(201);
    });
  });
}

describe('SQLite', () => {
  let s: Stays;
  let srv: Server;
  beforeAll(async () => {
    s = await startStays(env);
    const a = await s.account({ rpm: 1_000_000 });
    srv = { url: s.url, sandboxKey: a.sandboxKey, liveKey: a.liveKey };
  });
  afterAll(async () => {
    await s?.stop();
  });
  suite('on SQLite', () => srv);
});

describe.skipIf(!(await pgAvailable()))('PostgreSQL', { timeout: 120_000 }, () => {
  let db: TestDatabase;
  let i: Instance;
  let srv: Server;
  beforeAll(async () => {
    db = await freshDatabase();
    i = await startInstance('pg', db.url, env);
    const acct = await admin<{ id: string }>(db.url, 'account', 'create', '--plan', 'pro', '--credits', '1000', '--rpm', '1000000');
    const sk = await admin<{ key: string }>(db.url, 'key', 'create', '--account', acct.id, '--env', 'sandbox');
    const lk = await admin<{ key: string }>(db.url, 'key', 'create', '--account', acct.id, '--env', 'live');
    srv = { url: i.url, sandboxKey: sk.key, liveKey: lk.key };
  });
  afterAll(async () => {
    await stopAll();
    await db?.drop();
  });
  suite('on PostgreSQL', () => srv);
});
