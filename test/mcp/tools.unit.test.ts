// The public tool surface, snapshotted: names, titles, descriptions, input schemas and
// annotations as tools/list gives them, so any change to what agents see is a reviewed diff
// (test/mcp/__snapshots__/tools.json; update with vitest -u).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { SearchParams } from '../../src/core/schemas/params.js';
import { createMcpServer } from '../../src/mcp/server.js';

async function listed() {
  const server = createMcpServer({
    client: () => {
      throw new Error('tools/list needs no client');
    },
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'snapshot', version: '0' });
  await Promise.all([server.connect(a), client.connect(b)]);
  const result = await client.listTools();
  await client.close();
  return result;
}

describe('tools/list', () => {
  it('matches the reviewed snapshot', async () => {
    const { tools } = await listed();
    await expect(`${JSON.stringify({ tools }, null, 2)}\n`).toMatchFileSnapshot('./__snapshots__/tools.json');
  });

  it('generates each input schema from the core parameter schema', async () => {
    const { tools } = await listed();
    const search = tools.find((t) => t.name === 'search_stays')!;
    // Every core parameter, no other; required only when there is no default.
    expect(Object.keys(search.inputSchema.properties ?? {})).toEqual(Object.keys(SearchParams.shape));
    expect(search.inputSchema.required).toEqual(['location']);
    expect(search.inputSchema.properties?.adults).toMatchObject({ type: 'integer', minimum: 1, default: 2 });
    const listing = tools.find((t) => t.name === 'get_listing')!;
    expect(listing.inputSchema.required).toEqual(['platform', 'id']);
    expect(tools.find((t) => t.name === 'get_job')!.inputSchema.required).toEqual(['jobId']);
  });
});
