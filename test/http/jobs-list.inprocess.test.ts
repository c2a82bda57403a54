// GET /v1/jobs (beyond the spec, docs/decisions.md "Listing jobs") in-process (test/helpers/app.ts) with the
// simulated upstream: the caller's jobs newest first as poll summaries, positional cursor pages,
// the status filter, account and environment isolation, and a typed free 400 for every bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobSummarySchema } from '../../src/core/schemas/jobs.js';
import { expectError, expectOk } from '../helpers/assert.js';
import { pollJob } from '../helpers/jobs.js';
import { type TestApp, startApp } from '../helpers/app.js';
import { type TestAccount, day } from '../helpers/stays.js';

type Summary = ReturnType<typeof JobSummarySchema.parse>;

let s: TestApp;
let a: TestAccount;
/** Oldest first: completed (airbnb), failed (vrbo), completed (booking), then one still running (google). */
const jobs: { id: string; charged: number; status: string }[] = [];

const stay = `checkIn=${day(40)}&checkOut=${day(43)}`;

async function startJob(platform: string, listingId: string): Promise<string> {
  const res = await s.req(`/v1/price?platform=${platform}&listingId=${listingId}&${stay}`, { key: a.liveKey });
  expect(res.status).toBe(202);
  return ((await res.json()) as { data: { jobId: string } }).data.jobId;
}

async function list(query = '', key = a.liveKey) {
  const r = await expectOk<Summary[]>(await s.req(`/v1/jobs${query}`, { key }));
  for (const j of r.data) JobSummarySchema.strict().parse(j);
  return r;
}

beforeAll(async () => {
  // google answers after 8 s, so its job is still in flight while the list is read.
  s = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '50,google=8000', STAYS_SIM_FAIL: 'vrbo=all_actors_failed' });
  a = await s.account({ credits: 10_000, rpm: 100_000 });
  for (const [platform, id] of [
    ['airbnb', '1234567'],
    ['vrbo', '7654321'],
    ['booking', 'pt/hotel-aurora-lisboa'],
  ] as const) {
    const jobId = await startJob(platform, id);
    const done = await pollJob(s, a.liveKey, jobId);
    jobs.push({ id: jobId, charged: done.data.status === 'completed' ? done.meta.creditsCharged : 0, status: done.data.status });
  }
  jobs.push({ id: await startJob('google', 'ChIJabcdefghijklmn'), charged: 0, status: 'running' });
});
afterAll(async () => {
  await s.stop();
});

