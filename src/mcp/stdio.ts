// The tool server over stdio (`stays mcp`), for desktop agents that start it as a child process:
// JSON-RPC on stdin/stdout, nothing else on stdout. It runs until its input closes or it is
// signalled, then closes the server and the client (in-process: the store; jobs still running
// are failed, retryable, nothing charged).
import type { StaysClient } from '../client/core.js';
import { StdioServerTransport } from './sdk.js';
import { type StaysMcpOptions, createMcpServer } from './server.js';

export interface StdioOptions {
  client: StaysClient;
  waitMs?: StaysMcpOptions['waitMs'];
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}

/** Serves until stdin ends or SIGTERM/SIGINT; resolves once everything is closed. */
export async function runStdio(opts: StdioOptions): Promise<void> {
  const stdin = opts.stdin ?? process.stdin;
  const server = createMcpServer({ client: () => opts.client, waitMs: opts.waitMs });
  const transport = new StdioServerTransport(stdin as typeof process.stdin, opts.stdout as typeof process.stdout | undefined);
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
    void server
      .close()
      .catch(() => {})
      .then(() => opts.client.close())
      .catch((e: unknown) => process.stderr.write(`stays mcp: closing: ${(e as Error).message}\n`))
      .finally(done);
  };
  // The SDK's stdio transport does not watch for the end of its input: the agent closing our
  // stdin is how it says goodbye.
  stdin.once('end', stop);
  stdin.once('close', stop);
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  transport.onclose = stop;
  await server.connect(transport);
  return finished;
}
