// The OAuth 2.1 authorization server of the MCP tool server, mounted on the HTTP app. Only the
// paths live here: the endpoints (handlers.ts, with the consent page) load on first use, so the
// in-process CLI, which builds the same app, never compiles them. Not part of the /v1 OpenAPI
// document: a protocol with its own RFCs, not the data API.
import type { Context, Hono } from 'hono';
import type { Env } from '../http/route.js';
import { allowCrossOrigin } from './cors.js';
import type { OAuthHandlers, OAuthMountOptions } from './handlers.js';
import { requirePublicUrl } from './urls.js';

export type { OAuthMountOptions } from './handlers.js';

export function mountOAuth(app: Hono<Env>, opts: OAuthMountOptions): void {
  let loaded: Promise<OAuthHandlers> | undefined;
  const handlers = () => (loaded ??= import('./handlers.js').then((m) => m.createOAuthHandlers(opts)));
  const to = (name: keyof OAuthHandlers) => async (c: Context<Env>) => {
    requirePublicUrl(c);
    return (await handlers())[name](c);
  };
  allowCrossOrigin(app, ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-authorization-server', '/oauth/register', '/oauth/token']);
  app.get('/.well-known/oauth-protected-resource', to('resourceMetadata'));
  app.get('/.well-known/oauth-protected-resource/mcp', to('resourceMetadata'));
  app.get('/.well-known/oauth-authorization-server', to('serverMetadata'));
  app.post('/oauth/register', to('register'));
  app.post('/oauth/token', to('token'));
  app.get('/oauth/authorize', to('authorizeGet'));
  app.post('/oauth/authorize', to('authorizePost'));
}
