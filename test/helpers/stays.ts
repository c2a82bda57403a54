// Black-box harness: the built CLI as a child process (`stays serve`, `stays admin`) on a temp
// data directory, reached over real HTTP on loopback. Test accounts are seeded from this process
// through the functions `stays admin` calls (./seed.ts), on the server's store.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { AccountOpts, TestAccount } from './seed.js';

const run = promisify(execFile);
export const BIN = resolve(import.meta.dirname, '../../bin/stays');

/**
 * What a test needs of a server to call it: the e2e `Stays` below (a `stays serve` process) and
 * the in-process `TestApp` (./app.ts) both offer it, so helpers taking an `Api` serve either tier.
 */
export interface Api {
  url: string;
  dataDir: string;
  /** What the server wrote to stdout so far (its log). */
  stdout(): string;
  /** Runs `stays admin …ARGS --json --data-dir D` and returns the parsed JSON. */
  admin<T = Record<string, unknown>>(...args: string[]): Promise<T>;
  /**
   * An account with one key of each kind, made by the functions `stays admin` calls (./seed.ts),
   * on the server's store.
   */
  account(opts?: AccountOpts): Promise<TestAccount>;
  req(path: string, init?: RequestInit & { key?: string }): Promise<Response>;
  /**
   * fetch for absolute URLs, as a client given the server's URLs (metadata, redirects) calls
   * them: the global fetch here; in-process, URLs of the app's origin go to the app. For clients
   * that take a fetch (the MCP SDK's transport and OAuth).
   */
  fetch(input: string | URL, init?: RequestInit): Promise<Response>;
}

export interface Stays extends Api {
  child: ChildProcess;
  /** Stops the server and removes its data directory (unless `keepData`: another server shares it). */
  stop(signal?: NodeJS.Signals, opts?: { keepData?: boolean }): Promise<number | null>;
}

export type { AccountOpts, TestAccount } from './seed.js';

export function tempDir(prefix = 'stays-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function runCli(args: string[], env: NodeJS.ProcessEnv = {}) {
  try {
    const r = await run(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, maxBuffer: 32 * 1024 * 1024 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === 'number' ? err.code : 1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

/** `args`: more options of `stays serve` (e.g. `--host 0.0.0.0`). */
export async function startStays(env: NodeJS.ProcessEnv = {}, dataDir = tempDir(), args: string[] = []): Promise<Stays> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir, ...args], {
    env: { ...process.env, STAYS_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout!.on('data', (d: Buffer) => {
    if (stdout.length < 1_000_000) stdout += d.toString();
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${err}`)), 20_000);
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${err}`)));
  });

  const admin = async <T>(...args: string[]): Promise<T> => {
    const r = await runCli(['admin', ...args, '--json', '--data-dir', dataDir]);
    if (r.code !== 0) throw new Error(`stays admin ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
    return JSON.parse(r.stdout) as T;
  };

  const stays: Stays = {
    url,
    dataDir,
    child,
    stdout: () => stdout,
    admin,
    async account(o: AccountOpts = {}) {
      // What `stays admin account create` and `key create` call, in this process (./seed.ts):
      // three child processes per account were a large share of this tier's time.
      const { accountIn } = await import('./seed.js');
      return accountIn(dataDir, o);
    },
    req(path, init = {}) {
      const { key, headers, ...rest } = init;
      const h = new Headers(headers);
      if (key !== undefined) h.set('authorization', `Bearer ${key}`);
      return fetch(url + path, { ...rest, headers: h });
    },
    fetch: (input, init) => fetch(input, init),
    async stop(signal = 'SIGTERM', opts = {}) {
      if (child.exitCode !== null) return child.exitCode;
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill(signal);
      const code = await exited;
      if (!opts.keepData) rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
  return stays;
}

/** today + n days, UTC, YYYY-MM-DD. */
export function day(n: number): string {
  return new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
}

/** `stays serve --port 0 --mcp-port 0` on a temp data directory: its two addresses, and a stop that removes the directory. */
export async function startServeWithMcpPort(): Promise<{ url: string; mcpUrl: string; dataDir: string; stop(): Promise<void> }> {
  const dataDir = tempDir();
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--mcp-port', '0', '--data-dir', dataDir], {
    env: { ...process.env, STAYS_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const [url, mcpUrl] = await new Promise<[string, string]>((resolveUrls, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${err}`)), 20_000);
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const a = /listening on (http:\/\/\S+)/.exec(err);
      const b = /MCP tool server on (http:\/\/\S+)\/mcp/.exec(err);
      if (a && b) {
        clearTimeout(timer);
        resolveUrls([a[1]!, b[1]!]);
      }
    });
  });
  return {
    url,
    mcpUrl,
    dataDir,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
