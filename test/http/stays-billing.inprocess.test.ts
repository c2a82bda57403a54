// Family S billing through the app in-process (test/helpers/app.ts), with live keys on the
// simulated upstream (issue 11 item 6; D5, D6, D26): lookup 1, sub-resource 1, batch 1 per returned
// row, search 1 per row, with-details 2 per row, presets 1 per row, by-address and errors 0. The sum
// of every credits_charged returned equals the balance change and the ledger's charges, to the
// credit; nothing stays held; sandbox keys never move the balance; a failing upstream is a free
// 503; too few credits a free 402.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAY_PARTS } from '../../src/core/schemas/stays.js';
import { type SResult, credits, expectSError, expectSOk, sCall } from '../helpers/s.js';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';

let s: TestApp;
let a: TestAccount;
const START = 50_000;
beforeAll(async () => {
  s = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '50', STAYS_SIM_FAIL: '' });
  a = await s.account({ rpm: 100_000, credits: START });
});
afterAll(async () => {
  await s.stop();
});

/** Every credits_charged a live call of this file returned. */
let total = 0;

async function charged(r: SResult, expected: number): Promise<{ data: unknown; meta: Record<string, unknown> }> {
  const ok = expectSOk<unknown>(r);
  expect(ok.meta.credits_charged, r.text.slice(0, 300)).toBe(expected);
  expect(ok.meta.environment).toBe('live');
  total += expected;
  return ok;
}

const get = (path: string, key = a.liveKey) => sCall(s, path, { key });
const post = (path: string, json: unknown, key = a.liveKey) => sCall(s, path, { key, json });
const rows = (d: unknown) => (d as unknown[]).length;

