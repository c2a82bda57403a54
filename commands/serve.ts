// `stays serve`: run the API on a socket until SIGTERM/SIGINT.
import type { Command } from 'commander';

export function defineServe(program: Command): void {
  program
    .command('serve')
    .description('Run the /v1 API service (embedded SQLite, or PostgreSQL for several instances)')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free one)', '8787')
    .option('--mcp-port <port>', 'also serve the MCP tool server (/mcp) and its OAuth endpoints on this port')
    .option('--data-dir <dir>', 'data directory (default: STAYS_DATA_DIR or the user data dir)')
    .option('--database-url <url>', 'PostgreSQL shared by several instances, postgres://user@host/db (default: STAYS_DATABASE_URL, else SQLite in the data directory)')
    .addHelpText(
      'after',
      `
Environment (src/config.ts; the flags above win):
  STAYS_DATA_DIR             data directory, like --data-dir
  STAYS_DATABASE_URL         PostgreSQL for several instances, like --database-url (docs/deploy.md);
                             then every instance needs the same STAYS_SECRET_KEY
  STAYS_DATABASE_POOL_MAX    connections one instance keeps to PostgreSQL for requests (default 10)
  STAYS_DATABASE_QUEUE_MAX   requests that may wait for one before new ones get 503 (default 1000)
  STAYS_DATABASE_QUEUE_TIMEOUT_MS  longest wait for a connection before a 503 (default 5000)
  STAYS_UPSTREAM             where live keys get data: none (default; live calls answer 503),
                             simulated (the sandbox world with latency and failures, below) or
                             apify (the scraping platform's actors; check them with stays doctor)
  STAYS_APIFY_TOKEN          apify: the platform's API token (never logged)
  STAYS_ACTORS               apify: platform → need → actor ids over the defaults (JSON or a file)
  STAYS_APIFY_BASE_URL       apify: the platform's API root (default https://api.apify.com)
  STAYS_SIM_LATENCY_MS       simulated upstream: latency of each call, 2000 (default) or per
                             platform, airbnb=3000,booking=500
  STAYS_SIM_FAIL             simulated upstream: platforms that fail and how, e.g.
                             vrbo=all_actors_failed,booking=actor_timeout
  STAYS_SIM_CALENDARS        simulated upstream: calendars and reviews of the moving world
                             (moving, default) or of the calendar families
                             (families[:SEED[:FAMILIES]], e.g. families:3:notice,prep)
  STAYS_SOURCE_DEADLINE_MS   deadline of one upstream call (default 120000)
  STAYS_LOG_LEVEL            fatal, error, warn, info (default), debug, trace or silent
  STAYS_SHUTDOWN_GRACE_MS    time running jobs get to finish on SIGTERM/SIGINT (default 10000);
                             webhook deliveries in flight get it too
  STAYS_JOB_LEASE_MS         a job whose process stops renewing its lease this long is failed (default 30000)
  STAYS_FREE_TIER_BUDGET     free-tier credit budget (default 300)
  STAYS_ANON_RPM             requests per minute without a valid key, per address (default 600)
  STAYS_TOPUP_MAX_PER_DAY    live top-up credits per account per UTC day (default 0: refused)
  STAYS_MEMORY_CACHE_MB      what the in-memory caches may hold (default 64)
  STAYS_HEAP_GROWTH_PERCENT  V8 heap growth past its live size before a full collection (default 100)
  STAYS_DOCS_URL             base of every docUrl (default: this server's /docs)
  STAYS_S_SYNC_WAIT_MS       how long a Family S stay lookup waits for its live job before a 202 (default 60000)
  STAYS_WEBHOOK_TIMEOUT_MS   time one webhook delivery attempt may take (default 10000)
  STAYS_WEBHOOK_DISABLE_AFTER failed delivery attempts in a row that disable a webhook (default 20)
  STAYS_WEBHOOK_DENY_PRIVATE 1: refuse loopback, private and link-local webhook targets; 0: allow them
                             (default: refused when --host is not loopback or STAYS_PUBLIC_URL is set)
  STAYS_SECRET_KEY           key sealing webhook signing secrets, 32 bytes in hex or base64
                             (default: generated into the data directory as secret.key)
  STAYS_PUBLIC_URL           the public URL clients reach this server at (https://host): the OAuth
                             issuer and metadata URLs of /mcp, and docUrls (default: the server's own
                             address, never the Host header); required for OAuth with a non-loopback --host
  STAYS_OAUTH_ACCESS_TTL_S   lifetime of an OAuth access token for /mcp in seconds (default 3600)
  STAYS_OAUTH_REGISTER_PER_HOUR
                             OAuth client registrations per address per hour (default 20)
  STAYS_HEADERS_TIMEOUT_MS   a connection that sends no request headers this long gets a 408 (default 15000)
  STAYS_MAX_CONNECTIONS_PER_ADDRESS
                             connections one address may hold open; more are closed (default 1024, 0: no cap)

Examples:
  stays serve
  stays serve --port 9000 --data-dir ./data
  STAYS_SECRET_KEY=$(cat secret.hex) stays serve --database-url postgres://stays@db.internal/stays
  STAYS_UPSTREAM=simulated STAYS_SIM_LATENCY_MS=500 stays serve
  STAYS_PUBLIC_URL=https://stays.example.com stays serve --mcp-port 8788
  curl -H "Authorization: Bearer $KEY" http://127.0.0.1:8787/v1/account`,
    )
    .action(async (opts: { host: string; port: string; mcpPort?: string; dataDir?: string; databaseUrl?: string }) => {
      const portOf = (flag: string, value: string) => {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 0 || n > 65535) {
          process.stderr.write(`stays serve: ${flag} must be an integer from 0 to 65535 (got ${value})\n`);
          process.exit(2);
        }
        return n;
      };
      const port = portOf('--port', opts.port);
      const mcpPort = opts.mcpPort === undefined ? undefined : portOf('--mcp-port', opts.mcpPort);
      const [{ startServer }, v8] = await Promise.all([import('../src/server.js'), import('node:v8')]);
      const server = await startServer({
        host: opts.host,
        port,
        mcpPort,
        config: { ...(opts.dataDir ? { dataDir: opts.dataDir } : {}), ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}) },
        flags: { dataDir: '--data-dir', databaseUrl: '--database-url' },
      });
      // V8 lets the heap grow to about four times what is live before a full collection; with
      // caches churning under load that is most of the process's memory (docs/benchmarks.md,
      // memory). A server process bounds it; read by the heap controller at each collection.
      const growth = server.runtime.config.heapGrowthPercent;
      if (growth > 0) v8.setFlagsFromString(`--heap-growing-percent=${growth}`);
      // V8 code caches carry a hash of the flags: put it back before bin/stays saves one at exit,
      // or the next start (default flags) would reject it every time.
      process.prependOnceListener('exit', () => v8.setFlagsFromString('--heap-growing-percent=0'));
      const grace = server.runtime.config.shutdownGraceMs;
      const stop = (signal: string) => {
        process.stderr.write(`stays: ${signal} received, shutting down (running jobs get ${grace / 1000} s to finish)\n`);
        // A last resort if the store itself hangs: the shutdown below is bounded by the grace period.
        setTimeout(() => process.exit(1), grace + 10_000).unref();
        server.close().then(
          ({ abandoned }) => {
            if (abandoned > 0) process.stderr.write(`stays: ${abandoned} job(s) did not finish in time; failed (retryable), nothing charged\n`);
            process.exit(0);
          },
          (e: unknown) => {
            process.stderr.write(`stays: shutdown failed: ${(e as Error).message}\n`);
            process.exit(1);
          },
        );
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
      // Announced only once the handlers are in place, so a supervisor may signal at once.
      const [{ redactUrl }, { isLoopbackHost }] = await Promise.all([import('../src/store/db-url.js'), import('../src/webhooks/targets.js')]);
      // Before the announcement, so whoever waits for it has the warning too.
      if (!isLoopbackHost(opts.host) && !server.runtime.config.publicUrl) {
        process.stderr.write(
          `stays: warning: OAuth for MCP clients is off: this server listens on ${opts.host}, reachable from other hosts, and STAYS_PUBLIC_URL is not set ` +
            '(its OAuth endpoints answer 501 public_url_required). Set STAYS_PUBLIC_URL to the URL clients reach it at; API keys work meanwhile.\n',
        );
      }
      const data = server.runtime.config.databaseUrl ? `PostgreSQL ${redactUrl(server.runtime.config.databaseUrl)}` : server.runtime.config.dataDir;
      process.stderr.write(`stays: listening on ${server.url} (data: ${data})\n`);
      if (server.mcpUrl) process.stderr.write(`stays: MCP tool server on ${server.mcpUrl}/mcp\n`);
    });
}
