// Family S calls and jobs (D10, D17, D18): a lookup or sub-resource past STAYS_S_SYNC_WAIT_MS,
// and any S search of 241–250 rows, answer 202 with the job shape plus request_id, and the
// completed job's result is exactly what the synchronous call's data would have been (the same
// call again, now a cache hit, gives it). Batch, presets and searches up to 240 rows are always
// synchronous.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_ID_PATTERN } from '../../src/core/schemas/resources.js';
import { pollJob } from '../helpers/jobs.js';
import { type SResult, expectSOk, expectStay, sCall } from '../helpers/s.js';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';

let s: TestApp;
let a: TestAccount;
beforeAll(async () => {
  // The operator's knob: no synchronous wait at all, so every uncached live S call is a job.
  s = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '100', STAYS_SIM_FAIL: '', STAYS_S_SYNC_WAIT_MS: '0' });
  a = await s.account({ rpm: 100_000, credits: 10_000 });
});
afterAll(async () => {
  await s.stop();
});

type Accepted = { data: { jobId: string; status: string; pollUrl: string; estimatedSeconds: number }; meta: { requestId: string; creditsCharged: number; platforms: string[] }; request_id: string };

/** A 202 in the D18 job shape plus request_id (D10). */
function expectAccepted(r: SResult): Accepted {
  expect(r.status, r.text.slice(0, 300)).toBe(202);
  expect(r.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  const b = r.body as unknown as Accepted;
  expect(Object.keys(b).sort()).toEqual(['data', 'meta', 'request_id']);
  expect(b.data).toMatchObject({ status: 'pending', pollUrl: `/v1/jobs/${b.data.jobId}` });
  expect(b.meta).toMatchObject({ creditsCharged: 0, platforms: ['airbnb'] });
  expect(b.request_id).toMatch(REQUEST_ID_PATTERN);
  expect(b.request_id).toBe(b.meta.requestId);
  expect(b.request_id).toBe(r.headers.get('x-request-id'));
  return b;
}

const call = (path: string, json?: unknown) => sCall(s, path, json === undefined ? { key: a.liveKey } : { key: a.liveKey, json });

async function jobThenSync(path: string, json?: unknown): Promise<{ result: unknown; data: unknown; charged: number; again: number }> {
  const accepted = expectAccepted(await call(path, json));
  const job = await pollJob(s, a.liveKey, accepted.data.jobId);
  expect(job.data.status).toBe('completed');
  // The same call again: every leg is cached now, so it is answered at once.
  const again = expectSOk(await call(path, json));
  return { result: job.data.result, data: again.data, charged: job.meta.creditsCharged, again: again.meta.credits_charged as number };
}

describe('past the synchronous wait: 202, then a job whose result is the synchronous data (D18)', () => {
  it('GET /v1/stays/{id}', async () => {
    const r = await jobThenSync('/v1/stays/41001');
    expectStay(r.result);
    expect(r.result).toEqual(r.data);
    expect(r.charged).toBe(1);
    expect(r.again).toBe(1);
  });

  it('GET /v1/stays/{id}/availability', async () => {
    const r = await jobThenSync('/v1/stays/41002/availability');
    expect(r.result).toEqual(r.data);
    expect(r.charged).toBe(1);
  });

  it('POST /v1/search', async () => {
    // 241–250: async by D10 whatever the wait.
    const r = await jobThenSync('/v1/search', { locationQueries: ['Sintra', 'Setubal', 'Leiria', 'Viseu', 'Guarda', 'Obidos'], maxItems: 245 });
    expect(r.result).toEqual(r.data);
    expect(r.charged).toBe(245);
  });

  it('POST /v1/search/with-details', async () => {
    const r = await jobThenSync('/v1/search/with-details', { locationQueries: ['Cascais', 'Mafra', 'Nazare', 'Peniche', 'Ericeira', 'Tomar'], maxItems: 242 });
    expect(r.result).toEqual(r.data);
    expect(r.charged).toBe(484);
  });

  // D10: "values up to 240 run synchronously", whatever STAYS_S_SYNC_WAIT_MS or Prefer: wait say.
  it.each([['/v1/search'], ['/v1/search/with-details']])('%s with maxItems <= 240 answers synchronously even past the wait', async (path) => {
    const r = await call(path, { location: `Sines ${path.length}`, maxItems: 4 });
    if (r.status === 202) await pollJob(s, a.liveKey, expectAccepted(r).data.jobId); // leave no job running
    expect(r.status, r.text.slice(0, 200)).toBe(200);
  });

  // The spec calls batch synchronous: it waits for its job to end.
  it('POST /v1/stays/batch answers synchronously even past the wait', async () => {
    const r = await call('/v1/stays/batch', { entries: [{ id: '41007' }, { id: '41008' }] });
    if (r.status === 202) await pollJob(s, a.liveKey, expectAccepted(r).data.jobId); // leave no job running
    expect(r.status, r.text.slice(0, 200)).toBe(200);
  });

  // Was a bug: a batch job stored { stays, requested, missing } instead of the Stay[] data (D18).
  it('POST /v1/stays/batch: whichever way it answers, its data is Stay[], a job result too (D18)', async () => {
    const body = { entries: [{ id: '41003' }, { id: '41004' }] };
    const first = await call('/v1/stays/batch', body);
    if (first.status === 200) {
      expect(Array.isArray(expectSOk(first).data)).toBe(true);
      return;
    }
    const job = await pollJob(s, a.liveKey, expectAccepted(first).data.jobId);
    expect(job.data.status).toBe('completed');
    const again = expectSOk<unknown[]>(await call('/v1/stays/batch', body));
    expect(job.data.result).toEqual(again.data);
    expect(job.meta.creditsCharged).toBe(2);
  });

  it('POST /v1/stays/batch: billed per returned row, synchronously or through a job', async () => {
    // An account of its own, so no other test's job settles into this balance.
    const own = await s.account({ credits: 100 });
    const before = (await (await s.req('/v1/account', { key: own.liveKey })).json()) as { data: { credits: { balance: number } } };
    const r = await sCall(s, '/v1/stays/batch', { key: own.liveKey, json: { entries: [{ id: '41005' }, { id: '404' }, { id: '41006' }] } });
    const charged = r.status === 200 ? (expectSOk(r).meta.credits_charged as number) : (await pollJob(s, own.liveKey, expectAccepted(r).data.jobId)).meta.creditsCharged;
    expect(charged).toBe(2);
    const after = (await (await s.req('/v1/account', { key: own.liveKey })).json()) as { data: { credits: { balance: number; held: number } } };
    expect(before.data.credits.balance - after.data.credits.balance).toBe(2);
    expect(after.data.credits.held).toBe(0);
  });

  it('a failed job is typed and free', async () => {
    const accepted = expectAccepted(await call('/v1/stays/503'));
    const job = await pollJob(s, a.liveKey, accepted.data.jobId);
    expect(job.data.status).toBe('failed');
    expect(job.data.error).toMatchObject({ type: 'upstream_unavailable', code: 'all_actors_failed', retryable: true });
    expect(job.meta.creditsCharged).toBe(0);
  });
});

describe('presets are always synchronous (D10)', () => {
  // Was a bug: presets waited only STAYS_S_SYNC_WAIT_MS (or a shorter Prefer: wait), then answered 202.
  it.each([['superhost'], ['luxury'], ['instant-book']])('/v1/listings/%s answers 200 even when the synchronous wait is configured to 0', async (preset) => {
    const r = await call(`/v1/listings/${preset}`, { location: `Evora ${preset}` });
    expect(r.status, r.text.slice(0, 200)).toBe(200);
    const r2 = await s.req(`/v1/listings/${preset}`, {
      method: 'POST',
      key: a.liveKey,
      body: JSON.stringify({ location: `Beja ${preset}` }),
      headers: { 'content-type': 'application/json', prefer: 'wait=1' },
    });
    expect(r2.status, 'a short Prefer: wait does not make a preset async').toBe(200);
    await r2.text();
  });
});
