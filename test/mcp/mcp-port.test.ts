// `stays serve --mcp-port P`: a second address serving the tool server and its OAuth endpoints,
// and nothing of /v1.
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli, tempDir } from '../helpers/stays.js';
import { httpClient } from './helpers.js';

describe('stays serve --mcp-port', () => {
  let child: ChildProcess;
  let dataDir: string;
  let url: string;
  let mcpUrl: string;

  beforeAll(async () => {
    dataDir = tempDir();
    child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--mcp-port', '0', '--data-dir', dataDir], { env: { ...process.env, STAYS_LOG_LEVEL: 'warn' }, stdio: ['ignore', 'ignore', 'pipe'] });
    [url, mcpUrl] = await new Promise<[string, string]>((resolve, reject) => {
      let err = '';
      const timer = setTimeout(() => reject(new Error(`server did not start: ${err}`)), 20_000);
      child.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
        const a = /listening on (http:\/\/\S+)/.exec(err);
        const b = /MCP tool server on (http:\/\/\S+)\/mcp/.exec(err);
        if (a && b) {
          clearTimeout(timer);
          resolve([a[1]!, b[1]!]);
        }
      });
    });
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves /mcp on the second port, and refuses /v1 there', async () => {
    expect(mcpUrl).not.toBe(url);
    const admin = async (...args: string[]) => JSON.parse((await runCli(['admin', ...args, '--json', '--data-dir', dataDir])).stdout) as { id: string; key: string };
    const acct = await admin('account', 'create', '--plan', 'pro', '--credits', '10');
    const key = await admin('key', 'create', '--account', acct.id, '--env', 'sandbox');
    const client = await httpClient(`${mcpUrl}/mcp`, key.key);
    try {
      expect((await client.listTools()).tools).toHaveLength(7);
    } finally {
      await client.close();
    }
    const v1 = await fetch(`${mcpUrl}/v1/account`, { headers: { authorization: `Bearer ${key.key}` } });
    expect(v1.status).toBe(404);
    expect(((await v1.json()) as { error: { code: string } }).error.code).toBe('route_not_found');
    expect((await fetch(`${url}/v1/account`, { headers: { authorization: `Bearer ${key.key}` } })).status).toBe(200);
  });
});
