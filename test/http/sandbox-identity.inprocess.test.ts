// Issue 22, item 6 through the app in-process: a row found in a search reads the same when its id is looked up,
// in Family U (GET /v1/listing) and Family S (GET /v1/stays/{id}, with-details), on a sandbox key
// (the sandbox world) and a live key (the simulated upstream).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callLive } from '../helpers/jobs.js';
import { expectOk } from '../helpers/assert.js';
import { expectSOk, sCall } from '../helpers/s.js';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';

let s: TestApp;
let a: TestAccount;
beforeAll(async () => {
  s = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '20', STAYS_SIM_FAIL: '' });
  a = await s.account({ rpm: 100_000, credits: 100_000 });
});
afterAll(async () => {
  await s.stop();
});

type URow = { platform: string; platformListingId: string; name: string; location: { city: string | null } };
/** A live call's data: the answer's, or its job's result. */
const dataOf = <T>(r: Awaited<ReturnType<typeof callLive>>): T => (r.job ? r.job.data.result : (r.body as { data: unknown }).data) as T;
type SRow = { id: string; title: string; location: { city: string | null } };

describe('one id, one property (sandbox and simulated upstream)', () => {
  it.each([['sandbox'], ['live']] as const)('Family S: with-details rows of a Lisbon search read the same by lookup (%s key)', async (env) => {
    const key = env === 'sandbox' ? a.sandboxKey : a.liveKey;
    const found = expectSOk<SRow[]>(await sCall(s, '/v1/search/with-details', { key, json: { location: 'Lisbon', maxItems: 5 } })).data;
    expect(found.length).toBe(5);
    for (const row of found) {
      expect(row.location.city).toBe('Lisbon');
      const looked = expectSOk<SRow>(await sCall(s, `/v1/stays/${row.id}`, { key })).data;
      expect({ id: row.id, title: looked.title, city: looked.location.city }).toEqual({ id: row.id, title: row.title, city: 'Lisbon' });
    }
  });

  it('Family U: search rows of every platform read the same by listing, and as a Family S stay', async () => {
    for (const place of ['Mexico City', 'Lisbon']) {
      const { data } = await expectOk<URow[]>(await s.req(`/v1/search?location=${encodeURIComponent(place)}&limit=3`, { key: a.sandboxKey }));
      expect(data.length).toBe(12);
      for (const row of data) {
        const { data: d } = await expectOk<URow>(await s.req(`/v1/listing/${row.platform}/${encodeURIComponent(row.platformListingId)}`, { key: a.sandboxKey }));
        expect([row.platform, d.name, d.location.city]).toEqual([row.platform, row.name, place]);
        if (row.platform === 'airbnb') {
          const stay = expectSOk<SRow>(await sCall(s, `/v1/stays/${row.platformListingId}`, { key: a.sandboxKey })).data;
          expect([stay.title, stay.location.city]).toEqual([row.name, place]);
        }
      }
    }
  });

  it('Family U on a live key: a searched row, looked up, is the same property', async () => {
    const found = await callLive(s, a.liveKey, '/v1/search?location=Lisbon&platforms=airbnb,vrbo&limit=2');
    const rows = dataOf<URow[]>(found);
    expect(rows.length).toBe(4);
    for (const row of rows) {
      const d = await callLive(s, a.liveKey, `/v1/listing/${row.platform}/${row.platformListingId}`);
      const got = dataOf<URow>(d);
      expect([got.name, got.location.city]).toEqual([row.name, 'Lisbon']);
    }
  });
});

// Issue 22, item 16: the simulated upstream answers live keys; its trigger errors must not claim to
// be the sandbox's.
describe('simulated upstream messages', () => {
  it('a trigger id on a live key says "Simulated upstream", never "Sandbox"; the sandbox key still says sandbox', async () => {
    const live = await callLive(s, a.liveKey, '/v1/listing/airbnb/404');
    const err = live.job ? live.job.data.error! : (live.body as unknown as { error: { code: string; message: string } }).error;
    expect(err.code).toBe('listing_not_found');
    expect(err.message).toMatch(/^Simulated upstream: /);
    expect(err.message).not.toMatch(/sandbox/i);
    const sandbox = (await (await s.req('/v1/listing/airbnb/404', { key: a.sandboxKey })).json()) as { error: { message: string } };
    expect(sandbox.error.message).toMatch(/^Sandbox trigger: /);
  });

  it('a failing search location on a live key says the same', async () => {
    const live = await callLive(s, a.liveKey, '/v1/search?location=partial&limit=1');
    const warnings = (live.job ? live.job.meta.warnings : (live.body as { meta: { warnings?: { code: string; message?: string }[] } }).meta.warnings) ?? [];
    const text = JSON.stringify(live.body);
    expect(warnings.length).toBeGreaterThan(0);
    expect(text).toMatch(/Simulated upstream/);
    expect(text).not.toMatch(/Sandbox trigger/);
  });
});
