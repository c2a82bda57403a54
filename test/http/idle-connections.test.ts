// Issue 21 (8): connections that send nothing cannot exhaust the server's descriptors. 21,000 idle
// connections reached the descriptor limit and Node closed them only after about 86 s. Now a
// connection that sends no request headers within STAYS_HEADERS_TIMEOUT_MS gets a 408 and is
// closed, and one address holds at most STAYS_MAX_CONNECTIONS_PER_ADDRESS connections: the next is
// closed as it is accepted, without a byte. Every test connection comes from 127.0.0.1, so each
// server here sets a low cap; honest requests work again once the idle connections are gone.
import { type Socket, connect } from 'node:net';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { type Stays, startStays } from '../helpers/stays.js';

interface Idle {
  socket: Socket;
  /** What the server sent on it. */
  received(): string;
  /** Resolves when the server closed it. */
  closed: Promise<void>;
}

/** A TCP connection to the server that sends nothing. */
function idle(s: Stays): Promise<Idle> {
  const { hostname, port } = new URL(s.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let data = '';
    socket.on('data', (d: Buffer) => (data += d.toString()));
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.on('error', () => undefined); // a reset is one way of being closed
    socket.once('connect', () => resolve({ socket, received: () => data, closed }));
    socket.once('error', reject);
  });
}

/** GET /v1/health on a fresh connection, retried while the server has not yet seen earlier connections close (bounded). */
async function healthOnFreshConnection(s: Stays): Promise<number> {
  const until = Date.now() + 10_000;
  for (;;) {
    try {
      const res = await fetch(`${s.url}/v1/health`);
      await res.text();
      return res.status;
    } catch (e) {
      if (Date.now() > until) throw e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

const servers: Stays[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
});

describe('idle connections', { timeout: 60_000 }, () => {
  it('past the per-address cap a connection is closed at once, without a byte; the ones within it are kept', async () => {
    const s = await startStays({ STAYS_MAX_CONNECTIONS_PER_ADDRESS: '5' });
    servers.push(s);
    const held = await Promise.all(Array.from({ length: 5 }, () => idle(s)));
    const extra = await idle(s);
    await extra.closed;
    expect(extra.received()).toBe('');
    // Within the cap: still open (the headers timeout, 15 s by default, has not passed).
    for (const h of held) expect(h.socket.destroyed).toBe(false);
    // An honest client from the same address is refused too while the cap is used up...
    await expect(fetch(`${s.url}/v1/health`)).rejects.toThrow();
    // ...and served once the idle connections are gone.
    for (const h of held) h.socket.destroy();
    expect(await healthOnFreshConnection(s)).toBe(200);
  });

  it('a connection that sends no headers within STAYS_HEADERS_TIMEOUT_MS gets a 408 and is closed; then honest requests are served', async () => {
    const s = await startStays({ STAYS_MAX_CONNECTIONS_PER_ADDRESS: '5', STAYS_HEADERS_TIMEOUT_MS: '1000' });
    servers.push(s);
    const held = await Promise.all(Array.from({ length: 5 }, () => idle(s)));
    await Promise.all(held.map((h) => h.closed));
    for (const h of held) {
      expect(h.received()).toMatch(/^HTTP\/1\.1 408 /);
      expect(h.received()).toContain('"code":"request_timeout"');
    }
    expect(await healthOnFreshConnection(s)).toBe(200);
    // The cap counts connections open now, not ever: five more are accepted.
    const again = await Promise.all(Array.from({ length: 5 }, () => idle(s)));
    for (const h of again) h.socket.destroy();
  });

  it('a half-sent request (headers never finished) is closed by the same timeout', async () => {
    const s = await startStays({ STAYS_HEADERS_TIMEOUT_MS: '1000' });
    servers.push(s);
    const slow = await idle(s);
    slow.socket.write('GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    await slow.closed;
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('the default cap leaves room for a load run: 400 concurrent keep-alive connections from one address are all served', async () => {
    const s = await startStays({ STAYS_ANON_RPM: '100000' });
    servers.push(s);
    const agent = new Agent({ connections: 400, pipelining: 1 });
    try {
      const answers = await Promise.all(
        Array.from({ length: 400 }, async () => {
          const r = await request(`${s.url}/v1/health`, { dispatcher: agent });
          await r.body.text();
          return r.statusCode;
        }),
      );
      expect(answers.filter((c) => c === 200)).toHaveLength(400);
    } finally {
      await agent.close();
    }
  });
});
