// The tool server over Streamable HTTP (POST /mcp), stateless: every request gets its own
// McpServer and transport, which end with it. Tool calls go through the very app the request
// came to, in-process, with the caller's own credential, so validation, billing, rate limits
// and errors are REST's to the letter. Loaded only when /mcp is first used (src/mcp/mount.ts).
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { clientOver } from '../client/core.js';
import type { Transport } from '../client/transport.js';
import type { RequestContext } from '../core/context.js';
import { WebStandardStreamableHTTPServerTransport } from './sdk.js';
import { createMcpServer } from './server.js';

export interface ServeMcpOptions {
  /** The bearer the caller sent: the tools send it on to the app. */
  credential: string;
  fetch: (req: Request) => Response | Promise<Response>;
  /** Who the credential is (already authenticated by the gate). */
  who: Omit<RequestContext, 'requestId'>;
  waitMs?: number;
}

/** The app called through its fetch handler, no socket (as the in-process CLI does). */
function appTransport(fetch: ServeMcpOptions['fetch']): Transport {
  return {
    kind: 'custom',
    base: 'in-process:',
    async send(req) {
      const res = await fetch(new Request(`http://in-process${req.path}`, { method: req.method, headers: req.headers, body: req.body, signal: req.signal }));
      const headers: Record<string, string> = {};
      res.headers.forEach((v, k) => {
        headers[k] = v;
      });
      return { status: res.status, headers, body: await res.text() };
    },
    async close() {},
  };
}

export async function serveMcp(req: Request, o: ServeMcpOptions): Promise<Response> {
  // No retries: a 429 reaches the agent as a tool error with its retryAfter, instead of this
  // request sleeping on the server.
  const client = clientOver(appTransport(o.fetch), { apiKey: o.credential, maxRetries: 0, userAgent: 'stays-mcp-http' });
  const server = createMcpServer({ client: () => client, waitMs: o.waitMs });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  // The agent went away: cancel its tool calls (and the jobs' waits) rather than finish them for nobody.
  req.signal?.addEventListener('abort', () => void server.close().catch(() => {}), { once: true });
  const authInfo: AuthInfo = {
    token: o.credential,
    clientId: o.who.key.oauth?.clientId ?? o.who.key.id,
    scopes: o.who.key.scopes,
    ...(o.who.key.oauth ? { expiresAt: Math.floor(o.who.key.oauth.expiresAt / 1000) } : {}),
    extra: { accountId: o.who.account.id, environment: o.who.key.env },
  };
  return transport.handleRequest(req, { authInfo });
}
