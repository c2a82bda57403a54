// The MCP tool server: an McpServer named "stays" offering the read-only tools (TOOLS). Tools are
// listed and called through the protocol's own handlers rather than McpServer.registerTool, for
// two reasons: the input schemas are generated from the core schemas as the OpenAPI document's
// are (the SDK would convert the core's preprocessing schemas into empty ones), and the
// arguments reach the service unchanged, so a bad argument gets REST's typed invalid_request
// error (code, param, requestId) rather than the SDK's own validation message.
import pkg from '../../package.json' with { type: 'json' };
import type { CallToolResult, ListToolsResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { StaysClient } from '../client/core.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, McpServer } from './sdk.js';
import { READ_ONLY, type ToolContext, type ToolDef, inputSchemaOf } from './tool.js';
import { TOOLS } from './tools/index.js';

type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface StaysMcpOptions {
  /**
   * The client a tool call goes through, with the caller's key: the in-process app or a remote
   * base URL. Called once per tool call (an HTTP mount picks the client from extra.authInfo).
   */
  client: (extra: ToolExtra) => StaysClient | Promise<StaysClient>;
  /** How long a tool call waits for a live job before answering with its id for get_job. Default 25 s. */
  waitMs?: number;
}

const DEFAULT_WAIT_MS = 25_000;

const INSTRUCTIONS =
  'Accommodation data across booking platforms (airbnb, booking, vrbo, google): search, listing detail, price quotes, price comparison, availability and reviews, ' +
  'and the price and calendar history this service observed (free). ' +
  'Every tool is read-only. Results are { data, meta }; meta.creditsCharged is what the call cost (sandbox keys are free). ' +
  'A live call that takes longer than the server waits returns a jobId: call get_job with it.';

/** tools/list: the same for every caller, so built once. */
function listTools(): ListToolsResult {
  return {
    tools: TOOLS.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: inputSchemaOf(t.params),
      annotations: { title: t.title, ...READ_ONLY, ...t.annotations },
    })),
  };
}

export function createMcpServer(opts: StaysMcpOptions): McpServer {
  const waitMs = opts.waitMs ?? DEFAULT_WAIT_MS;
  const server = new McpServer({ name: 'stays', title: 'stays', version: pkg.version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const byName = new Map<string, ToolDef>(TOOLS.map((t) => [t.name, t]));
  const listed = listTools();

  server.server.setRequestHandler(ListToolsRequestSchema, () => listed);
  server.server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    const tool = byName.get(req.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${JSON.stringify(req.params.name)}; the tools are ${TOOLS.map((t) => t.name).join(', ')}.`);
    const token = extra._meta?.progressToken;
    let progress = 0;
    const ctx: ToolContext = {
      client: await opts.client(extra),
      waitMs,
      signal: extra.signal,
      progress: token === undefined ? undefined : (message) => extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: ++progress, message } }),
    };
    return tool.run(ctx, req.params.arguments ?? {});
  });
  return server;
}
