// The live path through the app in-process (test/helpers/app.ts) with the simulated upstream: 202 → poll → completed,
// cache hits that bill again, partial fan-outs, typed free failures, ownership, Prefer: wait.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk } from '../helpers/assert.js';
import { pollJob } from '../helpers/jobs.js';
import { type TestApp, startApp } from '../helpers/app.js';
import { type TestAccount, day } from '../helpers/stays.js';

let s: TestApp;
let a: TestAccount;
beforeAll(async () => {
  s = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '400', STAYS_SIM_FAIL: '' });
  a = await s.account({ credits: 100_000, rpm: 100_000 });
});
afterAll(async () => {
  await s.stop();
});

const balance = async (key: string) => ((await (await s.req('/v1/account', { key })).json()) as { data: { credits: { balance: number; held: number; available: number } } }).data.credits;
const stay = `checkIn=${day(40)}&checkOut=${day(43)}`;

describe('live calls on the simulated upstream', () => {
  it('202 with jobId, pollUrl, Retry-After; the job completes with the full meta and charges once', async () => {
    const before = await balance(a.liveKey);
    const res = await s.req('/v1/search?location=Madrid&limit=3', { key: a.liveKey });
    expect(res.status).toBe(202);
    expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    const accepted = (await res.json()) as {
      data: { jobId: string; status: string; pollUrl: string; estimatedSeconds: number };
      meta: { requestId: string; creditsCharged: number; platforms: string[] };
    };
    expect(accepted.data.jobId).toMatch(/^job_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(accepted.data).toMatchObject({ status: 'pending', pollUrl: `/v1/jobs/${accepted.data.jobId}` });
    expect(accepted.meta).toEqual({ requestId: res.headers.get('x-request-id'), creditsCharged: 0, platforms: ['vrbo', 'booking', 'airbnb', 'google'] });
    const during = await balance(a.liveKey);
    expect(during.held).toBe(31); // D5 worst case: every leg full at limit 3 → 5 + 5 + 6 + 15
    const job = await pollJob(s, a.liveKey, accepted.data.jobId);
    expect(job.data.status).toBe('completed');
    expect(Array.isArray(job.data.result)).toBe(true);
    expect((job.data.result as unknown[]).length).toBe(12);
    // D3: vrbo 5, booking 5, airbnb max(5, 2×3) = 6, google 15.
    expect(job.meta.creditsCharged).toBe(31);
    expect(job.meta.platformResults!.map((r) => r.creditsCharged)).toEqual([5, 5, 6, 15]);
    expect(job.meta.cached).toBe(false);
    // D18 amended: the completed job pages like its synchronous call, and its next page is served.
    const jobPage = (job.meta as unknown as { pagination: { limit: number; cursor: null; hasMore: boolean; nextCursor: string } }).pagination;
    expect(jobPage).toMatchObject({ limit: 3, cursor: null, hasMore: true });
    expect(jobPage.nextCursor).toEqual(expect.any(String));
    expect(job.meta.warnings!.map((w) => w.code)).toContain('simulated_upstream');
    const after = await balance(a.liveKey);
    expect(after).toMatchObject({ balance: before.balance - 31, held: 0 });

    // The same call again: a synchronous cache hit that bills again and says cached.
    const again = await expectOk<unknown[]>(await s.req('/v1/search?location=Madrid&limit=3', { key: a.liveKey }));
    expect(again.data).toEqual(job.data.result);
    expect(again.meta).toMatchObject({ cached: true, creditsCharged: 31, environment: 'live', sandbox: false });
    expect(again.meta.platformResults.every((r) => r.cached)).toBe(true);
    expect(again.meta.pagination).toMatchObject({ limit: 3, hasMore: true });
    expect((await balance(a.liveKey)).balance).toBe(before.balance - 62);
  });

  it('Prefer: wait=N answers 200 when the job finishes in time', async () => {
    const res = await s.req(`/v1/price?platform=airbnb&listingId=1234567&${stay}`, { key: a.liveKey, headers: { prefer: 'wait=10' } });
    const { data, meta } = await expectOk<{ listingId: string }>(res);
    expect(data.listingId).toBe('1234567');
    expect(meta.creditsCharged).toBe(3);
  });

  it('the job belongs to its account and environment: another account, or a sandbox key, gets 404 job_not_found', async () => {
    const res = await s.req('/v1/reviews?platform=airbnb&listingId=7654321', { key: a.liveKey });
    const { data } = (await res.json()) as { data: { jobId: string } };
    const b = await s.account();
    await expectError(await s.req(`/v1/jobs/${data.jobId}`, { key: b.liveKey }), 404, 'job_not_found');
    await expectError(await s.req(`/v1/jobs/${data.jobId}`, { key: b.sandboxKey }), 404, 'job_not_found');
    expect((await pollJob(s, a.liveKey, data.jobId)).data.status).toBe('completed');
    // The owner's sandbox key never reads live results, finished or not.
    await expectError(await s.req(`/v1/jobs/${data.jobId}`, { key: a.sandboxKey }), 404, 'job_not_found');
    // Another live key of the owner's account may poll it.
    const other = await s.admin<{ key: string }>('key', 'create', '--account', a.id, '--env', 'live');
    expect((await pollJob(s, other.key, data.jobId)).data.status).toBe('completed');
  });

  it.each([
    [`/v1/price?platform=airbnb&listingId=404&${stay}`, 'not_found', 'listing_not_found'],
    [`/v1/price?platform=vrbo&listingId=409&${stay}`, 'not_found', 'identity_mismatch'],
    [`/v1/price?platform=airbnb&listingId=410&${stay}`, 'not_found', 'no_availability'],
    [`/v1/price?platform=booking&listingId=us/411&${stay}`, 'not_found', 'price_not_found'],
    ['/v1/listing/airbnb/503', 'upstream_unavailable', 'all_actors_failed'],
    ['/v1/reviews?platform=vrbo&listingId=502', 'upstream_unavailable', 'actor_blocked'],
    [`/v1/availability?platform=airbnb&listingId=504&startDate=${day(2)}&endDate=${day(9)}`, 'upstream_timeout', 'actor_timeout'],
    ['/v1/search?location=fail&limit=2', 'upstream_unavailable', 'upstream_degraded'],
  ])('%s → failed job %s/%s, free, hold released', async (path, type, code) => {
    const before = await balance(a.liveKey);
    const res = await s.req(path, { key: a.liveKey });
    expect(res.status).toBe(202);
    const job = await pollJob(s, a.liveKey, ((await res.json()) as { data: { jobId: string } }).data.jobId);
    expect(job.data.status).toBe('failed');
    expect(job.data.error).toMatchObject({ type, code, retryable: type.startsWith('upstream') });
    expect(job.meta.creditsCharged).toBe(0);
    expect(await balance(a.liveKey)).toEqual(before);
  });

  it('with Prefer: wait a failure inside the wait is the typed error itself', async () => {
    await expectError(await s.req(`/v1/price?platform=airbnb&listingId=404&${stay}`, { key: a.liveKey, headers: { prefer: 'wait=10' } }), 404, 'listing_not_found');
  });

  it('402 before any upstream work when available credits are below the worst case', async () => {
    const poor = await s.account({ credits: 20 });
    await expectError(await s.req('/v1/search?location=Oslo', { key: poor.liveKey }), 402, 'credit_balance_too_low');
    expect(await balance(poor.liveKey)).toMatchObject({ balance: 20, held: 0 });
  });
});

describe('partial fan-out and per-platform failures', () => {
  let t: TestApp;
  let b: TestAccount;
  beforeAll(async () => {
    t = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: 'airbnb=50,booking=80,vrbo=60,google=40', STAYS_SIM_FAIL: 'vrbo=all_actors_failed,google=actor_timeout' });
    b = await t.account({ credits: 10_000, rpm: 100_000 });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('one platform failing is a 200 job result with partial true and that leg charging 0', async () => {
    const res = await t.req('/v1/search?location=Vienna&limit=4&platforms=airbnb,vrbo', { key: b.liveKey });
    const job = await pollJob(t, b.liveKey, ((await res.json()) as { data: { jobId: string } }).data.jobId);
    expect(job.data.status).toBe('completed');
    expect(job.meta.partial).toBe(true);
    const legs = Object.fromEntries(job.meta.platformResults!.map((r) => [r.platform, r]));
    expect(legs.vrbo).toMatchObject({ status: 'failed', creditsCharged: 0, error: { code: 'all_actors_failed' } });
    expect(legs.airbnb).toMatchObject({ status: 'ok', creditsCharged: 8 });
    expect(job.meta.creditsCharged).toBe(8);
  });

  it('a single-platform price on a failing platform is a failed job with that code', async () => {
    const res = await t.req(`/v1/price?platform=google&listingId=ChIJabc123&${stay}`, { key: b.liveKey });
    const job = await pollJob(t, b.liveKey, ((await res.json()) as { data: { jobId: string } }).data.jobId);
    expect(job.data.error).toMatchObject({ type: 'upstream_timeout', code: 'actor_timeout', retryable: true });
  });
});
