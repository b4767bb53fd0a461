// The MCP SDK (client and server) and Google's auth library, bundled apart as an
// embedded chunk (scripts/embedded.mjs): loaded only by runs that declare MCP
// servers or serve over MCP.
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export { Server } from '@modelcontextprotocol/sdk/server/index.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
export {
  CallToolRequestSchema,
  ElicitRequestSchema,
  ListToolsRequestSchema,
  SetLevelRequestSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
export { GoogleAuth } from 'google-auth-library';
// Our stdio client transport (stdio-transport.ts): in this chunk because it uses the SDK's message schema.
export { BoundedStdioTransport } from './stdio-transport.ts';