describe('what each Family S call costs (D26)', () => {
  it('a lookup costs 1, by id, stays id and URL; a repeat (cache hit) costs 1 again', async () => {
    for (const p of ['/v1/stays/31001', '/v1/stays/stays_airbnb_31002', `/v1/stays/by-url?url=${encodeURIComponent('https://www.airbnb.com/rooms/31003')}`, '/v1/stays/31001']) {
      const before = await credits(s, a.liveKey);
      await charged(await get(p), 1);
      expect((await credits(s, a.liveKey)).balance).toBe(before.balance - 1);
    }
  });

  it.each(STAY_PARTS.map((p) => [p]))('the sub-resource /%s costs 1', async (part) => {
    const before = await credits(s, a.liveKey);
    await charged(await get(`/v1/stays/32001/${part}`), 1);
    expect((await credits(s, a.liveKey)).balance).toBe(before.balance - 1);
  });

  it('by-address is free (501)', async () => {
    const before = await credits(s, a.liveKey);
    expectSError(await get('/v1/stays/by-address?address=x'), 501, 'not_implemented');
    expect(await credits(s, a.liveKey)).toEqual(before);
  });

  it('batch costs 1 per returned row; missing rows 0', async () => {
    const before = await credits(s, a.liveKey);
    const { data, meta } = await charged(await post('/v1/stays/batch', { entries: [{ id: '33001' }, { id: '404' }, { url: 'https://www.airbnb.com/rooms/33002' }, { id: '409' }] }), 2);
    expect(rows(data)).toBe(2);
    expect(meta).toMatchObject({ count: 2, requested: 4, missing: 2 });
    expect((await credits(s, a.liveKey)).balance).toBe(before.balance - 2);
  });

  it('search costs 1 per returned row; an empty search 0', async () => {
    const before = await credits(s, a.liveKey);
    const r = await post('/v1/search', { locationQueries: ['Lisbon', 'Porto'], maxItems: 30 });
    const n = rows(expectSOk(r).data);
    expect(n).toBe(30);
    await charged(r, n);
    await charged(await post('/v1/search', { location: 'empty', maxItems: 10 }), 0);
    expect((await credits(s, a.liveKey)).balance).toBe(before.balance - n);
  });

  it('a filtered search bills only the rows it returns (count below maxItems)', async () => {
    const r = await post('/v1/search', { location: 'Lisbon', maxItems: 200, priceMin: 250 });
    const n = rows(expectSOk(r).data);
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(60);
    await charged(r, n);
  });

  it('with-details costs 2 per returned row', async () => {
    const r = await post('/v1/search/with-details', { location: 'Porto', maxItems: 7 });
    expect(rows(expectSOk(r).data)).toBe(7);
    await charged(r, 14);
  });

  it.each([['superhost'], ['luxury'], ['instant-book']])('the %s preset costs 1 per returned row', async (preset) => {
    const r = await post(`/v1/listings/${preset}`, { location: 'Madrid' });
    const n = rows(expectSOk(r).data);
    expect(n).toBeGreaterThan(0);
    await charged(r, n);
  });

  it('identical live lookups at once share one upstream job (D19) and each is billed 1', async () => {
    const before = await credits(s, a.liveKey);
    const rs = await Promise.all(Array.from({ length: 6 }, () => get('/v1/stays/37001')));
    const datas = [];
    for (const r of rs) datas.push((await charged(r, 1)).data);
    for (const d of datas) expect(d).toEqual(datas[0]);
    expect((await credits(s, a.liveKey)).balance).toBe(before.balance - 6);
  });

  it('a repeated search is a cache hit that bills again (cached true)', async () => {
    const body = { location: 'Braga', maxItems: 5 };
    const first = await charged(await post('/v1/search', body), 5);
    const again = await charged(await post('/v1/search', body), 5);
    expect(again.data).toEqual(first.data);
    expect(again.meta.cached).toBe(true);
  });

  it('one place of several failing: 200 with the others rows, a warning, only returned rows billed', async () => {
    const r = await post('/v1/search', { locationQueries: ['Faro', 'fail'], maxItems: 10 });
    const { data, meta } = expectSOk<{ location: { city: string } }[]>(r);
    expect(data).toHaveLength(10);
    expect(data.every((x) => x.location.city === 'Faro')).toBe(true);
    expect((meta.warnings as { code: string }[]).map((w) => w.code)).toContain('all_actors_failed');
    await charged(r, 10);
    // Every place failing is the call failing, free.
    expectSError(await post('/v1/search', { locationQueries: ['fail', 'blocked'], maxItems: 10 }), 503, 'upstream_degraded');
  });

  it('errors cost 0: validation, magic ids, a bad batch', async () => {
    const before = await credits(s, a.liveKey);
    expectSError(await get('/v1/stays/abc'), 400, 'invalid_parameter', 'id');
    expectSError(await get('/v1/stays/404'), 404, 'listing_not_found');
    expectSError(await get('/v1/stays/409/photos'), 404, 'identity_mismatch');
    expectSError(await get('/v1/stays/503'), 503, 'all_actors_failed');
    expectSError(await get('/v1/stays/504'), 504, 'actor_timeout');
    expectSError(await get('/v1/stays/502/availability'), 503, 'actor_blocked');
    expectSError(await post('/v1/stays/batch', { entries: [{ id: '1', url: 'x' }] }), 400, 'invalid_parameter', 'entries[0]');
    expectSError(await post('/v1/stays/batch', { entries: [{ id: '503' }] }), 503, 'all_actors_failed');
    expectSError(await post('/v1/search', { location: 'Lisbon', maxItems: 5, fields: 'nope' }), 400, 'invalid_parameter', 'fields');
    expectSError(await post('/v1/search', { location: 'fail', maxItems: 5 }), 503, 'all_actors_failed');
    expectSError(await post('/v1/listings/luxury', { location: 'Lisbon', priceMax: 10 }), 400, 'invalid_price_range');
    expect(await credits(s, a.liveKey)).toEqual(before);
  });

  // Was a bug: HEAD ran the GET handler, a billed lookup whose charge the client never saw (D5).
  it('HEAD /v1/stays/{id} with a live key charges nothing (its answer has no body to report a charge in)', async () => {
    const before = await credits(s, a.liveKey);
    const res = await s.req('/v1/stays/38001', { key: a.liveKey, method: 'HEAD' });
    expect([200, 405]).toContain(res.status);
    const after = await credits(s, a.liveKey);
    total += before.balance - after.balance; // keep the reconciliation below exact either way
    expect(after.balance).toBe(before.balance);
  });

  it('the sandbox key never moves the balance, whatever it calls', async () => {
    const before = await credits(s, a.liveKey);
    const k = a.sandboxKey;
    expect(expectSOk(await get('/v1/stays/34001', k)).meta.credits_charged).toBe(0);
    expect(expectSOk(await get('/v1/stays/34001/reviews', k)).meta.credits_charged).toBe(0);
    expect(expectSOk(await post('/v1/stays/batch', { entries: [{ id: '34001' }, { id: '34002' }] }, k)).meta.credits_charged).toBe(0);
    expect(expectSOk(await post('/v1/search', { location: 'Lisbon', maxItems: 240 }, k)).meta.credits_charged).toBe(0);
    expect(expectSOk(await post('/v1/search/with-details', { location: 'Lisbon', maxItems: 10 }, k)).meta.credits_charged).toBe(0);
    expect(expectSOk(await post('/v1/listings/superhost', { location: 'Lisbon' }, k)).meta.credits_charged).toBe(0);
    expect(await credits(s, a.liveKey)).toEqual(before);
  });

  it('the sum of every credits_charged equals the balance change and the ledger; nothing is held', async () => {
    const after = await credits(s, a.liveKey);
    expect(after.held).toBe(0);
    expect(START - after.balance).toBe(total);
    const db = new Database(join(s.dataDir, 'stays.db'), { readonly: true });
    try {
      const ledger = db.prepare(`SELECT kind, amount FROM credit_ledger WHERE account_id = ?`).all(a.id) as { kind: string; amount: number }[];
      expect(ledger.filter((r) => r.kind === 'charge').reduce((x, r) => x - r.amount, 0)).toBe(total);
      expect(db.prepare('SELECT COUNT(*) AS n FROM credit_holds').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});

describe('402 before any upstream work (D5), in the S envelope', () => {
  it('available below the worst case → 402 credit_balance_too_low, nothing held or charged', async () => {
    const poor = await s.account({ credits: 50 });
    expectSError(await post('/v1/search', { location: 'Lisbon', maxItems: 100 }, poor.liveKey), 402, 'credit_balance_too_low');
    // with-details holds 2 per row: 30 rows need 60.
    expectSError(await post('/v1/search/with-details', { location: 'Lisbon', maxItems: 30 }, poor.liveKey), 402, 'credit_balance_too_low');
    expect(await credits(s, poor.liveKey)).toMatchObject({ balance: 50, held: 0, available: 50 });

    const one = await s.account({ credits: 1 });
    expectSError(await post('/v1/stays/batch', { entries: [{ id: '35001' }, { id: '35002' }] }, one.liveKey), 402, 'credit_balance_too_low');
    expectSError(await post('/v1/listings/instant-book', { location: 'Lisbon' }, one.liveKey), 402, 'credit_balance_too_low');
    expect(await credits(s, one.liveKey)).toMatchObject({ balance: 1, held: 0, available: 1 });

    const none = await s.account({ credits: 0 });
    expectSError(await get('/v1/stays/35003', none.liveKey), 402, 'credit_balance_too_low');
    expectSError(await get('/v1/stays/35003/host', none.liveKey), 402, 'credit_balance_too_low');
    // The sandbox key of a penniless account still works (D6).
    expectSOk(await get('/v1/stays/35003', none.sandboxKey));
    // And by-address stays a free 501.
    expectSError(await get('/v1/stays/by-address', none.liveKey), 501, 'not_implemented');
  });

  it('a free-plan account past its free-tier budget → 403 free_tier_budget_exhausted (D7), S envelope, nothing charged', async () => {
    const free = await s.account({ plan: 'free', credits: 1000, freeTierBudget: 5 });
    const e = expectSError(await post('/v1/search', { location: 'Lisbon', maxItems: 10 }, free.liveKey), 403, 'free_tier_budget_exhausted');
    expect(e.type).toBe('permission_denied');
    // Within the budget it is served.
    await (async () => {
      const r = await get('/v1/stays/35101', free.liveKey);
      expect(expectSOk(r).meta.credits_charged).toBe(1);
    })();
    expect(await credits(s, free.liveKey)).toMatchObject({ balance: 999, held: 0 });
  });

  it('a worst case exactly equal to the balance is admitted, and charges only the rows returned', async () => {
    const exact = await s.account({ credits: 10 });
    const r = await post('/v1/search', { location: 'Lisbon', maxItems: 10, priceMin: 400 }, exact.liveKey);
    const n = rows(expectSOk(r).data);
    expect(expectSOk(r).meta.credits_charged).toBe(n);
    expect(await credits(s, exact.liveKey)).toMatchObject({ balance: 10 - n, held: 0 });
  });
});

describe('a failing upstream (STAYS_SIM_FAIL=airbnb=actor_blocked): 503 in the S envelope, nothing charged', () => {
  let f: TestApp;
  let b: TestAccount;
  beforeAll(async () => {
    f = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '20', STAYS_SIM_FAIL: 'airbnb=actor_blocked' });
    b = await f.account({ rpm: 100_000, credits: 1000 });
  });
  afterAll(async () => {
    await f.stop();
  });

  it.each([
    ['GET', '/v1/stays/36001', undefined],
    ['GET', `/v1/stays/by-url?url=${encodeURIComponent('https://www.airbnb.com/rooms/36001')}`, undefined],
    ...STAY_PARTS.map((p) => ['GET', `/v1/stays/36001/${p}`, undefined] as const),
    ['POST', '/v1/stays/batch', { entries: [{ id: '36001' }, { id: '36002' }] }],
    ['POST', '/v1/search', { location: 'Lisbon', maxItems: 5 }],
    ['POST', '/v1/search', { locationQueries: ['Lisbon', 'Porto'], maxItems: 5 }],
    ['POST', '/v1/search/with-details', { location: 'Lisbon', maxItems: 5 }],
    ['POST', '/v1/listings/superhost', { location: 'Lisbon' }],
    ['POST', '/v1/listings/luxury', { location: 'Lisbon' }],
    ['POST', '/v1/listings/instant-book', { location: 'Lisbon' }],
  ] as const)('%s %s → 503 upstream_unavailable, free', async (method, path, json) => {
    const before = await credits(f, b.liveKey);
    const r = await sCall(f, path, { key: b.liveKey, ...(method === 'POST' ? { json } : {}) });
    expect(r.status, r.text.slice(0, 300)).toBe(503);
    const e = expectSError(r, 503, r.body.error!.code);
    expect(e.type).toBe('upstream_unavailable');
    expect(['actor_blocked', 'upstream_degraded', 'all_actors_failed']).toContain(e.code);
    expect(e.retryable).toBe(true);
    expect(await credits(f, b.liveKey)).toEqual(before);
  });

  it('the balance is untouched and nothing is held after all of them', async () => {
    expect(await credits(f, b.liveKey)).toMatchObject({ balance: 1000, held: 0, available: 1000 });
  });
});
