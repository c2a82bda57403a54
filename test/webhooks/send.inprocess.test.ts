// One delivery attempt (src/webhooks/send.ts) against a receiver on loopback: the status (the
// answer's body is never kept from a private address, loopback included: issue 21), a timeout, a refused connection, and the private-network guard
// with a resolver that answers what the test says (a name resolving to a private address among
// public ones is refused).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREVIEW_BYTES, previewOf, sendOnce } from '../../src/webhooks/send.js';

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
  it('answers: any status; from a private address (loopback here) the body is never kept (preview null)', async () => {
    expect(await sendOnce(`http://127.0.0.1:${port}/hook`, '{"a":1}', base)).toEqual({ kind: 'answered', status: 200, preview: null });
    expect(seen.at(-1)!.body).toBe('{"a":1}');
    expect(await sendOnce(`http://127.0.0.1:${port}/gone`, '{}', base)).toEqual({ kind: 'answered', status: 410, preview: null });
    expect(await sendOnce(`http://[::ffff:127.0.0.1]:${port}/big`, '{}', base)).toEqual({ kind: 'answered', status: 200, preview: null });
  });

  it('the preview of a public answer: its first 500 bytes (a split character dropped)', () => {
    expect(previewOf([Buffer.from('ok')])).toBe('ok');
    expect(previewOf([Buffer.from('é'.repeat(200)), Buffer.from('é'.repeat(200))])).toBe('é'.repeat(PREVIEW_BYTES / 2));
    expect(previewOf([Buffer.from(`x${'é'.repeat(300)}`)])).toBe(`x${'é'.repeat((PREVIEW_BYTES - 2) / 2)}`);
  });

  it('a name is resolved once and the connection pinned to what it resolved to, private targets allowed or not', async () => {
    const before = seen.length;
    const r = await sendOnce(`http://hooks.example:${port}/hook`, '{}', { ...base, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    expect(r).toEqual({ kind: 'answered', status: 200, preview: null });
    expect(seen.slice(before).map((x) => x.host)).toEqual([`hooks.example:${port}`]);
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
    for (const host of ['127.0.0.1', '[::1]', '10.1.2.3', '192.168.0.10', '169.254.169.254', '[fd00::1]', '[::ffff:127.0.0.1]', '[::7f00:1]', '[2002:7f00:1::1]', '[64:ff9b::7f00:1]']) {
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
      resolve: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.7', family: 4 },
      ],
    });
    expect(mixed).toEqual({ kind: 'refused', preview: expect.stringMatching(/^not sent: hooks\.example resolves to 10\.0\.0\.7, which is a loopback/) });
    // A name with no address at all: a failure (retried), not a refusal.
    const none = await sendOnce(`http://hooks.example:${port}/hook`, '{}', { ...base, denyPrivate: true, resolve: async () => [] });
    expect(none.kind).toBe('failed');
    expect(none.preview).toMatch(/hooks\.example does not resolve/);
  });
});
