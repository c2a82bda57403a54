// Connections as a resource (issue 21: 21,000 connections that sent nothing took the server to its
// descriptor limit, and Node closed them only after about 86 s). Two bounds: how long a connection
// may take to send its request headers (then a 408 and close), and how many connections one
// address may hold open at once (the next is closed as it is accepted, before it costs more than
// its descriptor). Behind a reverse proxy every connection comes from the proxy: docs/deploy.md.
import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  /** How long a connection may take to send a request's headers (STAYS_HEADERS_TIMEOUT_MS). */
  headersTimeoutMs: number;
  /** Open connections one address may hold, over every listening socket of the process; 0: no cap (STAYS_MAX_CONNECTIONS_PER_ADDRESS). */
  maxPerAddress: number;
}

/** A whole request (headers and body) may take this long, or the headers timeout if longer. Bodies are at most 1 MiB. */
const REQUEST_TIMEOUT_MS = 30_000;
/** How often Node looks for connections past their timeouts (its default, 30 s, is what made 60 s become 86). */
const CHECK_INTERVAL_MS = 1_000;

/** Options for http.createServer (they cannot all be set after it). */
export function serverOptions(l: ConnectionLimits): ServerOptions {
  return {
    headersTimeout: l.headersTimeoutMs,
    requestTimeout: Math.max(REQUEST_TIMEOUT_MS, l.headersTimeoutMs),
    connectionsCheckingInterval: Math.min(CHECK_INTERVAL_MS, l.headersTimeoutMs),
    // Node's default: an idle keep-alive connection is closed after 5 s.
    keepAliveTimeout: 5_000,
  };
}

export interface AddressCap {
  /** Counts the servers' connections per address, closing those past the cap. */
  watch(server: Server): void;
  /** Connections refused so far (for the log). */
  readonly refused: number;
}

/** One count per address shared by every server it watches (the API port and `--mcp-port`). */
export function capPerAddress(maxPerAddress: number, onRefused?: (address: string, refused: number) => void): AddressCap {
  const open = new Map<string, number>();
  let refused = 0;
  return {
    get refused() {
      return refused;
    },
    watch(server) {
      if (maxPerAddress <= 0) return;
      // After Node's own listener has set the connection up, so closing it tears all of that down.
      server.on('connection', (socket: Socket) => {
        const address = socket.remoteAddress ?? 'unknown';
        const n = open.get(address) ?? 0;
        if (n >= maxPerAddress) {
          refused++;
          onRefused?.(address, refused);
          socket.destroy();
          return;
        }
        open.set(address, n + 1);
        socket.once('close', () => {
          const left = (open.get(address) ?? 1) - 1;
          if (left <= 0) open.delete(address);
          else open.set(address, left);
        });
      });
    },
  };
}
