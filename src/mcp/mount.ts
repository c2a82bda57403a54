// /mcp on the HTTP app: the gate in front of the MCP tool server. It authenticates the caller
// (an OAuth access token, or an API key sent as the bearer directly) before the MCP SDK is ever
// loaded, answers 401 with the RFC 9728 pointer an agent follows to sign in, and hands the
// request to the Streamable HTTP transport (src/mcp/http.ts, loaded on first use, so neither the
// CLI nor a server that never sees /mcp pays for the SDK).
import type { Context, Hono } from 'hono';
import { authenticate } from '../core/auth.js';
import { ServiceError, isServiceError } from '../core/errors.js';
import { renderError } from '../http/render.js';
import { type Env, requestHeader } from '../http/route.js';
import { allowCrossOrigin } from '../oauth/cors.js';
import { MCP_PATH, SCOPE, publicBase, resourceMetadataUrl } from '../oauth/urls.js';

export interface McpMountOptions {
  /** The app itself, called in-process by the tools with the caller's credential. */
  fetch: (req: Request) => Response | Promise<Response>;
  /** Takes a token from the caller's per-address bucket (callers without valid credentials), setting the headers; 429 past the limit. */
  limitAnonymous: (c: Context<Env>) => void;
}

/** `Bearer …` challenge parameters as RFC 6750 §3 writes them. */
function challenge(c: Context<Env>, params: Record<string, string>): string {
  const all = { ...params, resource_metadata: resourceMetadataUrl(publicBase(c)) };
  return `Bearer ${Object.entries(all)
    .map(([k, v]) => `${k}="${v.replace(/["\\]/g, '')}"`)
    .join(', ')}`;
}

export function mountMcp(app: Hono<Env>, opts: McpMountOptions): void {
  let loaded: Promise<typeof import('./http.js')> | undefined;
  allowCrossOrigin(app, [MCP_PATH]);
  app.on(['GET', 'POST', 'DELETE'], MCP_PATH, async (c) => {
    const header = requestHeader(c, 'authorization');
    let who: Awaited<ReturnType<typeof authenticate>>;
    try {
      who = await authenticate(c.get('services'), header);
    } catch (e) {
      if (!isServiceError(e)) throw e;
      opts.limitAnonymous(c);
      const given = e.code !== 'missing_api_key';
      c.header('WWW-Authenticate', challenge(c, given ? { error: 'invalid_token', error_description: e.message } : {}));
      const err = given ? e : new ServiceError('missing_api_key', 'An OAuth Bearer access token (or an API key as the bearer) is required.');
      return renderError(c, err);
    }
    if (!who.key.scopes.includes(SCOPE)) {
      c.header('WWW-Authenticate', challenge(c, { error: 'insufficient_scope', scope: SCOPE }));
      return renderError(c, new ServiceError('scope_insufficient', `The tools need the ${SCOPE} scope, which this credential lacks.`, { param: null }));
    }
    if (c.req.method === 'GET') {
      // Stateless: no session, so nothing would ever be sent on a standalone SSE stream (the
      // transport spec's 405 answer). Tool progress travels on each POST's own stream.
      c.header('Allow', 'POST, DELETE');
      return c.json({ jsonrpc: '2.0', error: { code: -32000, message: 'This server keeps no sessions and offers no standalone SSE stream: POST JSON-RPC messages to /mcp.' }, id: null }, 405);
    }
    const { serveMcp } = await (loaded ??= import('./http.js'));
    const credential = /^Bearer[ \t]+(\S+)\s*$/i.exec(header!.trim())![1]!;
    const res = await serveMcp(c.req.raw, { credential, fetch: opts.fetch, who });
    res.headers.set('X-Request-Id', c.get('requestId'));
    return res;
  });
}
