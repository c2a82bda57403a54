// Browser-based MCP clients (an inspector page, a web agent) call the tool server, discovery,
// registration and the token endpoint with fetch from their own origin: those answer CORS for any
// origin. Safe without an allow-list: nothing there rides on cookies (credentials are bearer
// tokens a page must already hold), and the consent page, the one cookie user, is not listed.
import type { Hono } from 'hono';
import { cors } from 'hono/cors';
import type { Env } from '../http/route.js';

const policy = cors({
  origin: '*',
  allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
  allowHeaders: ['Authorization', 'Content-Type', 'Accept', 'Mcp-Protocol-Version', 'Mcp-Session-Id', 'Last-Event-ID'],
  exposeHeaders: ['WWW-Authenticate', 'Mcp-Session-Id', 'Mcp-Protocol-Version', 'X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After'],
  maxAge: 600,
});

export function allowCrossOrigin(app: Hono<Env>, paths: string[]): void {
  for (const p of paths) app.use(p, policy);
}
