// `stays api` through real processes: every example of its help (and any README line using it)
// runs, through a shell, on a fresh machine's default local account; --no-input does not wait for
// a real terminal (script(1)) to type a body. -o, --timeout and --input FILE are
// api-cmd.inprocess.test.ts's, the CLI run in this process.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli, tempDir } from '../helpers/stays.js';
import { type Sandbox, bash, freshSandbox, pathWithStays } from './helpers.js';

let box: Sandbox;
beforeAll(() => {
  box = freshSandbox();
});

describe('stays api examples', () => {
  it('every example in stays api --help exits 0 with output on a fresh machine', async () => {
    const help = await runCli(['api', '--help'], { COLUMNS: '200' });
    const examples = help.stdout
      .slice(help.stdout.indexOf('Examples:'))
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => /(^|\| )stays api /.test(l));
    expect(examples.length).toBeGreaterThanOrEqual(4);
    const fresh = freshSandbox();
    const env = { ...fresh.env, PATH: pathWithStays() };
    for (const line of examples) {
      const r = await bash(line, env, tempDir('stays-work-'));
      expect(r.code, `${line}\n${r.stderr}`).toBe(0);
      expect(r.stdout.trim().length, line).toBeGreaterThan(0);
      expect(r.stderr, line).not.toMatch(/error:/);
    }
  }, 60_000);

  it('README lines that run stays api exit 0 on a fresh machine', async () => {
    const readme = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');
    const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n'));
    const lines = blocks.map((l) => l.replace(/\s+#.*$/, '').trim()).filter((l) => /^(echo .*\| )?stays api /.test(l));
    const env = { ...freshSandbox().env, PATH: pathWithStays() };
    for (const line of lines) {
      const r = await bash(line, env, tempDir('stays-work-'));
      expect(r.code, `${line}\n${r.stderr}`).toBe(0);
    }
  }, 60_000);
});

describe('stays api --no-input', () => {
  it('refuses to wait for a body typed at a terminal (--input - on a TTY)', async () => {
    const cmd = [process.execPath, BIN, 'api', 'search', '--input', '-', '--no-input'].map((a) => `'${a}'`).join(' ');
    const base = { ...process.env };
    for (const k of ['CI', 'STAYS_BASE_URL', 'STAYS_API_KEY']) delete base[k];
    const child = spawn('script', ['-q', '-e', '-c', cmd, '/dev/null'], { env: { ...base, ...box.env, NO_COLOR: '1' } });
    let screen = '';
    child.stdout.on('data', (d: Buffer) => (screen += d.toString()));
    const code = await new Promise<number | null>((r) => child.once('close', r));
    expect(code, screen).toBe(2);
    expect(screen).toContain('error: --input - reads the body from stdin, which is a terminal, and --no-input (or CI) says not to wait for typing');
  });
});
