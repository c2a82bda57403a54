// A key that cannot be read because the database is overloaded is not an anonymous caller (found by
// test/scale/admitted-jobs.test.ts: hundreds of pollers of their own jobs, each with a valid key,
// got 429 "Too many unauthenticated requests" once the store's queue timed out their key lookups).
// Each such request answers the store's 503 service_overloaded (retryable, free), however many come
// from one address; a wrong key still takes its address's bucket and meets its 429.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/core/errors.js';
import { type TestApp, startApp } from '../helpers/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startApp({ STAYS_ANON_RPM: '5' });
});
afterAll(async () => {
  await app.stop();
});

describe('authentication while the database is overloaded', () => {
  it("a valid key's lookup refused by the store answers 503, never the anonymous 429; a wrong key is limited", async () => {
    const a = await app.account();
    const store = app.runtime.store;
    const lookup = store.findKeyByHash.bind(store);
    store.findKeyByHash = async () => {
      throw new ServiceError('service_overloaded', 'The database is busy; retry shortly.');
    };
    try {
      for (let i = 0; i < 12; i++) {
        const r = await app.req('/v1/account', { key: a.liveKey });
        // Every answer has the rate headers (D23): the address's bucket as it stands, untouched.
        expect(r.headers.get('x-ratelimit-remaining')).toBe('5');
        const body = (await r.json()) as { error: { code: string; retryable: boolean; creditsCharged: number } };
        expect(r.status, JSON.stringify(body)).toBe(503);
        expect(body.error).toMatchObject({ code: 'service_overloaded', retryable: true, creditsCharged: 0 });
      }
    } finally {
      store.findKeyByHash = lookup;
    }
    expect((await app.req('/v1/account', { key: a.liveKey })).status).toBe(200);
    // A wrong key is an anonymous caller: past 5 a minute from this address, 429.
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await app.req('/v1/account', { key: 'stay_live_nope' })).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.at(-1)).toBe(429);
  });
});
