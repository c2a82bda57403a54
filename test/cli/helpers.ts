// Helpers for the CLI tests: the CLI on an isolated data dir and config dir (never the real home),
// with the environment cleared of anything that changes its mode. `stays` runs the built CLI as a
// child process (e2e tier); `staysIn` runs the same command line in the test's own process through
// runCli (commands/cli.ts) with streams it reads back (the inprocess tier, docs/testing.md).
import { spawn } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { runCli } from '../../commands/cli.js';
import type { IOStreams, OutStream } from '../../commands/_lib/runtime/io.js';
import { BIN, tempDir } from '../helpers/stays.js';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Sandbox {
  dataDir: string;
  configDir: string;
  env: NodeJS.ProcessEnv;
}

/** A fresh machine: empty data dir, empty config dir. */
export function freshSandbox(): Sandbox {
  const root = tempDir('stays-cli-');
  const s = { dataDir: `${root}/data`, configDir: `${root}/config` };
  return { ...s, env: { STAYS_DATA_DIR: s.dataDir, STAYS_CONFIG_DIR: s.configDir } };
}

/** Variables a developer's shell may have set that would change what the CLI does. */
const CLEARED = ['STAYS_BASE_URL', 'STAYS_API_KEY', 'STAYS_PROFILE', 'STAYS_DEBUG', 'NO_COLOR', 'FORCE_COLOR', 'CI', 'STAYS_DATA_DIR', 'STAYS_CONFIG_DIR'];

export function stays(args: string[], env: NodeJS.ProcessEnv, opts: { input?: string; timeoutMs?: number } = {}): Promise<Run> {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const k of CLEARED) delete base[k];
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...base, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin.end(opts.input ?? '');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`stays ${args.join(' ')} did not finish: ${stderr}`));
    }, opts.timeoutMs ?? 20_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface InOpts {
  /** What stdin holds (it ends after it); nothing by default, as `stays(...)` gives a child. */
  input?: string;
  /** Which streams are terminals: true for all three, or each alone (default none, as a child's pipes). */
  tty?: boolean | { stdin?: boolean; stdout?: boolean; stderr?: boolean };
  /** The terminals' width (stdout and stderr), as a TTY reports it; default 80 when a TTY, else none. */
  columns?: number;
  timeoutMs?: number;
}

/** An output stream that keeps what is written, as a pipe or a terminal of the given width. */
function sink(isTTY: boolean, columns: number | undefined): OutStream & { text(): string } {
  const chunks: string[] = [];
  const w = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _enc, done) {
      chunks.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      done();
    },
  });
  // Written synchronously, as to a file or a terminal: what a run wrote is there when it resolves.
  const write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    done?.();
    return true;
  };
  return Object.assign(w, { write, isTTY: isTTY ? true : undefined, columns: isTTY ? (columns ?? 80) : undefined, text: () => chunks.join('') }) as unknown as OutStream & {
    text(): string;
  };
}

/**
 * `stays(args, env, opts)` without a child process: the command line runs through runCli in this
 * process, on streams that are pipes (or terminals, `tty`) and the same cleared environment, and
 * resolves to the same `{ code, stdout, stderr }`. What it cannot show stays e2e: signals, a real
 * terminal's raw mode, the bundle and bin/stays's loader (docs/testing.md).
 */
export async function staysIn(args: string[], env: NodeJS.ProcessEnv = {}, opts: InOpts = {}): Promise<Run> {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const k of CLEARED) delete base[k];
  const tty = typeof opts.tty === 'object' ? opts.tty : { stdin: opts.tty === true, stdout: opts.tty === true, stderr: opts.tty === true };
  const stdout = sink(tty.stdout === true, opts.columns);
  const stderr = sink(tty.stderr === true, opts.columns);
  let stdin: NodeJS.ReadableStream | undefined;
  const streams: IOStreams = {
    stdout,
    stderr,
    get stdin() {
      return (stdin ??= Object.assign(Readable.from(opts.input === undefined ? [] : [Buffer.from(opts.input)]), { isTTY: tty.stdin === true ? true : undefined }));
    },
    tty: { stdin: tty.stdin === true, stdout: tty.stdout === true, stderr: tty.stderr === true },
    env: { ...base, ...env },
    argv: [process.execPath, BIN, ...args],
    exitCode: undefined,
  };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`stays ${args.join(' ')} did not finish (in-process): ${stderr.text()}`)), opts.timeoutMs ?? 20_000);
  });
  try {
    const code = await Promise.race([runCli(args, streams), timeout]);
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  } finally {
    clearTimeout(timer);
  }
}

/** Parses stdout as JSON, with the run in the message when it is not. */
export function json<T = { data: unknown; meta: Record<string, unknown> }>(r: Run): T {
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(`stdout is not JSON (exit ${r.code}): ${r.stdout.slice(0, 300)} / stderr: ${r.stderr.slice(0, 300)}`);
  }
}

// eslint-disable-next-line no-control-regex
export const ANSI = /\x1b\[/;
// eslint-disable-next-line no-control-regex
export const SGR_COLOUR = /\x1b\[(3[0-9]|9[0-7]|4[0-9]|38;|1m|2m)/;
export const SPINNER_FRAMES = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

/** `stays` on PATH as the built CLI, for shell lines quoted verbatim from help and README. */
export function pathWithStays(): string {
  const bin = tempDir('stays-path-');
  const wrapper = join(bin, 'stays');
  writeFileSync(wrapper, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(wrapper, 0o755);
  return `${bin}:${process.env.PATH}`;
}

/** One shell line through bash (pipefail on), with the mode-changing variables cleared. */
export function bash(line: string, env: NodeJS.ProcessEnv, cwd: string): Promise<Run> {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const k of CLEARED) delete base[k];
  const child = spawn('bash', ['-o', 'pipefail', '-c', line], { env: { ...base, ...env }, cwd });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin.end();
  return new Promise((r) => child.once('close', (code) => r({ code, stdout, stderr })));
}

/**
 * Runs the built CLI with stdin, stdout and stderr on one pseudo-terminal of `cols` columns (a real
 * terminal: `script` from util-linux, which .ci/run installs), and returns what it showed.
 */
export function onPty(args: string[], env: NodeJS.ProcessEnv, cols = 120): Promise<{ code: number | null; screen: string }> {
  const quoted = `stty cols ${cols} rows 50; ${[process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')}`;
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const k of [...CLEARED, 'CI']) delete base[k];
  const child = spawn('script', ['-q', '-e', '-c', quoted, '/dev/null'], { env: { ...base, TERM: 'xterm-256color', ...env } });
  let screen = '';
  child.stdout.on('data', (d: Buffer) => (screen += d.toString()));
  child.stdin.end();
  return new Promise((r) => child.once('close', (code) => r({ code, screen })));
}
