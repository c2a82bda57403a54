// Every tool called once through the protocol, in-process on the sandbox (no child process): the
// structured content is the API's envelope and the summary says what came back and what it cost.
import { rmSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StaysClient, createClient, inProcessTransport } from '../../src/client/index.js';
import { createAccount, createKey } from '../../src/core/admin.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { day, tempDir } from '../helpers/stays.js';
import { textOf } from './helpers.js';

describe('each tool in the sandbox', () => {
  const dir = tempDir('stays-mcp-tools-');
  let api: StaysClient;
  let client: Client;

  beforeAll(async () => {
    const transport = inProcessTransport({ dataDir: dir, deliverMs: 0 });
    const rt = await transport.runtime();
    const account = await createAccount(rt, { plan: 'free' });
    const { key } = await createKey(rt, { accountId: account.id, env: 'sandbox' });
    api = createClient({ transport, apiKey: key });
    const server = createMcpServer({ client: () => api });
    const [a, b] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: 'tools-call', version: '0' });
    await Promise.all([server.connect(a), client.connect(b)]);
  });
  afterAll(async () => {
    await client?.close();
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await client.callTool({ name, arguments: args });
    return { r, text: textOf(r), body: r.structuredContent as { data: unknown; meta: { creditsCharged: number; partial: boolean } } };
  };
  const stay = { checkIn: day(30), checkOut: day(33) };

  it('search_stays: counts per platform, a line per row, the next cursor', async () => {
    const { r, text, body } = await call('search_stays', { location: 'Porto', limit: 2, platforms: ['airbnb', 'booking'] });
    expect(r.isError).toBeFalsy();
    expect(body.data).toHaveLength(4);
    expect(text.split('\n')[0]).toBe('4 properties in Porto (airbnb 2, booking 2); no credits charged (sandbox key).');
    expect(text).toMatch(/^1\. .+: (airbnb|booking) /m);
    expect(text).toMatch(/cursor "[A-Za-z0-9_-]+"/);
    // The same answer as JSON text too, for clients that do not read structuredContent.
    expect(JSON.parse((r.content as { text: string }[])[1]!.text)).toEqual(body);
  });

  // Issue 22, item 18: the hint names the argument each follow-up tool really takes.
  it('search_stays: the next-call hint names arguments the follow-up tools have', async () => {
    const { text } = await call('search_stays', { location: 'Porto', limit: 1, platforms: ['airbnb'] });
    const hint = text.split('\n').find((l) => l.startsWith('Next:'))!;
    expect(hint).toBeTruthy();
    expect(hint).not.toMatch(/with get_listing/);
    const { tools } = await client.listTools();
    const named = [...hint.matchAll(/(\w+) \{platform, (\w+): platformListingId\}/g)].map((m) => [m[1]!, m[2]!] as const);
    expect(named.map(([t]) => t)).toEqual(['get_listing', 'get_price', 'check_availability', 'get_reviews']);
    for (const [tool, arg] of named) expect(Object.keys(tools.find((t) => t.name === tool)!.inputSchema.properties ?? {}), `${tool} ${arg}`).toContain(arg);
    expect(named[0]).toEqual(['get_listing', 'id']);
  });

  it('search_stays: a partial answer says so', async () => {
    const { text, body } = await call('search_stays', { location: 'partial', limit: 1 });
    expect(body.meta.partial).toBe(true);
    expect(text).toContain('google failed (all_actors_failed)');
    expect(text).toContain('Partial: some platforms failed');
  });

  it('get_listing, with dates: the listing and its price', async () => {
    const { r, text } = await call('get_listing', { platform: 'airbnb', id: '12345678', ...stay });
    expect(r.isError).toBeFalsy();
    expect(text).toMatch(/^.+ \(airbnb 12345678\): \w+ in /);
    expect(text).toMatch(/Price: [\d,.]+ USD for 3 nights/);
  });

  it('get_price: total, nightly and fees', async () => {
    const { text } = await call('get_price', { platform: 'booking', listingId: 'pt/casa-azul', ...stay, adults: 3 });
    expect(text).toMatch(new RegExp(`^booking pt/casa-azul, ${stay.checkIn} to ${stay.checkOut}, 3 nights, 3 adults: [\\d,.]+ USD total`));
    expect(text).toContain('The total includes: cleaning unknown, service fee unknown, taxes yes.');
  });

  it('compare_prices, direct mode: offers, min and median', async () => {
    const { r, text } = await call('compare_prices', { listings: ['airbnb:12345678', 'booking:pt/casa-azul'], ...stay });
    expect(r.isError).toBeFalsy();
    expect(text).toMatch(/: 2 offers, min [\d,.]+ USD, median [\d,.]+ USD/);
    expect(text).toMatch(/^- airbnb 12345678: [\d,.]+ USD/m);
    // Honest prices (issue 27, item 3): the service's order (the offer with known inclusions
    // first), what each other total leaves unknown, and the warning saying why.
    const lines = text.split('\n').filter((l) => l.startsWith('- '));
    expect(lines[0]).toMatch(/^- airbnb 12345678: /);
    expect(lines[1]).toMatch(/^- booking pt\/casa-azul: [\d,.]+ USD, [\d,.]+ USD\/night \(total includes taxes; unknown whether it includes cleaning, service fee\) https:/);
    expect(text).toMatch(/^Warning \(price_inclusions_differ\): Offers whose totals include different things are not ranked together/m);
  });

  it('check_availability, a batch: one line per listing', async () => {
    const { text } = await call('check_availability', { platform: 'vrbo', listingIds: ['4886746', '4886747'], startDate: day(10), endDate: day(20) });
    expect(text.split('\n').filter((l) => l.startsWith('vrbo '))).toHaveLength(2);
    expect(text).toMatch(/of 10 days available/);
  });

  it('get_reviews: a line per review and the next cursor', async () => {
    const { text } = await call('get_reviews', { platform: 'airbnb', listingId: '12345678', limit: 2 });
    expect(text).toMatch(/^2 reviews of airbnb 12345678, average [\d.]+\/5 on this page/);
    expect(text.split('\n').filter((l) => l.startsWith('- '))).toHaveLength(2);
  });

  it("get_job: an unknown job is the API's job_not_found", async () => {
    const { r } = await call('get_job', { jobId: 'job_01M84TE32KDJ1F1BH73HNDP4KN' });
    expect(r.isError).toBe(true);
    expect((r.structuredContent as { error: unknown }).error).toMatchObject({ type: 'not_found', code: 'job_not_found', param: 'jobId' });
  });

  it('an upstream failure is a retryable tool error', async () => {
    const { r, text } = await call('get_price', { platform: 'airbnb', listingId: '503', ...stay });
    expect(r.isError).toBe(true);
    expect((r.structuredContent as { error: unknown }).error).toMatchObject({ type: 'upstream_unavailable', retryable: true });
    expect(text).toContain('retryable: yes');
  });
});
