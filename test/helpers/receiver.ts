// A webhook receiver on loopback for the delivery tests: records every request (raw body, headers,
// arrival time) and answers as the test scripts it, per arrival (1-based).
import { type IncomingHttpHeaders, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  at: number;
  headers: IncomingHttpHeaders;
  raw: string;
  body: { id: string; event: string; created_at: string; data: Record<string, unknown> };
}

export interface Answer {
  status?: number;
  body?: string;
  /** Wait this long before answering (a slow receiver). */
  delayMs?: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Resolves once `n` requests (matching `where`) arrived; throws after `timeoutMs`. */
  waitFor(n: number, timeoutMs?: number, where?: (r: Received) => boolean): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(answer: (n: number, r: Received) => Answer = () => ({})): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Received['body'];
      try {
        body = JSON.parse(raw) as Received['body'];
      } catch {
        body = { id: '', event: '', created_at: '', data: {} };
      }
      const r: Received = { at: Date.now(), headers: req.headers, raw, body };
      received.push(r);
      const a = answer(received.length, r);
      const reply = () => {
        if (res.destroyed) return;
        res.writeHead(a.status ?? 200, { 'content-type': 'text/plain' });
        res.end(a.body ?? 'ok');
      };
      if (a.delayMs) setTimeout(reply, a.delayMs);
      else reply();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    async waitFor(n, timeoutMs = 20_000, where = () => true) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const got = received.filter(where);
        if (got.length >= n) return got;
        if (Date.now() > until) throw new Error(`receiver: ${got.length} of ${n} deliveries after ${timeoutMs} ms: ${received.map((r) => r.body.event).join(', ')}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The receivers a test file starts, closed together in its afterAll. */
export function receiverPool() {
  const started: Receiver[] = [];
  return {
    async start(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
      const r = await startReceiver(...args);
      started.push(r);
      return r;
    },
    async closeAll(): Promise<void> {
      for (const r of started.splice(0)) await r.close();
    },
  };
}
