// meta.platformResults[].source on the other sources: the sandbox and the simulated upstream name
// themselves; a leg answered from the cache names none.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pollJob } from '../helpers/jobs.js';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';

let s: TestApp;
let a: TestAccount;
beforeAll(async () => {
  s = await startApp({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0', STAYS_SIM_FAIL: '' });
  a = await s.account({ credits: 10_000, rpm: 10_000 });
});
afterAll(() => s.stop());

type Meta = { platformResults: { platform: string; source?: string; cached: boolean }[] };

it('sandbox answers name the sandbox', async () => {
  const body = (await (await s.req('/v1/search?location=Lisbon&limit=2', { key: a.sandboxKey })).json()) as { meta: Meta };
  expect(body.meta.platformResults.map((r) => r.source)).toEqual(['sandbox', 'sandbox', 'sandbox', 'sandbox']);
});

it('live answers name the simulated upstream; a cached repeat names none', async () => {
  const res = await s.req('/v1/search?location=Lisbon&limit=2', { key: a.liveKey });
  const { data } = (await res.json()) as { data: { jobId: string } };
  const job = await pollJob(s, a.liveKey, data.jobId);
  expect((job.meta as unknown as Meta).platformResults.map((r) => r.source)).toEqual(['simulated', 'simulated', 'simulated', 'simulated']);
  const again = (await (await s.req('/v1/search?location=Lisbon&limit=2', { key: a.liveKey })).json()) as { meta: Meta };
  expect(again.meta.platformResults.every((r) => r.cached && r.source === undefined)).toBe(true);
});
