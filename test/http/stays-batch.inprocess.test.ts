// POST /v1/stays/batch through the app in-process (issue 11 item 3, D26): 1–50 entries, each exactly one of id
// or url (else invalid_parameter naming entries[i]), unresolvable entries left out and counted in
// meta.missing (still 200), data in the order of entries, sandbox free, live 1 credit per row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credits, expectSError, expectSOk, expectStay, sCall } from '../helpers/s.js';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';

let s: TestApp;
let a: TestAccount;
beforeAll(async () => {
  // Sandbox keys never reach the simulated upstream (D6); live keys do, with a short latency.
  s = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '50', STAYS_SIM_FAIL: '' });
  a = await s.account({ rpm: 100_000, credits: 10_000 });
});
afterAll(async () => {
  await s.stop();
});

const batch = (entries: unknown, key = a.sandboxKey) => sCall(s, '/v1/stays/batch', { key, json: { entries } });
type BatchMeta = { count: number; requested: number; missing: number; credits_charged: number; environment: string; warnings: { code: string }[] };

describe('valid batches (sandbox)', () => {
  it('ids and urls in any mix: data follows the order of entries, meta { count, requested, missing }', async () => {
    const entries = [{ id: '300' }, { url: 'https://www.airbnb.com/rooms/100' }, { id: 'stays_airbnb_200' }, { id: 'https://www.airbnb.com/rooms/400000' }];
    const r = await batch(entries);
    const { data, meta } = expectSOk<unknown[]>(r);
    expect(data.map((x) => expectStay(x).id)).toEqual(['300', '100', '200', '400000']);
    expect(meta).toMatchObject({ count: 4, requested: 4, missing: 0, credits_charged: 0, environment: 'test' });
    // Each row is the same Stay a lookup gives.
    const one = expectSOk(await sCall(s, '/v1/stays/100', { key: a.sandboxKey })).data;
    expect(data[1]).toEqual(one);
  });

  it('unresolvable entries (sandbox 404, 409) are left out and counted in missing; the call is still 200', async () => {
    const r = await batch([{ id: '404' }, { id: '11' }, { id: '409' }, { url: 'https://www.airbnb.com/rooms/404' }, { id: '22' }]);
    const { data, meta } = expectSOk<{ id: string }[]>(r);
    expect(data.map((x) => x.id)).toEqual(['11', '22']);
    expect(meta).toMatchObject({ count: 2, requested: 5, missing: 3 });
  });

  it('every entry missing: 200 with data [] and missing = requested', async () => {
    const { data, meta } = expectSOk<unknown[]>(await batch([{ id: '404' }, { id: '409' }]));
    expect(data).toEqual([]);
    expect(meta).toMatchObject({ count: 0, requested: 2, missing: 2 });
  });

  it('1 entry and 50 entries are accepted', async () => {
    expect(expectSOk<unknown[]>(await batch([{ id: '5' }])).data).toHaveLength(1);
    const fifty = Array.from({ length: 50 }, (_, i) => ({ id: String(1000 + i) }));
    const { data, meta } = expectSOk<{ id: string }[]>(await batch(fifty));
    expect(data.map((x) => x.id)).toEqual(fifty.map((e) => e.id));
    expect(meta).toMatchObject({ count: 50, requested: 50, missing: 0 });
  });
});

describe('invalid batches', () => {
  it.each([
    ['0 entries', []],
    ['51 entries', Array.from({ length: 51 }, (_, i) => ({ id: String(i + 1) }))],
    ['entries not a list', { id: '1' }],
  ])('%s → 400 invalid_parameter, param entries', async (_w, entries) => {
    expectSError(await batch(entries), 400, 'invalid_parameter', 'entries');
  });

  it('no entries key → 400 missing_parameter entries', async () => {
    expectSError(await sCall(s, '/v1/stays/batch', { key: a.sandboxKey, json: {} }), 400, 'missing_parameter', 'entries');
  });

  it.each([
    ['both id and url', { id: '1', url: 'https://www.airbnb.com/rooms/1' }],
    ['neither', {}],
    ['an extra key', { id: '1', note: 'x' }],
    ['address (unsupported)', { address: '1 Main St' }],
    ['a string, not an object', '1'],
    ['null', null],
    ['an array', [{ id: '1' }]],
    ['a number id', { id: 1 }],
    ['an empty id', { id: ' ' }],
    ['a non-string url', { url: ['https://www.airbnb.com/rooms/1'] }],
    ['a malformed id', { id: 'abc' }],
  ])('an entry with %s → 400 invalid_parameter, param entries[i]', async (_w, bad) => {
    expectSError(await batch([{ id: '1' }, { id: '2' }, bad]), 400, 'invalid_parameter', 'entries[2]');
  });

  it('a url entry that is not an airbnb room URL → 400 invalid_listing_url, param entries[i]', async () => {
    expectSError(await batch([{ url: 'https://www.vrbo.com/4886746' }]), 400, 'invalid_listing_url', 'entries[0]');
  });

  it('refusals are free for the live key too', async () => {
    const before = await credits(s, a.liveKey);
    expectSError(await batch([{ id: '1', url: 'x' }], a.liveKey), 400, 'invalid_parameter', 'entries[0]');
    expectSError(await batch([], a.liveKey), 400, 'invalid_parameter', 'entries');
    expect(await credits(s, a.liveKey)).toEqual(before);
  });
});

describe('live batches (simulated upstream): 1 credit per returned row (D26)', () => {
  it('returned rows cost 1 each, missing rows 0; the balance moves by exactly meta.credits_charged; nothing stays held', async () => {
    const before = await credits(s, a.liveKey);
    const r = await batch([{ id: '7001' }, { id: '404' }, { url: 'https://www.airbnb.com/rooms/7002' }, { id: '409' }, { id: '7003' }], a.liveKey);
    const { data, meta } = expectSOk<unknown[]>(r);
    const m = meta as unknown as BatchMeta;
    expect(data.map((x) => expectStay(x).id)).toEqual(['7001', '7002', '7003']);
    expect(m).toMatchObject({ count: 3, requested: 5, missing: 2, credits_charged: 3, environment: 'live' });
    const after = await credits(s, a.liveKey);
    expect(after.held).toBe(0);
    expect(before.balance - after.balance).toBe(m.credits_charged);
  });

  it('every entry missing: 200, nothing charged', async () => {
    const before = await credits(s, a.liveKey);
    const { meta } = expectSOk(await batch([{ id: '404' }, { id: '409' }], a.liveKey));
    expect(meta).toMatchObject({ count: 0, requested: 2, missing: 2, credits_charged: 0 });
    expect(await credits(s, a.liveKey)).toEqual(before);
  });

  it('live rows are Stays of the same shape as sandbox rows', async () => {
    const { data } = expectSOk<unknown[]>(await batch([{ id: '7004' }], a.liveKey));
    const st = expectStay(data[0]);
    expect(st.pricing).toEqual({ price: null, currency: null, rate_type: null, breakdown: null });
  });
});
