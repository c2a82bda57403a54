// README.md's "First five minutes", run verbatim: every `stays …` line of that block (and of the
// output examples under it) through bash, with `stays` on PATH as the built CLI, on a fresh
// machine (empty data and config directories). The install line is what `npm ci` already did.
import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, tempDir } from '../helpers/stays.js';
import { freshSandbox } from './helpers.js';

const README = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');

/** The shell lines of the sh blocks of one README section (up to the next heading). */
function section(title: string): string[] {
  const start = README.indexOf(`### ${title}\n`);
  if (start < 0) throw new Error(`README has no section "${title}"`);
  const end = README.indexOf('\n#', start + 4);
  const body = README.slice(start, end < 0 ? undefined : end);
  return [...body.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n')).filter((l) => l.trim() && !l.startsWith('#'));
}

function bash(line: string, env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const base = { ...process.env };
  for (const k of ['STAYS_BASE_URL', 'STAYS_API_KEY', 'STAYS_PROFILE', 'STAYS_DEBUG', 'CI']) delete base[k];
  const child = spawn('bash', ['-o', 'pipefail', '-c', line], { env: { ...base, ...env }, cwd });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((r) => child.once('close', (code) => r({ code, stdout, stderr })));
}

describe('README: first five minutes, verbatim', () => {
  const lines = section('First five minutes');

  it('has the commands a newcomer runs', () => {
    expect(lines.filter((l) => l.startsWith('stays ')).length).toBeGreaterThanOrEqual(8);
  });

  it('every line runs on a fresh machine and exits 0 with output', async () => {
    const box = freshSandbox();
    const bin = tempDir('stays-path-');
    const wrapper = join(bin, 'stays');
    writeFileSync(wrapper, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(wrapper, 0o755);
    const work = tempDir('stays-work-');
    const env = { ...box.env, PATH: `${bin}:${process.env.PATH}` };
    for (const line of lines) {
      // The install line: `npm ci` has run; `npm install -g .` would touch the machine.
      if (line.startsWith('npm ')) continue;
      const r = await bash(line, env, work);
      expect(r.code, `${line}\n${r.stderr}`).toBe(0);
      expect(r.stderr, line).not.toMatch(/error:|unexpected/i);
      // Every example either prints rows or writes the file it names.
      if (!/>\s*\S+\s*(#.*)?$/.test(line)) expect(r.stdout.trim().length, line).toBeGreaterThan(0);
    }
  }, 120_000);
});
