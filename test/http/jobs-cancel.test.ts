// DELETE /v1/jobs/{jobId} (issue 22, item 19) on a real server with the simulated upstream: the
// sandbox's `pending` job (item 20) is canceled like any; a
// running job ends failed with job_canceled, its hold is released, job.failed reaches the
// subscribers, a second cancel is 409 job_not_cancelable, another account gets 404; and once the
// upstream has answered (the server drains its jobs on SIGTERM), nothing was charged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/assert.js';
import { type JobBody, pollJob } from '../helpers/jobs.js';
import { receiverPool } from '../helpers/receiver.js';
import { type Stays, type TestAccount, startStays } from '../helpers/stays.js';
import { createHook } from '../helpers/webhooks.js';

let s: Stays;
let a: TestAccount;
let other: TestAccount;
const pool = receiverPool();
beforeAll(async () => {
  // Platforms answer after 5 s: the job is surely running when it is canceled; the server's
  // shutdown grace (10 s) still lets it end before the store is read.
  s = await startStays({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '5000', STAYS_SIM_FAIL: '' });
  a = await s.account({ credits: 10_000, rpm: 100_000 });
  other = await s.account({ credits: 100 });
});
afterAll(async () => {
  await s.stop();
  await pool.closeAll();
});

const credits = async (key: string) => ((await (await s.req('/v1/account', { key })).json()) as { data: { credits: { balance: number; held: number } } }).data.credits;

interface Shown {
  credits: { balance: number; held: number; spent: number };
  ledger: { kind: string; amount: number }[];
}

describe('DELETE /v1/jobs/{jobId}', () => {
  it('the sandbox `pending` search: a 202 job that keeps running (free) and can be canceled', async () => {
    const res = await s.req('/v1/search?location=pending', { key: a.sandboxKey });
    expect(res.status).toBe(202);
    expect(res.headers.get('retry-after')).toBe('5');
    const jobId = ((await res.json()) as JobBody).data.jobId;
    const poll = await s.req(`/v1/jobs/${jobId}`, { key: a.sandboxKey });
    expect(((await poll.json()) as JobBody).data.status).toMatch(/^(pending|running)$/);
    await expectError(await s.req(`/v1/jobs/${jobId}`, { key: a.liveKey, method: 'DELETE' }), 404, 'job_not_found');
    const del = (await (await s.req(`/v1/jobs/${jobId}`, { key: a.sandboxKey, method: 'DELETE' })).json()) as JobBody;
    expect(del.data).toMatchObject({ status: 'failed', error: { code: 'job_canceled' } });
  });

  it('cancels a running job: failed job_canceled, hold released, job.failed sent, never charged even after the upstream answers', async () => {
    const r = await pool.start();
    await createHook(s, a.liveKey, r.url, ['job.failed', 'job.succeeded']);
    const before = await credits(a.liveKey);
    const res = await s.req('/v1/search?location=Porto&limit=3', { key: a.liveKey });
    expect(res.status).toBe(202);
    const jobId = ((await res.json()) as JobBody).data.jobId;
    expect((await credits(a.liveKey)).held).toBeGreaterThan(0);

    await expectError(await s.req(`/v1/jobs/${jobId}`, { key: other.liveKey, method: 'DELETE' }), 404, 'job_not_found');

    const del = await s.req(`/v1/jobs/${jobId}`, { key: a.liveKey, method: 'DELETE' });
    const body = (await del.json()) as JobBody;
    expect(del.status, JSON.stringify(body)).toBe(200);
    expect(body.data).toMatchObject({ jobId, status: 'failed', error: { code: 'job_canceled', type: 'invalid_request', retryable: false } });
    expect(body.meta.creditsCharged).toBe(0);
    expect(await credits(a.liveKey)).toMatchObject({ balance: before.balance, held: 0 });
    expect((await pollJob(s, a.liveKey, jobId)).data.error?.code).toBe('job_canceled');

    const again = await expectError(await s.req(`/v1/jobs/${jobId}`, { key: a.liveKey, method: 'DELETE' }), 409, 'job_not_cancelable');
    expect(again.error.message).toMatch(/already failed/);

    const [event] = await r.waitFor(1);
    expect(event!.body.event).toBe('job.failed');
    expect(event!.body.data).toMatchObject({ job_id: jobId, status: 'failed', error: { code: 'job_canceled' } });

    // SIGTERM drains the running jobs (the canceled one's upstream call included): after it, the
    // store is final. Nothing was charged, and no job.succeeded was sent.
    expect(await s.stop('SIGTERM', { keepData: true })).toBe(0);
    const shown = await s.admin<Shown>('account', 'show', a.id, '--ledger', '1000');
    expect(shown.credits).toMatchObject({ balance: before.balance, held: 0, spent: 0 });
    expect(shown.ledger.filter((l) => l.kind === 'charge')).toEqual([]);
    expect(r.received.map((x) => x.body.event)).toEqual(['job.failed']);
  });
});
