// `stays api` and the shared flags, the CLI run in this process (staysIn): -o json/jsonl are
// honoured and table/tsv/csv refused; --timeout bounds the request (exit 8); --no-input does not
// undo --input FILE. api-cmd.test.ts (e2e) holds its help's and the README's examples run through
// a shell, and --input - on a real terminal.
import { writeFileSync } from 'node:fs';
import { type Server, type Socket, createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stays.js';
import { type Sandbox, freshSandbox, staysIn } from './helpers.js';

let box: Sandbox;
beforeAll(() => {
  box = freshSandbox();
});

describe('stays api -o', () => {
  it('-o jsonl prints one data row a line', async () => {
    const r = await staysIn(['api', 'search', '-f', 'location=Lisbon', '-f', 'limit=2', '-f', 'platforms=airbnb,booking', '-o', 'jsonl'], box.env);
    expect(r.code).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { platform: string });
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map((x) => x.platform))).toEqual(new Set(['airbnb', 'booking']));
  });

  it('-o json is the body as sent', async () => {
    const r = await staysIn(['api', '/v1/account', '-o', 'json'], box.env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ data: { key: { env: 'sandbox' } } });
  });

  it.each(['csv', 'tsv', 'table'])('-o %s is refused with what to use instead (exit 2, nothing sent or printed)', async (fmt) => {
    const r = await staysIn(['api', '/v1/account', '-o', fmt], box.env);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`error: stays api prints the response body as JSON: -o json (the default) or -o jsonl (one data row a line). For -o ${fmt}, use the command for that route`);
  });

  it('--json FIELDS picks fields of the data, as in the other commands', async () => {
    const r = await staysIn(['api', '/v1/account', '--json', 'plan,key'], box.env);
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
    const r = await staysIn(['api', '/v1/account', '--base-url', url, '--api-key', 'stay_test_x', '--timeout', '1s'], box.env);
    expect(r.code).toBe(8);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`error: No answer from ${url} within 1 s (--timeout 1s)`);
  });

  it('--json: the timeout as an error envelope', async () => {
    const r = await staysIn(['api', '/v1/account', '--base-url', url, '--api-key', 'stay_test_x', '--timeout', '500ms', '--json'], box.env);
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
      const r = await staysIn(['api', 'search', ...order], box.env);
      expect(r.code, r.stderr).toBe(0);
      const body = JSON.parse(r.stdout) as { data: { platform: string; location: { city: string } }[] };
      expect(body.data.map((x) => x.platform)).toEqual(['vrbo']);
      expect(body.data[0]!.location.city).toBe('Porto');
    }
  });
});
