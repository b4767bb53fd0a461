// An MCP server (the SDK's, over stdio) whose one tool elicits during the call:
// `node elicit-server.ts`. The tool `ask` sends `elicitation/create` with the
// message and requestedSchema it is given (or, with none, SEP-1034's form of
// defaults) and returns what the client answered, as JSON text — or the error the
// client's SDK raised — so a test reads exactly what the server saw.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ElicitResultSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** The conformance suite's SEP-1034 form: every field optional, every one with a default. */
export const DEFAULTS_FORM = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'User name', default: 'John Doe' },
    age: { type: 'integer', description: 'User age', default: 30 },
    score: { type: 'number', description: 'User score', default: 95.5 },
    status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', description: 'Verification status', default: true },
  },
  required: [],
};

const server = new Server({ name: 'elicit-test', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [{ name: 'ask', description: 'elicits during the call', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
}));
server.setRequestHandler(CallToolRequestSchema, async (req) => {
  const args = (req.params.arguments ?? {}) as { message?: string; schema?: unknown; mode?: string; url?: string };
  const params =
    args.mode !== undefined
      ? { mode: args.mode, message: args.message ?? 'open this', url: args.url ?? 'http://127.0.0.1:1/x', elicitationId: 'e1' }
      : {
          message: args.message ?? 'Please accept with defaults',
          requestedSchema: args.schema === 'none' ? undefined : (args.schema ?? DEFAULTS_FORM),
        };
  try {
    const result = await server.request({ method: 'elicitation/create', params } as never, ElicitResultSchema, { timeout: 60_000 });
    return { content: [{ type: 'text', text: JSON.stringify(result) }] };
  } catch (err) {
    return { content: [{ type: 'text', text: JSON.stringify({ error: (err as Error).message }) }] };
  }
});
await server.connect(new StdioServerTransport());
