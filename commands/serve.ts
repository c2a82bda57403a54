// `stays serve`: run the API on a socket until SIGTERM/SIGINT.
import type { Command } from 'commander';

export function defineServe(program: Command): void {
  program
    .command('serve')
    .description('Run the /v1 API service (embedded SQLite store)')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free one)', '8787')
    .option('--data-dir <dir>', 'data directory (default: STAYS_DATA_DIR or the user data dir)')
    .addHelpText('after', '\nExamples:\n  stays serve\n  stays serve --port 9000 --data-dir ./data\n  curl -H "Authorization: Bearer $KEY" http://127.0.0.1:8787/v1/account')
    .action(async (opts: { host: string; port: string; dataDir?: string }) => {
      const port = Number(opts.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        process.stderr.write(`stays serve: --port must be an integer from 0 to 65535 (got ${opts.port})\n`);
        process.exit(2);
      }
      const [{ startServer }, v8] = await Promise.all([import('../src/server.js'), import('node:v8')]);
      const server = await startServer({ host: opts.host, port, config: opts.dataDir ? { dataDir: opts.dataDir } : {} });
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
      process.stderr.write(`stays: listening on ${server.url} (data: ${server.runtime.config.dataDir})\n`);
    });
}
