// A failed upstream call is never cached: once the upstream recovers, the same Family S call is
// served. Two servers share one data directory (and so one cache): the first with airbnb failing
// (STAYS_SIM_FAIL), the second with it healthy. Both are the app in-process (test/helpers/app.ts),
// one after the other on the data directory, each with its own runtime and memory caches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startApp } from '../helpers/app.js';
import { expectSError, expectSOk, sCall } from '../helpers/s.js';
import { type TestAccount, tempDir } from '../helpers/stays.js';

const dir = tempDir();
const CALLS: [string, string, unknown][] = [
  ['lookup', '/v1/stays/52001', undefined],
  ['sub-resource', '/v1/stays/52002/reviews', undefined],
  ['batch', '/v1/stays/batch', { entries: [{ id: '52003' }, { id: '52004' }] }],
  ['search', '/v1/search', { location: 'Lagos', maxItems: 3 }],
  ['with-details', '/v1/search/with-details', { location: 'Tavira', maxItems: 3 }],
  ['preset', '/v1/listings/instant-book', { location: 'Olhao', maxItems: 3 }],
];

let healthy: TestApp;
let a: TestAccount;
beforeAll(async () => {
  const failing = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '20', STAYS_SIM_FAIL: 'airbnb=actor_blocked' }, { dataDir: dir });
  try {
    a = await failing.account({ rpm: 100_000, credits: 1000 });
    for (const [, path, json] of CALLS) {
      const r = await sCall(failing, path, json === undefined ? { key: a.liveKey } : { key: a.liveKey, json });
      expectSError(r, 503, r.body.error?.code ?? 'actor_blocked');
    }
  } finally {
    await failing.stop({ keepData: true });
  }
  healthy = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '20', STAYS_SIM_FAIL: '' }, { dataDir: dir });
});
afterAll(async () => {
  await healthy?.stop();
});

describe('after the upstream recovers', () => {
  const ok = CALLS.filter(([what]) => what !== 'with-details');
  it.each(ok)('the %s is served (200), not the cached failure', async (_what, path, json) => {
    const r = await sCall(healthy, path, json === undefined ? { key: a.liveKey } : { key: a.liveKey, json });
    const { meta } = expectSOk(r);
    expect(meta.credits_charged).toBeGreaterThan(0);
  });

  // with-details wraps the search and the detail lookups in one leg; a value holding a failure is
  // never cached, so the recovered upstream answers.
  it('with-details is served (200), not the cached failure', async () => {
    const [, path, json] = CALLS.find(([what]) => what === 'with-details')!;
    expectSOk(await sCall(healthy, path, { key: a.liveKey, json }));
  });

  it('nothing was charged for the failures; only for what the healthy server served', async () => {
    const acct = (await (await healthy.req('/v1/account', { key: a.liveKey })).json()) as { data: { credits: { balance: number; held: number } } };
    expect(acct.data.credits.held).toBe(0);
    expect(acct.data.credits.balance).toBeGreaterThanOrEqual(1000 - 1 - 1 - 2 - 3 - 6 - 3);
  });
});
