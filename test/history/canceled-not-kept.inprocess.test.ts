// A canceled call keeps nothing of its answer (issue 35, item 1): DELETE /v1/jobs/{id} on a live
// search or quote charges nothing, and the upstream's answer, which still arrives, is neither
// recorded as observations (so /v1/history/* does not serve it free) nor written to the cache (so
// a repeat call is not billed at the cached tier). The same call left to complete is kept: its
// observations are read back and a repeat is a cache hit. On the simulated upstream with a latency
// the cancel surely precedes; the runner's drain waits for the canceled job's upstream answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JobBody, pollJob } from '../helpers/jobs.js';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';

let t: TestApp;
let a: TestAccount;

beforeAll(async () => {
  t = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '1500', STAYS_SIM_FAIL: '' });
  a = await t.account({ credits: 100_000, rpm: 100_000 });
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

/** Starts a live call as a job (no wait), cancels it, and waits until its upstream answer has come and gone. */
async function startAndCancel(path: string): Promise<void> {
  const res = await t.req(path, { key: a.liveKey, headers: { prefer: 'wait=0' } });
  const body = (await res.json()) as JobBody;
  expect(res.status, JSON.stringify(body)).toBe(202);
  const del = await t.req(`/v1/jobs/${body.data.jobId}`, { key: a.liveKey, method: 'DELETE' });
  expect(del.status).toBe(200);
  expect(((await del.json()) as JobBody).data.error?.code).toBe('job_canceled');
  // The canceled job's run ends once the upstream answered (the simulated latency): then nothing more can be kept.
  expect(await t.runtime.jobs.drain(30_000)).toBe(true);
  await t.runtime.store.observationsWritten();
}

/** A live call to completion: its first status, its final meta. */
async function complete(path: string): Promise<{ first: number; meta: JobBody['meta']; data: unknown }> {
  const res = await t.req(path, { key: a.liveKey, headers: { prefer: 'wait=0' } });
  const body = (await res.json()) as JobBody;
  if (res.status !== 202) return { first: res.status, meta: body.meta, data: body.data };
  const done = await pollJob(t, a.liveKey, body.data.jobId, 30_000);
  expect(done.data.status).toBe('completed');
  await t.runtime.store.observationsWritten();
  return { first: 202, meta: done.meta, data: done.data.result };
}

const observations = async () => {
  const res = await t.req('/v1/history/observations?since=2000-01-01&limit=1000', { key: a.liveKey });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { kind: string; key: string }[] }).data;
};

describe('a canceled live call keeps nothing', () => {
  it('search: canceled, nothing recorded or cached; completed, recorded and cached', async () => {
    const path = '/v1/search?location=Braga&platforms=airbnb&limit=5';
    await startAndCancel(path);
    expect(await observations()).toEqual([]);
    const shown = await t.req('/v1/history/listings?location=Braga', { key: a.liveKey });
    expect(((await shown.json()) as { data: unknown[] }).data).toEqual([]);
    // Not cached: the same call is a job again, charged in full.
    const again = await complete(path);
    expect(again.first).toBe(202);
    expect(again.meta.cached).toBe(false);
    expect(again.meta.creditsCharged).toBeGreaterThan(0);
    // Completed and charged: kept.
    expect((await observations()).filter((o) => o.kind === 'search').length).toBeGreaterThan(0);
    const third = await complete(path);
    expect(third).toMatchObject({ first: 200, meta: { cached: true } });
  });

  it('quote: canceled, nothing recorded or cached; completed, recorded and cached', async () => {
    const listings = (await complete('/v1/search?location=Faro&platforms=airbnb&limit=3')).data as { platformListingId: string }[];
    const id = listings[0]!.platformListingId;
    const path = `/v1/price?platform=airbnb&listingId=${id}&checkIn=2027-03-01&checkOut=2027-03-04&adults=2`;
    const quotes = async () => (await observations()).filter((o) => o.kind === 'quote');
    await startAndCancel(path);
    expect(await quotes()).toEqual([]);
    const again = await complete(path);
    expect(again.first).toBe(202);
    expect(again.meta.cached).toBe(false);
    expect(again.meta.creditsCharged).toBeGreaterThan(0);
    expect((await quotes()).length).toBe(1);
    expect(await complete(path)).toMatchObject({ first: 200, meta: { cached: true } });
  });
});
