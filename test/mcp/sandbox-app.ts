// The in-process app with an account of 1,000 credits and the SDK client over /mcp on its sandbox
// key, started before a file's tests and stopped after them (the MCP tool tests' common setup).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll } from 'vitest';
import { type TestApp, startApp } from '../helpers/app.js';
import type { TestAccount } from '../helpers/stays.js';
import { httpClient } from './helpers.js';

export interface SandboxMcp {
  readonly s: TestApp;
  readonly acct: TestAccount;
  readonly client: Client;
}

/** Registers the hooks; read the fields inside tests (they are set by beforeAll). */
export function sandboxMcpApp(): SandboxMcp {
  let s: TestApp | undefined;
  let acct: TestAccount | undefined;
  let client: Client | undefined;
  beforeAll(async () => {
    s = await startApp();
    acct = await s.account({ credits: 1000 });
    client = await httpClient(`${s.url}/mcp`, acct.sandboxKey, s.fetch);
  });
  afterAll(async () => {
    await client?.close();
    await s?.stop();
  });
  const set = <T>(v: T | undefined, name: string): T => {
    if (v === undefined) throw new Error(`sandboxMcpApp: ${name} read before beforeAll ran`);
    return v;
  };
  return {
    get s() {
      return set(s, 's');
    },
    get acct() {
      return set(acct, 'acct');
    },
    get client() {
      return set(client, 'client');
    },
  };
}
