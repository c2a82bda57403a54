// `stays serve --mcp-port P`: a second address serving the tool server and its OAuth endpoints,
// and nothing of /v1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServeWithMcpPort } from '../helpers/stays.js';
import { httpClient } from './helpers.js';

describe('stays serve --mcp-port', () => {
  let url: string;
  let mcpUrl: string;
  let dataDir: string;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ url, mcpUrl, dataDir, stop } = await startServeWithMcpPort());
  });
  afterAll(() => stop());

  it('serves /mcp on the second port, and refuses /v1 there', async () => {
    expect(mcpUrl).not.toBe(url);
    const admin = async (...args: string[]) => JSON.parse((await runCli(['admin', ...args, '--json', '--data-dir', dataDir])).stdout) as { id: string; key: string };
    const acct = await admin('account', 'create', '--plan', 'pro', '--credits', '10');
    const key = await admin('key', 'create', '--account', acct.id, '--env', 'sandbox');
    const client = await httpClient(`${mcpUrl}/mcp`, key.key);
    try {
      expect((await client.listTools()).tools).toHaveLength(12);
    } finally {
      await client.close();
    }
    const v1 = await fetch(`${mcpUrl}/v1/account`, { headers: { authorization: `Bearer ${key.key}` } });
    expect(v1.status).toBe(404);
    expect(((await v1.json()) as { error: { code: string } }).error.code).toBe('route_not_found');
    expect((await fetch(`${url}/v1/account`, { headers: { authorization: `Bearer ${key.key}` } })).status).toBe(200);
  });
});
