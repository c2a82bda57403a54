// `stays mcp --base-url` against a real `stays serve` with a live key and the simulated upstream:
// live calls become jobs, the tools wait for them, and what the account is charged is exactly
// the credits the tools report (the same billing as REST, because it is REST).
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stays, type TestAccount, day, startStays } from '../helpers/stays.js';
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
    expect(m.stderr()).toContain(`serving 12 tools over stdio (${s.url}; a live key)`);
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

  // Issue 26, item 6: a live call records what it observed; the history tools read it back, free.
  it('get_price_history and get_availability_changes read back what live calls observed, free', async () => {
    const m = await mcp([]);
    const stay = { platform: 'airbnb', listingId: '12345678', checkIn: day(40), checkOut: day(43), adults: 2 };
    const quote = await m.client.callTool({ name: 'get_price', arguments: stay });
    expect(quote.isError, textOf(quote)).toBeFalsy();
    const p = (quote.structuredContent as unknown as { data: { totalPrice: number; nightlyPrice: number; currency: string }; meta: { creditsCharged: number } }).data;
    const before = await balance();
    const r = await m.client.callTool({ name: 'get_price_history', arguments: stay });
    expect(r.isError, textOf(r)).toBeFalsy();
    const hist = r.structuredContent as unknown as {
      data: { totalPrice: number; nightlyPrice: number; currency: string; timesSeen: number; source: string }[];
      meta: { creditsCharged: number; environment: string };
    };
    expect(hist.meta).toMatchObject({ environment: 'live', creditsCharged: 0 });
    // One quote observed: one row, its values.
    expect(hist.data).toHaveLength(1);
    expect(hist.data[0]).toMatchObject({ totalPrice: p.totalPrice, nightlyPrice: p.nightlyPrice, currency: p.currency, timesSeen: 1, source: 'simulated' });
    expect(textOf(r)).toMatch(/^1 distinct price of airbnb 12345678, .+; 0 credits charged\.$/m);
    expect(await balance()).toEqual(before);

    const window = { platform: 'vrbo', listingId: '4886746', startDate: day(10), endDate: day(17) };
    const cal = await m.client.callTool({ name: 'check_availability', arguments: window });
    expect(cal.isError, textOf(cal)).toBeFalsy();
    const beforeChanges = await balance();
    const days = (cal.structuredContent as unknown as { data: { dates: { date: string; available: boolean }[] }[] }).data[0]!.dates;
    const changes = await m.client.callTool({ name: 'get_availability_changes', arguments: window });
    expect(changes.isError, textOf(changes)).toBeFalsy();
    const h = (changes.structuredContent as unknown as { data: { changes: { date: string; available: { from: boolean | null; to: boolean } }[]; latest: { date: string; available: boolean }[] } })
      .data;
    // One calendar observed: each night first seen, as the calendar said.
    expect(h.changes.map((c) => [c.date, c.available])).toEqual(days.map((d) => [d.date, { from: null, to: d.available }]));
    expect(h.latest.map((d) => [d.date, d.available])).toEqual(days.map((d) => [d.date, d.available]));
    expect(textOf(changes)).toContain(`Latest: ${days.filter((d) => d.available).length} of 7 observed nights available`);
    expect(await balance()).toEqual(beforeChanges);

    // A listing this deployment never observed: the typed error, not an empty answer.
    const never = await m.client.callTool({ name: 'get_price_history', arguments: { ...stay, listingId: '99999991' } });
    expect(never.isError).toBe(true);
    expect((never.structuredContent as { error: unknown }).error).toMatchObject({ code: 'listing_not_found', param: 'listingId', requestId: expect.stringMatching(/^req_/) });
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
