// Sandbox and live are separate worlds for webhooks (issue 21, item 5), as they are for data and
// jobs: a webhook belongs to the environment of the key that created it; a key of the other
// environment cannot see, delete or read the deliveries of it (404 webhook_not_found), and an
// event reaches only the webhooks of its own environment (a live job's and a live lookup's events
// never reach a sandbox webhook). The app in-process (test/helpers/app.ts) with the simulated
// upstream and its dispatcher, receivers on loopback.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startApp } from '../helpers/app.js';
import { pollJob } from '../helpers/jobs.js';
import { receiverPool } from '../helpers/receiver.js';
import type { TestAccount } from '../helpers/stays.js';
import { createHook, deliveries } from '../helpers/webhooks.js';

const ALL = ['job.queued', 'job.running', 'job.succeeded', 'job.failed', 'stay.cached'];

let s: TestApp;
let a: TestAccount;
const pool = receiverPool();
beforeAll(async () => {
  s = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '50' });
  a = await s.account({ credits: 10_000, rpm: 100_000 });
});
afterAll(async () => {
  await s.stop();
  await pool.closeAll();
});

type Body = { data?: unknown; error?: { code: string; param: string | null; type: string; creditsCharged: number } };
const call = async (path: string, key: string, method = 'GET') => {
  const res = await s.req(path, { key, method });
  return { status: res.status, body: (await res.json()) as Body };
};

function expectNotFound(r: { status: number; body: Body }, what: string) {
  expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(404);
  expect(r.body.error).toMatchObject({ code: 'webhook_not_found', param: 'id', creditsCharged: 0 });
}

describe('webhooks per environment', () => {
  it("a key of one environment cannot list, get, delete or read the deliveries of the other's webhooks", async () => {
    const r = await pool.start();
    const live = await createHook(s, a.liveKey, r.url, ['job.succeeded']);
    const sandbox = await createHook(s, a.sandboxKey, r.url, ['job.succeeded']);
    for (const [key, mine, theirs] of [
      [a.liveKey, live.id, sandbox.id],
      [a.sandboxKey, sandbox.id, live.id],
    ] as const) {
      const listed = ((await call('/v1/webhooks', key)).body.data as { id: string }[]).map((w) => w.id);
      expect(listed).toContain(mine);
      expect(listed).not.toContain(theirs);
      expectNotFound(await call(`/v1/webhooks/${theirs}`, key), 'GET');
      expectNotFound(await call(`/v1/webhooks/${theirs}/deliveries`, key), 'deliveries');
      expectNotFound(await call(`/v1/webhooks/${theirs}`, key, 'DELETE'), 'DELETE');
      expect((await call(`/v1/webhooks/${mine}`, key)).status).toBe(200);
    }
    // Neither delete attempt changed anything.
    expect(((await call(`/v1/webhooks/${live.id}`, a.liveKey)).body.data as { active: boolean }).active).toBe(true);
    expect(((await call(`/v1/webhooks/${sandbox.id}`, a.sandboxKey)).body.data as { active: boolean }).active).toBe(true);
  });

  it("a live lookup's events (the job's and stay.cached) reach the live webhook, never the sandbox one", async () => {
    // The sandbox webhook is registered first: were it subscribed, its deliveries would be queued
    // in the same store write as the live one's, before them.
    const sandboxReceiver = await pool.start();
    const liveReceiver = await pool.start();
    const sandbox = await createHook(s, a.sandboxKey, sandboxReceiver.url, ALL);
    const live = await createHook(s, a.liveKey, liveReceiver.url, ALL);

    const res = await s.req('/v1/listing/airbnb/12345678', { key: a.liveKey });
    expect(res.status).toBe(202);
    const jobId = ((await res.json()) as { data: { jobId: string } }).data.jobId;
    expect((await pollJob(s, a.liveKey, jobId)).data.status).toBe('completed');
    await liveReceiver.waitFor(1, 20_000, (x) => x.body.event === 'job.succeeded');
    await liveReceiver.waitFor(1, 20_000, (x) => x.body.event === 'stay.cached');
    expect(liveReceiver.received.map((x) => x.body.event)).toEqual(expect.arrayContaining(['job.queued', 'job.running', 'job.succeeded', 'stay.cached']));

    // Nothing was ever queued for the sandbox webhook (the store's outbox), nothing arrived, nothing logged.
    const db = new Database(join(s.dataDir, 'stays.db'), { readonly: true });
    try {
      const queued = (id: string) => db.prepare('SELECT COUNT(*) AS n FROM webhook_outbox WHERE webhook_id = ?').get(id) as { n: number };
      expect(queued(live.id).n).toBeGreaterThanOrEqual(4);
      expect(queued(sandbox.id).n).toBe(0);
      expect(db.prepare('SELECT env FROM webhooks WHERE id = ?').get(sandbox.id)).toEqual({ env: 'sandbox' });
      expect(db.prepare('SELECT env FROM webhooks WHERE id = ?').get(live.id)).toEqual({ env: 'live' });
    } finally {
      db.close();
    }
    expect(sandboxReceiver.received).toEqual([]);
    expect(await deliveries(s, a.sandboxKey, sandbox.id)).toEqual([]);
  });

  it('the cap of 20 active webhooks counts both environments of the account together', async () => {
    const b = await s.account({ rpm: 100_000 });
    const r = await pool.start();
    for (let i = 0; i < 20; i++) await createHook(s, i % 2 === 0 ? b.liveKey : b.sandboxKey, `${r.url}/${i}`, ['job.queued']);
    const over = await s.req('/v1/webhooks', { key: b.sandboxKey, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: r.url, events: ['job.queued'] }) });
    expect(over.status).toBe(403);
    const body = (await over.json()) as Body & { error: { message: string } };
    expect(body.error.code).toBe('webhook_limit_exceeded');
    expect(body.error.message).toContain('sandbox and live together');
  });
});
