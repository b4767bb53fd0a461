// The MCP SDK (client and server) and Google's auth library, bundled apart as an
// embedded chunk (scripts/bundle/embedded.mjs): loaded only by runs that declare MCP
// servers or serve over MCP.
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { refreshAuthorization, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
export { createPrivateKeyJwtAuth } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export { Server } from '@modelcontextprotocol/sdk/server/index.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
export {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  SetLevelRequestSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
export { GoogleAuth } from 'google-auth-library';

import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import * as z from 'zod/v4';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';

/** elicitation/create with any params: core-agent reads the form itself (elicit-form.ts). */
const AnyElicitRequestSchema = z.object({ method: z.literal('elicitation/create'), params: z.looseObject({}) });

/**
 * Handle elicitation/create below the Client's own wrapper, which validates the
 * request and answers a form it cannot parse with an error holding the whole zod
 * dump (kilobytes): here a bad form gets a decline with one bounded sentence.
 * Protocol's handler still checks that the capability was declared.
 */
export function handleElicitation(
  client: Client,
  handler: (params: Record<string, unknown>, extra: { signal: AbortSignal }) => Promise<ElicitResult>,
): void {
  Protocol.prototype.setRequestHandler.call(client, AnyElicitRequestSchema, (req: { params: Record<string, unknown> }, extra) =>
    handler(req.params, extra),
  );
}
// Our stdio client transport (stdio-transport.ts): in this chunk because it uses the SDK's message schema.
export { BoundedStdioTransport } from './stdio-transport.ts';
