// The CLI's own retries of a POST are safe (issue 21 item 10): every POST carries an
// Idempotency-Key, the same on each attempt, so when the answer is lost on the way back (the
// connection drops after the server executed) the retry gets the first answer again and the
// account is charged once. A real `stays serve` behind a TCP proxy on loopback that cuts the
// first connection as soon as the server starts answering; the CLI run in this process (staysIn), the server too (serve-in.ts).
import { type Server, type Socket, connect, createServer } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestAccount, tempDir } from '../helpers/stays.js';
import { freshSandbox, staysIn } from './helpers.js';
import { type Served, serveIn } from './serve-in.js';

let s: Served;
let a: TestAccount;
beforeAll(async () => {
  s = await serveIn({ STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '50', STAYS_SIM_FAIL: '' });
  a = await s.account({ credits: 1000, rpm: 100_000 });
}, 60_000);
afterAll(async () => {
  await s?.stop();
});

/** Forwards to `target`; the first `drops` connections are cut when the server's answer starts. Records each request head. */
async function lossyProxy(target: string, drops: number): Promise<{ url: string; heads: string[]; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  const heads: string[] = [];
  const sockets = new Set<Socket>();
  let n = 0;
  const server: Server = createServer((client) => {
    const cut = n++ < drops;
    const upstream = connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    let head = '';
    client.on('data', (d: Buffer) => {
      if (!head.includes('\r\n\r\n')) {
        head += d.toString('latin1');
        if (head.includes('\r\n\r\n')) heads.push(head.slice(0, head.indexOf('\r\n\r\n')));
      }
      upstream.write(d);
    });
    upstream.on('data', (d: Buffer) => {
      if (cut) {
        client.destroy();
        upstream.destroy();
      } else client.write(d);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${addr.port}`,
    heads,
    close: () =>
      new Promise<void>((r) => {
        for (const x of sockets) x.destroy();
        server.close(() => r());
      }),
  };
}

const keyOf = (head: string) => /^idempotency-key:\s*(.*)$/im.exec(head)?.[1]?.trim();

describe('stays api POST through a connection that loses the first answer', () => {
  it('retries with the same Idempotency-Key: the first answer again, one charge', async () => {
    const proxy = await lossyProxy(s.url, 1);
    try {
      const dir = tempDir('stays-body-');
      const file = join(dir, 'body.json');
      writeFileSync(file, JSON.stringify({ entries: [{ id: '9101' }, { id: '9102' }] }));
      const env = { ...freshSandbox().env, STAYS_BASE_URL: proxy.url, STAYS_API_KEY: a.liveKey };
      const r = await staysIn(['api', '/v1/stays/batch', '-X', 'POST', '--input', file, '-i'], env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^idempotent-replayed: true$/im);
      const posts = proxy.heads.filter((h) => h.startsWith('POST '));
      expect(posts).toHaveLength(2);
      const key = keyOf(posts[0]!);
      expect(key).toMatch(/^stays-retry-[0-9a-f-]{36}$/);
      expect(keyOf(posts[1]!)).toBe(key);
      const show = await s.admin<{ ledger: { kind: string; amount: number }[] }>('account', 'show', a.id, '--ledger', '1000');
      expect(show.ledger.filter((l) => l.kind === 'charge').map((l) => l.amount)).toEqual([-2]);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('a key given with -H is the one sent, on every attempt', async () => {
    const proxy = await lossyProxy(s.url, 1);
    try {
      const env = { ...freshSandbox().env, STAYS_BASE_URL: proxy.url, STAYS_API_KEY: a.sandboxKey };
      const r = await staysIn(['api', '/v1/stays/batch', '-X', 'POST', '-F', 'entries=[]', '-H', 'Idempotency-Key: mine-1'], env);
      // entries=[] is refused (400), and the refusal is what the retry replays.
      expect(r.code).not.toBe(0);
      const posts = proxy.heads.filter((h) => h.startsWith('POST '));
      expect(posts.map(keyOf)).toEqual(['mine-1', 'mine-1']);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});
