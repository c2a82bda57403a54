// The remote transport over real loopback sockets: what a script sees when the server is slow,
// gone or cuts an answer short, and that one command's calls share a connection.
import { type Server, type Socket, createServer as createTcp } from 'node:net';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { StaysConnectionError } from '../../src/client/errors.js';
import { remoteTransport } from '../../src/client/transport.js';

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

function listen<T extends Server | ReturnType<typeof createServer>>(s: T): Promise<string> {
  servers.push(s);
  return new Promise((r) => s.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)));
}

const get = { method: 'GET', path: '/v1/health', headers: {} };

describe('the remote transport (node:http)', () => {
  it('sends method, path under the base prefix, headers and body; reads status, headers and body', async () => {
    const seen: { method?: string; url?: string; auth?: string; body: string; length?: string }[] = [];
    const url = await listen(
      createServer((req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          seen.push({ method: req.method, url: req.url, auth: req.headers.authorization, body, length: req.headers['content-length'] });
          res.writeHead(201, { 'Content-Type': 'application/json', 'Retry-After': '3', 'X-Two': ['a', 'b'] });
          res.end('{"ok":"é"}');
        });
      }),
    );
    const t = remoteTransport({ baseUrl: `${url}/prefix/v1/` });
    expect(t.base).toBe(`${url}/prefix`);
    const r = await t.send({ method: 'POST', path: '/v1/search?q=1', headers: { authorization: 'Bearer k' }, body: '{"q":"Lisboa ã"}' });
    await t.close();
    expect(seen).toEqual([{ method: 'POST', url: '/prefix/v1/search?q=1', auth: 'Bearer k', body: '{"q":"Lisboa ã"}', length: String(Buffer.byteLength('{"q":"Lisboa ã"}')) }]);
    expect(r).toMatchObject({ status: 201, body: '{"ok":"é"}' });
    expect(r.headers).toMatchObject({ 'retry-after': '3', 'content-type': 'application/json', 'x-two': 'a, b' });
  });

  it("one command's calls share one kept-alive connection", async () => {
    const sockets = new Set<unknown>();
    const server = createServer((req, res) => {
      sockets.add(req.socket);
      res.end('{}');
    });
    const url = await listen(server);
    const t = remoteTransport({ baseUrl: url });
    for (let i = 0; i < 3; i++) expect((await t.send(get)).status).toBe(200);
    await t.close();
    expect(sockets.size).toBe(1);
  });

  it('a server that accepts and never answers is a connection error after the timeout, naming it', async () => {
    const held: Socket[] = [];
    const url = await listen(createTcp((s) => held.push(s)));
    const t = remoteTransport({ baseUrl: url, requestTimeoutMs: 200 });
    const err = await t.send(get).catch((e: unknown) => e);
    await t.close();
    for (const s of held) s.destroy();
    expect(err).toBeInstanceOf(StaysConnectionError);
    expect((err as Error).message).toMatch(/ETIMEDOUT/);
    expect((err as Error).message).toContain(url);
  });

  it('an answer cut short is a connection error, not a truncated body', async () => {
    const url = await listen(
      createTcp((s) => {
        s.once('data', () => s.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"data":'));
      }),
    );
    const t = remoteTransport({ baseUrl: url });
    const err = await t.send(get).catch((e: unknown) => e);
    await t.close();
    expect(err).toBeInstanceOf(StaysConnectionError);
  });

  it('nothing listening: the sentence with the fix', async () => {
    const s = createTcp();
    const url = await listen(s);
    s.close();
    await new Promise((r) => setTimeout(r, 50));
    const t = remoteTransport({ baseUrl: url });
    const err = await t.send(get).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StaysConnectionError);
    expect((err as Error).message).toBe(`Could not connect to ${url}: nothing is listening; start it with stays serve, or check --base-url / STAYS_BASE_URL.`);
  });

  it('an aborted call rejects with the signal’s reason', async () => {
    const held: Socket[] = [];
    const url = await listen(createTcp((s) => held.push(s)));
    const t = remoteTransport({ baseUrl: url });
    const ac = new AbortController();
    const p = t.send({ ...get, signal: ac.signal });
    const reason = new Error('interrupted');
    setTimeout(() => ac.abort(reason), 20);
    await expect(p).rejects.toBe(reason);
    await t.close();
    for (const s of held) s.destroy();
  });
});
