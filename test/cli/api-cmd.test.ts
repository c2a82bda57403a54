// `stays api` and the shared flags: every example of its help (and any README line using it) runs
// on a fresh machine's default local account; -o json/jsonl are honoured and table/tsv/csv refused;
// --timeout bounds the request (exit 8); --no-input neither undoes --input FILE nor waits for a
// terminal to type a body.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { type Server, type Socket, createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli, tempDir } from '../helpers/stays.js';
import { type Sandbox, bash, freshSandbox, pathWithStays, stays } from './helpers.js';

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

describe('stays api -o', () => {
  it('-o jsonl prints one data row a line', async () => {
    const r = await stays(['api', 'search', '-f', 'location=Lisbon', '-f', 'limit=2', '-f', 'platforms=airbnb,booking', '-o', 'jsonl'], box.env);
    expect(r.code).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { platform: string });
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map((x) => x.platform))).toEqual(new Set(['airbnb', 'booking']));
  });

  it('-o json is the body as sent', async () => {
    const r = await stays(['api', '/v1/account', '-o', 'json'], box.env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ data: { key: { env: 'sandbox' } } });
  });

  it.each(['csv', 'tsv', 'table'])('-o %s is refused with what to use instead (exit 2, nothing sent or printed)', async (fmt) => {
    const r = await stays(['api', '/v1/account', '-o', fmt], box.env);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`error: stays api prints the response body as JSON: -o json (the default) or -o jsonl (one data row a line). For -o ${fmt}, use the command for that route`);
  });

  it('--json FIELDS picks fields of the data, as in the other commands', async () => {
    const r = await stays(['api', '/v1/account', '--json', 'plan,key'], box.env);
    expect(r.code).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout) as object)).toEqual(['plan', 'key']);
  });
});

describe('stays api --timeout', () => {
  let silent: Server;
  const sockets = new Set<Socket>();
  let url: string;
  beforeAll(async () => {
    // Accepts connections and never answers.
    silent = createServer((sock) => {
      sockets.add(sock);
      sock.on('close', () => sockets.delete(sock));
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => silent.close(r));
  });

  it('bounds the request: a server that never answers is given up after --timeout, exit 8', async () => {
    // The transport's own bound is 60 s; the helper gives the command 20 s in all.
    const r = await stays(['api', '/v1/account', '--base-url', url, '--api-key', 'stay_test_x', '--timeout', '1s'], box.env);
    expect(r.code).toBe(8);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`error: No answer from ${url} within 1 s (--timeout 1s)`);
  });

  it('--json: the timeout as an error envelope', async () => {
    const r = await stays(['api', '/v1/account', '--base-url', url, '--api-key', 'stay_test_x', '--timeout', '500ms', '--json'], box.env);
    expect(r.code).toBe(8);
    expect(JSON.parse(r.stderr)).toMatchObject({ error: { type: 'timeout', code: 'request_timeout' } });
  });
});

describe('stays api --no-input', () => {
  it('does not undo --input FILE, whichever comes first', async () => {
    const file = join(tempDir(), 'body.json');
    writeFileSync(file, JSON.stringify({ location: 'Porto', limit: 1, platforms: ['vrbo'] }));
    for (const order of [
      ['--input', file, '--no-input'],
      ['--no-input', '--input', file],
    ]) {
      const r = await stays(['api', 'search', ...order], box.env);
      expect(r.code, r.stderr).toBe(0);
      const body = JSON.parse(r.stdout) as { data: { platform: string; location: { city: string } }[] };
      expect(body.data.map((x) => x.platform)).toEqual(['vrbo']);
      expect(body.data[0]!.location.city).toBe('Porto');
    }
  });

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
