// Where the authorization server and the protected resource (/mcp) say they are: the configured
// public URL (STAYS_PUBLIC_URL), else the origin the request came to. The second is right for a
// server reached directly (loopback, a LAN address); behind a proxy that rewrites the host or
// terminates TLS, the operator sets the public URL. Forwarded headers are not trusted: anyone
// could send them and so choose the issuer a client is told about.
import type { Context } from 'hono';
import type { Env } from '../http/route.js';

export const MCP_PATH = '/mcp';
export const SCOPE = 'stays.read';

export function publicBase(c: Context<Env>): string {
  const configured = c.var.services.config.publicUrl;
  if (configured) return configured;
  return new URL(c.req.url).origin;
}

export const resourceMetadataUrl = (base: string) => `${base}/.well-known/oauth-protected-resource`;
