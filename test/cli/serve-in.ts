// `stays serve` in the test's own process, for the in-process CLI tests that run a command against a
// remote server (--base-url): src/server.ts's startServer, which `stays serve` runs, listening on a
// loopback port of its own, so the CLI (staysIn) talks HTTP to it as to any server. It offers what
// those tests used of the e2e harness's startStays (test/helpers/stays.ts): url, dataDir, stdout
// (its log), admin (`stays admin` run through staysIn on the same data directory, as the e2e
// harness runs it as another process), account (seeded as the e2e harness seeds), req, fetch and stop.
import { rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import pino from 'pino';
import { startServer } from '../../src/server.js';
import { type AccountOpts, type Api, type TestAccount, tempDir } from '../helpers/stays.js';
import { staysIn } from './helpers.js';

export interface Served extends Api {
  /**
   * Closes it as its shutdown does, without a grace period unless `env` gave one
   * (STAYS_SHUTDOWN_GRACE_MS): no test here watches a shutdown, and jobs still running are failed.
   * `signal` is accepted for startStays's callers and ignored. Removes the data directory.
   */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** `env`: STAYS_* settings as the server's environment would hold them (the test process's own is not read). */
export async function serveIn(env: NodeJS.ProcessEnv = {}): Promise<Served> {
  const dataDir = tempDir();
  let log = '';
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      if (log.length < 1_000_000) log += chunk.toString();
      done();
    },
  });
  const settings = { STAYS_LOG_LEVEL: 'warn', STAYS_SHUTDOWN_GRACE_MS: '0', ...env };
  const logger = pino({ level: settings.STAYS_LOG_LEVEL, base: undefined }, sink);
  const server = await startServer({ port: 0, config: { dataDir }, env: settings, logger });

  const admin = async <T>(...args: string[]): Promise<T> => {
    const r = await staysIn(['admin', ...args, '--json', '--data-dir', dataDir]);
    if (r.code !== 0) throw new Error(`stays admin ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
    return JSON.parse(r.stdout) as T;
  };
  let stopped: Promise<void> | undefined;
  return {
    url: server.url,
    dataDir,
    stdout: () => log,
    admin,
    async account(o: AccountOpts = {}): Promise<TestAccount> {
      // What `stays admin account create` and `key create` call, on the same data directory (../helpers/seed.ts).
      const { accountIn } = await import('../helpers/seed.js');
      return accountIn(dataDir, o);
    },
    req(path, init = {}) {
      const { key, headers, ...rest } = init;
      const h = new Headers(headers);
      if (key !== undefined) h.set('authorization', `Bearer ${key}`);
      return fetch(server.url + path, { ...rest, headers: h });
    },
    fetch: (input, init) => fetch(input, init),
    stop() {
      return (stopped ??= (async () => {
        await server.close();
        rmSync(dataDir, { recursive: true, force: true });
      })());
    },
  };
}