describe('GET /v1/jobs', () => {
  it("lists the key's jobs newest first, each a poll summary without the result, free", async () => {
    expect(jobs.map((j) => j.status)).toEqual(['completed', 'failed', 'completed', 'running']);
    const { data, meta } = await list();
    expect(data.map((j) => j.jobId)).toEqual(jobs.map((j) => j.id).reverse());
    expect(meta).toMatchObject({ creditsCharged: 0, environment: 'live', sandbox: false, platforms: [], partial: false, platformResults: [] });
    expect(meta.pagination).toEqual({ limit: 20, cursor: null, nextCursor: null, hasMore: false });

    const [running, booking, vrbo, airbnb] = data as [Summary, Summary, Summary, Summary];
    expect(['pending', 'running']).toContain(running.status);
    expect(running).toMatchObject({ operation: 'price', platforms: ['google'], finishedAt: null, creditsCharged: 0, error: null, pollUrl: `/v1/jobs/${running.jobId}` });
    expect(airbnb).toMatchObject({ status: 'completed', operation: 'price', platforms: ['airbnb'], creditsCharged: jobs[0]!.charged, error: null });
    expect(airbnb.creditsCharged).toBeGreaterThan(0);
    expect(booking).toMatchObject({ status: 'completed', creditsCharged: jobs[2]!.charged });
    expect(vrbo).toMatchObject({ status: 'failed', creditsCharged: 0, error: { type: 'upstream_unavailable', code: 'all_actors_failed', retryable: true } });
    for (const j of [airbnb, vrbo, booking]) {
      expect(Date.parse(j.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(j.createdAt));
      expect('result' in j).toBe(false);
    }
    expect(Date.parse(running.createdAt)).toBeGreaterThan(Date.parse(airbnb.createdAt));
    // The summary agrees with a poll of the same job.
    const poll = await pollJob(s, a.liveKey, vrbo.jobId);
    expect(poll.data.error).toEqual(vrbo.error);
  });

  it('pages by position: limit=1 walks every job once, and a job started mid-walk does not shift the pages', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const { data, meta } = await list(`?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      expect(meta.pagination).toMatchObject({ limit: 1, cursor });
      seen.push(...data.map((j) => j.jobId));
      cursor = meta.pagination!.nextCursor;
      expect(meta.pagination!.hasMore).toBe(cursor !== null);
      if (cursor === null) break;
    }
    expect(seen).toEqual(jobs.map((j) => j.id).reverse());

    const first = await list('?limit=2');
    const extra = await startJob('airbnb', '2345678');
    await pollJob(s, a.liveKey, extra);
    const second = await list(`?limit=2&cursor=${first.meta.pagination!.nextCursor}`);
    expect(second.data.map((j) => j.jobId)).toEqual([jobs[1]!.id, jobs[0]!.id]);
    expect(second.meta.pagination).toMatchObject({ hasMore: false, nextCursor: null });
    expect((await list('?limit=1')).data[0]!.jobId).toBe(extra);
  });

  it('filters by status (case-insensitively); a cursor belongs to its filter', async () => {
    expect((await list('?status=failed')).data.map((j) => j.jobId)).toEqual([jobs[1]!.id]);
    const completed = await list('?status=COMPLETED&limit=1');
    expect(completed.data.every((j) => j.status === 'completed')).toBe(true);
    expect(completed.meta.pagination!.hasMore).toBe(true);
    const next = completed.meta.pagination!.nextCursor!;
    expect((await list(`?status=completed&limit=1&cursor=${next}`)).data[0]!.status).toBe('completed');
    const body = await expectError(await s.req(`/v1/jobs?status=failed&cursor=${next}`, { key: a.liveKey }), 400, 'invalid_cursor', 'cursor');
    expect(body.error.message).toMatch(/different query/);
  });

  it("shows only the calling key's account and environment", async () => {
    const sandbox = await list('', a.sandboxKey);
    expect(sandbox.data).toEqual([]);
    expect(sandbox.meta).toMatchObject({ environment: 'test', sandbox: true, creditsCharged: 0 });
    const other = await s.account();
    expect((await list('', other.liveKey)).data).toEqual([]);
    // Nor can the other account page into ours with our cursor.
    const mine = await list('?limit=1');
    expect((await list(`?limit=1&cursor=${mine.meta.pagination!.nextCursor}`, other.liveKey)).data).toEqual([]);
  });

  const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
  const BAD: [query: string, code: string, param: string][] = [
    ['limit=0', 'limit_out_of_range', 'limit'],
    ['limit=101', 'limit_out_of_range', 'limit'],
    ['limit=-5', 'limit_out_of_range', 'limit'],
    ['limit=abc', 'invalid_parameter', 'limit'],
    ['limit=2.5', 'invalid_parameter', 'limit'],
    ['limit=1&limit=2', 'invalid_parameter', 'limit'],
    ['status=done', 'invalid_parameter', 'status'],
    ['status=completed&status=failed', 'invalid_parameter', 'status'],
    ['status=%00', 'invalid_parameter', 'status'],
    ['cursor=!!!', 'invalid_cursor', 'cursor'],
    [`cursor=${b64('hello')}`, 'invalid_cursor', 'cursor'],
    [`cursor=${b64('null')}`, 'invalid_cursor', 'cursor'],
    [`cursor=${b64([1, 2])}`, 'invalid_cursor', 'cursor'],
    [`cursor=${b64({ v: 1, f: 'x', t: -1, j: 'job_01J8ZK4R2ABCDEF0123456789A' })}`, 'invalid_cursor', 'cursor'],
    [`cursor=${b64({ v: 1, f: 'x', t: 5, j: "job_' OR 1=1 --" })}`, 'invalid_cursor', 'cursor'],
    [`cursor=${b64({ v: 2, f: 'x', t: 5, j: 'job_01J8ZK4R2ABCDEF0123456789A' })}`, 'invalid_cursor', 'cursor'],
    [`cursor=${'A'.repeat(600)}`, 'invalid_cursor', 'cursor'],
    [`cursor=${'A'.repeat(5000)}`, 'invalid_parameter', 'cursor'],
    ['cursor=a&cursor=b', 'invalid_parameter', 'cursor'],
  ];
  for (const [query, code, param] of BAD) {
    it(`?${query.slice(0, 60)} → 400 ${code} (param ${param}), free`, async () => {
      for (const key of [a.liveKey, a.sandboxKey]) {
        const body = await expectError(await s.req(`/v1/jobs?${query}`, { key }), 400, code, param);
        expect(body.error.message).not.toMatch(/undefined/);
      }
    });
  }

  it('needs a key; other methods are 405 with Allow', async () => {
    await expectError(await s.req('/v1/jobs'), 401, 'missing_api_key');
    const res = await s.req('/v1/jobs', { method: 'POST', key: a.liveKey });
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    await expectError(res, 405, 'method_not_allowed');
  });

  it('is in the served OpenAPI document', async () => {
    const doc = (await (await s.req('/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, { operationId: string; parameters: { name: string; in: string; required: boolean }[]; responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    const op = doc.paths['/v1/jobs']!.get!;
    expect(op.operationId).toBe('listJobs');
    expect(op.parameters.map((p) => [p.name, p.in, p.required])).toEqual([
      ['status', 'query', false],
      ['limit', 'query', false],
      ['cursor', 'query', false],
    ]);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '429']));
    expect(op.responses['202']).toBeUndefined();
    expect(Object.keys(doc.components.schemas.JobSummary!.properties!)).toEqual(Object.keys(JobSummarySchema.shape));
  });
});
