// Starting `stays mcp` as an agent would: the built CLI as a child process on stdio, with the
// official SDK client connected to it.
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BIN } from '../helpers/stays.js';

export const ROOT = resolve(import.meta.dirname, '../..');

/** How to start `stays mcp ARGS`: the built CLI. */
export function mcpCommand(args: string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: [BIN, 'mcp', ...args] };
}

export interface McpProcess {
  client: Client;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** The child's environment: no inherited STAYS_ settings (key, base URL, profile), then `env`. */
export function childEnv(env: Record<string, string>): Record<string, string> {
  const base = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && !/^STAYS_/.test(e[0])));
  return { ...base, ...env };
}

export async function startMcp(args: string[], env: Record<string, string>): Promise<McpProcess> {
  const { command, args: argv } = mcpCommand(args);
  const transport = new StdioClientTransport({ command, args: argv, cwd: ROOT, env: childEnv(env), stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'stays-test', version: '0.0.0' });
  try {
    await client.connect(transport);
  } catch (e) {
    throw new Error(`stays mcp did not start: ${(e as Error).message}\n${stderr}`);
  }
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** The text of a tool result's first content block. */
export function textOf(result: object): string {
  const first = ((result as { content?: unknown }).content as { type: string; text?: string }[] | undefined)?.[0];
  return first?.type === 'text' ? (first.text ?? '') : '';
}

/**
 * The SDK client over Streamable HTTP at `url`, sending `bearer` (an API key or an OAuth access
 * token); through `fetch` when given (the in-process app's, test/helpers/app.ts), else the global one.
 */
export async function httpClient(url: string, bearer: string, fetch?: (input: string | URL, init?: RequestInit) => Promise<Response>): Promise<Client> {
  const client = new Client({ name: 'stays-test', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${bearer}` } }, fetch }));
  return client;
}
