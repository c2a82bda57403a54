// The whole app `stays serve`, the in-process CLI and library users run: the /v1 API
// (http/app.ts) with what is mounted beside it, the MCP tool server at /mcp, its OAuth 2.1
// authorization server and the documentation every docUrl names. Mounted here, so http/ knows
// nothing of mcp/ or oauth/.
import type { Services } from './core/context.js';
import { type AppOptions, createApiApp } from './http/app.js';
import { mountDocs } from './http/docs/routes.js';
import type { Pipeline } from './http/pipeline.js';
import { mountMcp } from './mcp/mount.js';
import { mountOAuth } from './oauth/routes.js';

export function createApp(services: Services, opts: AppOptions = {}, pipeline?: Pipeline) {
  return createApiApp(services, opts, pipeline, (app, ctx) => {
    // The MCP tool server (Streamable HTTP); its tools call this app in-process with the caller's credential.
    mountMcp(app, { fetch: ctx.fetch, limitAnonymous: ctx.limitAnonymous });
    // Its OAuth 2.1 authorization server (discovery, registration, the consent page, tokens).
    mountOAuth(app, { limitAnonymous: ctx.limitAnonymous, address: ctx.address });
    // The API reference and the error and warning pages every docUrl names.
    mountDocs(app, { limitAnonymous: ctx.limitAnonymous });
  });
}

export type { AppOptions };
