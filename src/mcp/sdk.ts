// The only module that imports the MCP SDK at run time. The CLI bundle never contains the SDK:
// scripts/build.mjs builds this file alone into dist/vendor/mcp-sdk.cjs, which the bundle
// requires only when `stays mcp` (or /mcp) runs, so the CLI's cold start does not compile it.
export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
export { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
