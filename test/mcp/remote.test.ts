// `stays mcp --base-url` against a real `stays serve` with a live key and the simulated upstream:
// live calls become jobs, the tools wait for them, and what the account is charged is exactly
// the credits the tools report (the same billing as REST, because it is REST).
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stays, type TestAccount, startStays } from '../helpers/stays.js';
import { type McpProcess, ROOT, childEnv, mcpCommand, startMcp, textOf } from './helpers.js';

interface Envelope {
  data: unknown[];
  meta: { creditsCharged: number; environment: string; requestId: string };
}
interface JobBody {
  data: { jobId: string; status: string; pollUrl?: string; result?: unknown[] };
  meta: { creditsCharged: number };
}

describe('stays mcp against a server (live key, simulated upstream)', () => {
  let s: Stays;
  let acct: TestAccount;
  const started: McpProcess[] = [];
  const mcp = async (args: string[]) => {
    const m = await startMcp(['--base-url', s.url, ...args], { STAYS_API_KEY: acct.liveKey, STAYS_CONFIG_DIR: `${s.dataDir}/mcp-config` });
    started.push(m);
    return m;
  };
  const balance = async () => ((await (await s.req('/v1/account', { key: acct.liveKey })).json()) as { data: { credits: { balance: number; held: number } } }).data.credits;

  beforeAll(async () => {
    s = await startStays({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '50' });
    acct = await s.account({ credits: 1000 });
  });
  afterAll(async () => {
    for (const m of started) await m.close();
    await s?.stop();
  });

  it('search_stays waits for the live job and the account pays exactly the credits reported', async () => {
    const m = await mcp([]);
    expect(m.stderr()).toContain(`serving 7 tools over stdio (${s.url}; a live key)`);
    const before = await balance();
    const r = await m.client.callTool({ name: 'search_stays', arguments: { location: 'Lisbon', limit: 3 } });
    expect(r.isError).toBeFalsy();
    const body = r.structuredContent as unknown as Envelope;
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.meta.environment).toBe('live');
    expect(body.meta.creditsCharged).toBeGreaterThan(0);
    expect(textOf(r)).toContain(`; ${body.meta.creditsCharged} credits charged.`);
    const after = await balance();
    expect(after.held).toBe(0);
    expect(before.balance - after.balance).toBe(body.meta.creditsCharged);
  });

  it('past its bound a call answers the job id, and get_job fetches the result; charged once', async () => {
    // A bound of 0: the 202 comes back at once as a pending job.
    const m = await mcp(['--timeout', '0s']);
    const before = await balance();
    const r = await m.client.callTool({ name: 'search_stays', arguments: { location: 'Porto', limit: 2 } });
    expect(r.isError).toBeFalsy();
    const job = r.structuredContent as unknown as JobBody;
    expect(job.data.jobId).toMatch(/^job_/);
    expect(job.data.pollUrl).toBe(`/v1/jobs/${job.data.jobId}`);
    expect(textOf(r)).toContain(`Call get_job with {"jobId": "${job.data.jobId}"}`);
    // With no wait of its own, get_job is one poll: ask until the job has ended (bounded).
    let done: JobBody | undefined;
    for (let i = 0; i < 200 && !done; i++) {
      const p = await m.client.callTool({ name: 'get_job', arguments: { jobId: job.data.jobId } });
      expect(p.isError).toBeFalsy();
      const polled = p.structuredContent as unknown as JobBody;
      if (polled.data.status === 'completed') done = polled;
      else await new Promise((res) => setTimeout(res, 50));
    }
    expect(done?.data.result?.length).toBeGreaterThan(0);
    expect(done!.meta.creditsCharged).toBeGreaterThan(0);
    // Issue 22, item 18: get_job summarises the result as search_stays would: the properties, by line.
    const final = await m.client.callTool({ name: 'get_job', arguments: { jobId: job.data.jobId } });
    const text = textOf(final);
    expect(text.split('\n')[0]).toBe(`Job ${job.data.jobId} completed.`);
    for (const row of done!.data.result as { platform: string; platformListingId: string }[]) expect(text).toContain(`${row.platform} ${row.platformListingId}`);
    expect(text).toMatch(/^1\. .+: \w+ \S+, /m);
    const after = await balance();
    expect(before.balance - after.balance).toBe(done!.meta.creditsCharged);
  });

  it('without a key for the server, it does not start (exit 4) and says how to set one', () => {
    const { command, args } = mcpCommand(['--base-url', s.url]);
    const r = spawnSync(command, args, { cwd: ROOT, env: childEnv({ STAYS_CONFIG_DIR: `${s.dataDir}/mcp-config` }), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
    expect(r.status).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`stays mcp: no API key for ${s.url}`);
    expect(r.stderr).toContain('STAYS_API_KEY');
  });

  it("a refused key is a tool error with the API's authentication error", async () => {
    const m = await startMcp(['--base-url', s.url, '--api-key', 'stay_live_nope'], { STAYS_CONFIG_DIR: `${s.dataDir}/mcp-config` });
    started.push(m);
    const r = await m.client.callTool({ name: 'search_stays', arguments: { location: 'Lisbon' } });
    expect(r.isError).toBe(true);
    expect((r.structuredContent as { error: unknown }).error).toMatchObject({ type: 'authentication_error', requestId: expect.stringMatching(/^req_/) });
  });
});
