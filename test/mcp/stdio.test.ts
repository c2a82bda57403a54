// `stays mcp` over stdio with the SDK's own client, in-process on a fresh data directory with
// the local sandbox key (issue 12: "answers tools/list and a tools/call over stdio").
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stays.js';
import { type McpProcess, ROOT, childEnv, mcpCommand, startMcp, textOf } from './helpers.js';

const TOOLS = [
  'search_stays',
  'check_availability',
  'get_listing',
  'get_price',
  'compare_prices',
  'get_reviews',
  'get_job',
  'get_price_history',
  'get_availability_changes',
  'get_market_metrics',
  'find_matches',
  'get_inferred_bookings',
];
/** The history, market, matches and bookings tools read this deployment's own store (issues 26, 27, 37): no world outside the server. */
const OWN_STORE = new Set(['get_price_history', 'get_availability_changes', 'get_market_metrics', 'find_matches', 'get_inferred_bookings']);

describe('stays mcp (stdio, in-process sandbox)', () => {
  const dir = tempDir('stays-mcp-');
  let mcp: McpProcess;

  beforeAll(async () => {
    mcp = await startMcp([], { STAYS_DATA_DIR: `${dir}/data`, STAYS_CONFIG_DIR: `${dir}/config` });
  });
  afterAll(async () => {
    await mcp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('introduces itself as stays', () => {
    expect(mcp.client.getServerVersion()).toMatchObject({ name: 'stays' });
    expect(mcp.client.getServerCapabilities()?.tools).toBeDefined();
  });

  it('lists exactly the twelve tools, each read-only and idempotent', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS);
    for (const t of tools) {
      expect(t.annotations, t.name).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: !OWN_STORE.has(t.name) });
      expect(t.inputSchema.type).toBe('object');
    }
  });

  it('search_stays answers the API envelope as structured content, with a text summary', async () => {
    const r = await mcp.client.callTool({ name: 'search_stays', arguments: { location: 'Lisbon' } });
    expect(r.isError).toBeFalsy();
    const body = r.structuredContent as { data: { platform: string; name: string }[]; meta: { requestId: string; creditsCharged: number; sandbox: boolean } };
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.meta).toMatchObject({ sandbox: true, creditsCharged: 0 });
    expect(body.meta.requestId).toMatch(/^req_/);
    const text = textOf(r);
    expect(text).toMatch(new RegExp(`^${body.data.length} properties in Lisbon \\(`));
    expect(text).toContain('no credits charged');
    expect(text).toContain(body.data[0]!.name.slice(0, 20));
  });

  it('an API error is a tool error carrying type, code, message and requestId', async () => {
    const r = await mcp.client.callTool({ name: 'get_listing', arguments: { platform: 'airbnb', id: '404' } });
    expect(r.isError).toBe(true);
    const { error } = r.structuredContent as { error: Record<string, unknown> };
    expect(error).toMatchObject({ type: 'not_found', code: 'listing_not_found', param: null });
    expect(error.message).toEqual(expect.any(String));
    expect(error.requestId).toMatch(/^req_/);
    expect(textOf(r)).toContain('listing_not_found');
    expect(textOf(r)).toContain(error.requestId as string);
  });

  it("a bad argument gets the API's own validation error, naming the parameter", async () => {
    const r = await mcp.client.callTool({ name: 'search_stays', arguments: { location: 'Lisbon', adults: 0 } });
    expect(r.isError).toBe(true);
    expect((r.structuredContent as { error: unknown }).error).toMatchObject({ type: 'invalid_request', code: 'invalid_parameter', param: 'adults' });
  });

  it('get_job without a jobId is refused before any request', async () => {
    const r = await mcp.client.callTool({ name: 'get_job', arguments: {} });
    expect(r.isError).toBe(true);
    expect((r.structuredContent as { error: unknown }).error).toMatchObject({ code: 'missing_parameter', param: 'jobId' });
  });

  it('an unknown tool is a protocol error', async () => {
    await expect(mcp.client.callTool({ name: 'book_stay', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it('says on stderr what it serves', () => {
    expect(mcp.stderr()).toContain(`stays mcp: serving ${TOOLS.length} tools over stdio (in-process; the local sandbox key)`);
  });
});

describe('stays mcp stdout', () => {
  it('carries JSON-RPC only, and the server exits when its input closes', async () => {
    const dir = tempDir('stays-mcp-raw-');
    const { command, args } = mcpCommand([]);
    const child = spawn(command, args, { cwd: ROOT, env: childEnv({ STAYS_DATA_DIR: `${dir}/data`, STAYS_CONFIG_DIR: `${dir}/config` }), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const send = (m: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/call', params: { name: 'search_stays', arguments: { location: 'Porto', limit: 1 } } });
    // Both answers in, then the agent hangs up.
    for (let i = 0; i < 300 && !out.includes('"id":2'); i++) await new Promise((r) => setTimeout(r, 50));
    child.stdin.end();
    const code = await exited;
    rmSync(dir, { recursive: true, force: true });
    const lines = out.trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(JSON.parse(lines[1]!).result.structuredContent.data).toHaveLength(4);
    expect(code).toBe(0);
  });
});
