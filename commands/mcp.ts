// `stays mcp`: the MCP tool server over stdio, for desktop agents (Claude Desktop, Cursor, …)
// that start it as a child process. The same read-only tools as /mcp, in-process on the
// local store by default or against --base-url, with the key found as every command finds it.
// stdout carries JSON-RPC only; anything said goes to stderr. The MCP SDK loads only here.
import { type Command, Option } from 'commander';
import type { GlobalOpts } from './_lib/flags/options.js';
import { io } from './_lib/runtime/io.js';

interface McpOpts extends Pick<GlobalOpts, 'baseUrl' | 'apiKey' | 'dataDir' | 'profile' | 'debug'> {
  timeout: string;
}

export function defineMcp(program: Command): void {
  program
    .command('mcp')
    .description('Serve the API as MCP tools over stdio, for AI agents (Model Context Protocol)')
    .addOption(new Option('--base-url <url>', 'service root for remote mode (else in-process on the local store)').env('STAYS_BASE_URL'))
    .addOption(new Option('--api-key <key>', 'API key (else config, else a local sandbox key in-process)').env('STAYS_API_KEY'))
    .option('--data-dir <dir>', 'data directory for in-process mode (default: STAYS_DATA_DIR or the user data dir)')
    .addOption(new Option('--profile <name>', 'config profile').env('STAYS_PROFILE'))
    .option('--timeout <duration>', 'how long a tool call waits for a live job before returning its id for get_job, e.g. 25s, 2m', '25s')
    .option('--debug', 'log each request to stderr, key redacted (also STAYS_DEBUG=1)')
    .addHelpText(
      'after',
      `
Tools: search_stays, check_availability, get_listing, get_price, compare_prices, get_reviews,
get_job (all read-only). Billing, rate limits and errors are the API's: a tool error carries the
API's type, code, message, param and requestId.

An agent starts the server itself; in its MCP settings (Claude Desktop: claude_desktop_config.json):
  { "mcpServers": { "stays": { "command": "stays", "args": ["mcp"] } } }
Against a server, with a key:
  { "mcpServers": { "stays": { "command": "stays", "args": ["mcp"],
      "env": { "STAYS_BASE_URL": "http://127.0.0.1:8787", "STAYS_API_KEY": "stay_live_…" } } } }

Remote agents connect over HTTP instead: stays serve offers the same tools at /mcp (Streamable
HTTP), signing in with OAuth 2.1 + PKCE or an API key as the bearer; see stays serve --help.

Examples:
  stays mcp
  stays mcp --base-url http://127.0.0.1:8787 --api-key stay_test_…
  npx @modelcontextprotocol/inspector stays mcp`,
    )
    .action(async (opts: McpOpts) => {
      const [{ createContext }, { parseDuration }, { UsageError }, { EXIT }] = await Promise.all([
        import('./_lib/runtime/context.js'),
        import('./_lib/flags/options.js'),
        import('./_lib/runtime/errors.js'),
        import('./_lib/runtime/io.js'),
      ]);
      try {
        const waitMs = Math.round(parseDuration(opts.timeout) * 1000);
        if (waitMs > 600_000) throw new UsageError(`--timeout must be at most 10m (got ${opts.timeout}): agents give up on a tool call long before.`, 'timeout');
        // The same mode and key resolution as every data command; nothing prompts, nothing prints to stdout.
        const ctx = await createContext({
          baseUrl: opts.baseUrl,
          apiKey: opts.apiKey,
          dataDir: opts.dataDir,
          profile: opts.profile,
          debug: opts.debug,
          timeout: opts.timeout,
          input: false,
          color: false,
          output: 'json',
        });
        if (ctx.keySource === null) {
          await ctx.close();
          io().stderr.write(
            `stays mcp: no API key for ${ctx.sharedStore ?? ctx.base}: every tool call would be refused. Set STAYS_API_KEY in the agent's MCP server settings (its "env"), or pass --api-key, or stays config set api-key KEY.\n`,
          );
          io().exitCode = EXIT.auth;
          return;
        }
        const { runStdio } = await import('../src/mcp/stdio.js');
        const { TOOLS } = await import('../src/mcp/tools/index.js');
        io().stderr.write(
          `stays mcp: serving ${TOOLS.length} tools over stdio (${ctx.inProcess ? 'in-process' : ctx.base}; ${ctx.keySource === 'local' ? 'the local sandbox key' : `a ${ctx.keyEnv} key`})\n`,
        );
        await runStdio({ client: ctx.client, waitMs, stdin: io().stdin, stdout: io().stdout });
        ctx.ui.stop();
      } catch (e) {
        io().stderr.write(`stays mcp: ${(e as Error).message}\n`);
        io().exitCode = e instanceof UsageError ? EXIT.usage : EXIT.internal;
      } finally {
        // Nothing should be left running; if a dependency keeps a handle open, do not hang the agent.
        const exit = io().exit;
        if (exit) setTimeout(() => exit(), 2000).unref();
      }
    });
}
