// Helpers for the CLI tests: the built CLI as a child process on an isolated data dir and config
// dir (never the real home), with the environment cleared of anything that changes its mode.
import { spawn } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
