// Where the authorization server, the protected resource (/mcp) and the docs say they are: the
// configured public URL (STAYS_PUBLIC_URL), else the server's own address, never the request's
// Host header (issue 21, item 11): anyone can send any Host, and the issuer and docUrls it would
// choose are what clients are told to trust and follow. The server's own address is the one the
// connection arrived at (the socket's local address and port: on a wildcard listener, the concrete
// interface address). On a loopback connection, a Host naming a loopback name with that very port
// (localhost:PORT, 127.0.0.1:PORT, [::1]:PORT) is kept, so a browser on localhost stays on its
// origin. Forwarded headers are not trusted either. A server reachable from other hosts (listening
// on a non-loopback address) serves OAuth only with STAYS_PUBLIC_URL set (requirePublicUrl).
import type { Context } from 'hono';
import { isLoopbackHost } from '../webhooks/targets.js';
import type { Env } from './route.js';

interface SocketLike {
  localAddress?: string;
  localPort?: number;
}

/**
 * This server's origin for a request that arrived on `socket`, with the request's Host header
 * used only when it names a loopback host at the socket's own port on a loopback connection.
 * Without a socket (the app called in-process), the request URL's origin: no client chose it.
 */
export function selfOrigin(socket: SocketLike | undefined, hostHeader: string | undefined, requestUrl: string): string {
  if (!socket?.localAddress || !socket.localPort) return new URL(requestUrl).origin;
  const local = socket.localAddress.replace(/^::ffff:(?=\d+\.)/i, '');
  const port = socket.localPort;
  if (isLoopbackHost(local) && hostHeader) {
    const m = /^(localhost|127\.0\.0\.1|\[::1\]):(\d{1,5})$/i.exec(hostHeader.trim());
    if (m && Number(m[2]) === port) return `http://${m[1]!.toLowerCase()}:${port}`;
  }
  return `http://${local.includes(':') ? `[${local}]` : local}:${port}`;
}

/** The Node socket of this request, when the app runs behind `stays serve`. */
function socketOf(c: Context<Env>): SocketLike | undefined {
  return (c.env as { incoming?: { socket?: SocketLike | null } } | undefined)?.incoming?.socket ?? undefined;
}

export function publicBase(c: Context<Env>): string {
  const configured = c.get('services').config.publicUrl;
  if (configured) return configured;
  return selfOrigin(socketOf(c), c.req.header('host'), c.req.url);
}
