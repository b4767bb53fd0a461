import type { CallToolResult, ContentBlock, Tool } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';
import type { McpServerConfig } from '../config/mcp-schema.ts';
import { LIMITS } from '../tools/framework/limits.ts';
import { kindFromHints } from '../tools/framework/kinds.ts';
import { ToolError, type AnyTool, type JsonObject, type JsonValue } from '../tools/framework/tool.ts';
import { DEFAULT_CALL_TIMEOUT_MS, type McpConnection } from './connection.ts';
import { canonicalName } from './names.ts';

/**
 * The server validates arguments against its own schema; here they only have to
 * be an object, and not a huge one: an MCP peer reads a message whole (the SDK's
 * stdio transport gives up past 10 MiB), so a call's arguments are bounded too.
 */
const ANY_OBJECT = z.record(z.string(), z.unknown()).superRefine((args, ctx) => {
  const bytes = Buffer.byteLength(JSON.stringify(args));
  if (bytes > LIMITS.mcpArgumentsBytes) {
    ctx.addIssue({
      code: 'custom',
      message: `the arguments are ${bytes} bytes of JSON, above the ${LIMITS.mcpArgumentsBytes} bytes an MCP call may carry; send less (a filter, a reference instead of the data)`,
    });
  }
});

/**
 * Read-only — so it runs without approval, concurrently, and may be polled — when
 * the server says so (readOnlyHint), or the operator does (read_only: true on the
 * server, or the tool in poll_allow). The hint is trusted because the operator
 * chose the server; a server that lies about it is a server to leave undeclared.
 */
export function isReadOnly(cfg: McpServerConfig, tool: Tool): boolean {
  return cfg.read_only === true || (cfg.poll_allow ?? []).includes(tool.name) || tool.annotations?.readOnlyHint === true;
}

/** One MCP tool as a catalog entry: the same dispatch path, gate, caps and digest as a built-in. */
export function mcpToolDefinition(server: string, cfg: McpServerConfig, tool: Tool, connection: McpConnection): AnyTool {
  const name = canonicalName(server, tool.name);
  const readOnly = isReadOnly(cfg, tool);
  return {
    name,
    description: tool.description ?? tool.annotations?.title ?? tool.title ?? `${tool.name} (MCP server ${server})`,
    args: ANY_OBJECT,
    inputSchema: tool.inputSchema as Record<string, unknown>,
    // Open-world unless the server says otherwise: another server is another system.
    kind: kindFromHints({
      readOnly,
      destructive: tool.annotations?.destructiveHint === true,
      openWorld: tool.annotations?.openWorldHint !== false,
    }),
    digest: cfg.digest !== false,
    // A server may ask the operator for a form mid-call (elicitation): the call carries the run's asker.
    uses: ['asker'],
    narrowHint: 'Ask the tool for less (a filter, a namespace, a limit), if it takes one.',
    // The server's own timeout decides (it may be past the dispatcher's 300 s default); the margin lets it report first.
    deadlineMs: () => (cfg.call_timeout_seconds ?? DEFAULT_CALL_TIMEOUT_MS / 1000) * 1000 + 15_000,
    async run(args, ctx) {
      const result = await connection.call(tool.name, args as Record<string, unknown>, ctx.signal, { readOnly, asker: ctx.services.asker });
      const shown = resultForModel(result);
      if (result.isError === true) throw new ToolError(errorText(shown));
      return shown;
    },
  };
}

/**
 * What the model reads of a CallToolResult. Structured content when there is
 * some (its text twin is, by the spec, the same data serialised); one text block
 * as `text`; several blocks as `content`. Binary data is described, not inlined.
 */
export function resultForModel(result: CallToolResult): JsonObject {
  const blocks = (result.content ?? []).map(simplify);
  if (result.structuredContent !== undefined) {
    const other = blocks.filter((b) => b.type !== 'text');
    return { structured: result.structuredContent as JsonObject, ...(other.length > 0 ? { content: other } : {}) };
  }
  const only = blocks[0];
  if (blocks.length === 1 && only?.type === 'text') return { text: only.text as string };
  return { content: blocks };
}

function simplify(block: ContentBlock): JsonObject {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
    case 'audio':
      return { type: block.type, mimeType: block.mimeType, bytes: Math.floor((block.data.length * 3) / 4), note: 'binary data not shown' };
    case 'resource': {
      const r = block.resource;
      return 'text' in r
        ? { type: 'resource', uri: r.uri, text: r.text }
        : { type: 'resource', uri: r.uri, mimeType: r.mimeType ?? null, note: 'binary data not shown' };
    }
    case 'resource_link':
      return { type: 'resource_link', uri: block.uri, name: block.name, ...(block.description ? { description: block.description } : {}) };
    default:
      return { type: String((block as { type: unknown }).type), note: 'content type not shown' };
  }
}

/**
 * An isError result as the error text the model reads. The dispatcher cuts every
 * error, this one in every shape, to ERROR_MAX_CHARS (the README's 8,000 characters).
 */
function errorText(shown: JsonObject): string {
  if (typeof shown.text === 'string') return shown.text;
  const texts = ((shown.content as JsonValue[] | undefined) ?? [])
    .map((b) => (b && typeof b === 'object' && !Array.isArray(b) && typeof b.text === 'string' ? b.text : ''))
    .filter((t) => t.length > 0);
  return texts.length > 0 ? texts.join('\n') : JSON.stringify(shown);
}
