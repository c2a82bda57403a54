// One delivery attempt (src/webhooks/send.ts) against a receiver on loopback: the status and the
// first 500 bytes of the answer, a timeout, a refused connection, and the private-network guard
// with a resolver that answers what the test says (a name resolving to a private address among
// public ones is refused).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREVIEW_BYTES, sendOnce } from '../../src/webhooks/send.js';

let port = 0;
const seen: { host?: string; body: string }[] = [];
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    seen.push({ host: req.headers.host, body });
    if (req.url === '/big') return res.end('é'.repeat(400));
    if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2_000);
    res.writeHead(req.url === '/gone' ? 410 : 200).end(req.url === '/gone' ? 'gone' : 'ok');
  });
});
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const base = { headers: { 'x-test': '1' }, timeoutMs: 1_000, denyPrivate: false };

describe('sendOnce', () => {
  it('answers: any status, with the first 500 bytes of the body (a split character dropped)', async () => {
    expect(await sendOnce(`http://127.0.0.1:${port}/hook`, '{"a":1}', base)).toEqual({ kind: 'answered', status: 200, preview: 'ok' });
    expect(seen.at(-1)!.body).toBe('{"a":1}');
    expect(await sendOnce(`http://127.0.0.1:${port}/gone`, '{}', base)).toEqual({ kind: 'answered', status: 410, preview: 'gone' });
    const big = await sendOnce(`http://127.0.0.1:${port}/big`, '{}', base);
    expect(big.kind).toBe('answered');
    expect(big.preview).toBe('é'.repeat(PREVIEW_BYTES / 2));
  });

  it('a receiver slower than the timeout, and one that is not there, are failures saying why', async () => {
    const t0 = Date.now();
    const slow = await sendOnce(`http://127.0.0.1:${port}/slow`, '{}', base);
    expect(slow).toEqual({ kind: 'failed', preview: 'no answer within 1000 ms (timeout)' });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    const refused = await sendOnce('http://127.0.0.1:9/hook', '{}', base);
    expect(refused).toEqual({ kind: 'failed', preview: 'connection refused by 127.0.0.1 (ECONNREFUSED)' });
  });

  it('denyPrivate: literal private addresses are refused without connecting', async () => {
    const before = seen.length;
    for (const host of ['127.0.0.1', '[::1]', '10.1.2.3', '192.168.0.10', '169.254.169.254', '[fd00::1]', '[::ffff:127.0.0.1]']) {
      const r = await sendOnce(`http://${host}:${port}/hook`, '{}', { ...base, denyPrivate: true });
      expect(r.kind, host).toBe('refused');
      expect(r.preview).toMatch(/is a loopback, private or link-local address/);
    }
    expect(seen.length).toBe(before);
  });

  it('denyPrivate: a name is resolved and every address checked', async () => {
    const mixed = await sendOnce(`http://hooks.example:${port}/hook`, '{}', {
      ...base,
      denyPrivate: true,
      resolve: async () => [{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.7', family: 4 }],
    });
    expect(mixed).toEqual({ kind: 'refused', preview: expect.stringMatching(/^not sent: hooks\.example resolves to 10\.0\.0\.7, which is a loopback/) });
    // A name with no address at all: a failure (retried), not a refusal.
    const none = await sendOnce(`http://hooks.example:${port}/hook`, '{}', { ...base, denyPrivate: true, resolve: async () => [] });
    expect(none.kind).toBe('failed');
    expect(none.preview).toMatch(/hooks\.example does not resolve/);
  });
});
