// Where the authorization server and the protected resource (/mcp) say they are: the server's
// public base (http/public-url.ts: STAYS_PUBLIC_URL, else its own address, never the Host header).
// A server reachable from other hosts (listening on a non-loopback address) serves OAuth only with
// STAYS_PUBLIC_URL set (requirePublicUrl).
import type { Context } from 'hono';
import { ServiceError } from '../core/errors.js';
import type { Env } from '../http/route.js';
export { publicBase } from '../http/public-url.js';
import { isLoopbackHost } from '../webhooks/targets.js';

export const MCP_PATH = '/mcp';
export const SCOPE = 'stays.read';

/**
 * OAuth on a server other hosts can reach needs STAYS_PUBLIC_URL: its own address is not a name
 * clients can be told to trust (a wildcard listener has many), and the Host header is not either.
 */
export function requirePublicUrl(c: Context<Env>): void {
  const host = c.get('listenHost');
  if (host === undefined || isLoopbackHost(host) || c.get('services').config.publicUrl) return;
  throw new ServiceError(
    'public_url_required',
    `OAuth is off on this server: it listens on ${host}, reachable from other hosts, and STAYS_PUBLIC_URL is not set. ` +
      'The operator sets STAYS_PUBLIC_URL to the URL clients reach it at (https://stays.example.com) and restarts it. ' +
      'Meanwhile MCP clients can send an API key as the bearer.',
  );
}

export const resourceMetadataUrl = (base: string) => `${base}/.well-known/oauth-protected-resource`;
