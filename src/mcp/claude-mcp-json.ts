import * as z from 'zod/v4';
import { mcpServerSchema, SERVER_NAME, type McpServerConfig } from '../config/mcp-schema.ts';
import { parseConfigText } from '../config/parse-config.ts';

/**
 * Claude Code's project-scope `.mcp.json` at the workspace root, read as Claude Code writes it
 * (`claude mcp add --scope project`):
 *
 *   {"mcpServers": {"NAME": {"command": …, "args": […], "env": {…}}                  (stdio; "type": "stdio" optional)
 *                   "NAME": {"type": "http", "url": …, "headers": {…}}}}             (Streamable HTTP)
 *
 * Each server becomes the declaration `.agents/mcp.json` would hold, checked by the same schema.
 * `${VAR}` and `${VAR:-default}` expand as Claude Code expands them: in `command` and `url` here
 * (the schema checks the URL), in `args`, `env` and `headers` when the server starts (so secrets
 * stay references until then, as in `.agents/mcp.json`). What core-agent cannot take is said and
 * skipped, server by server, never the whole file: an SSE server (core-agent speaks Streamable
 * HTTP), an unset variable in `command` or `url`, a name MCP rules cannot hold; keys Claude Code
 * knows and core-agent does not (`oauth`, `headersHelper`, …) are ignored and named.
 */
export const CLAUDE_MCP_JSON = '.mcp.json';

const KNOWN_KEYS = new Set(['type', 'command', 'args', 'env', 'url', 'headers']);

const entrySchema = z.looseObject({
  type: z.string().optional(),
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  url: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
});

/** Only `mcpServers` is Claude Code's key here; anything else in the file is not core-agent's to judge. */
const fileSchema = z.looseObject({ mcpServers: z.record(z.string(), entrySchema).optional() });

type Entry = z.output<typeof entrySchema>;

export interface ClaudeServers {
  servers: Record<string, McpServerConfig>;
  /** One line each: a server skipped, or keys ignored. */
  notices: string[];
}

/** The server names the file declares (an untrusted workspace's are reported, not started). */
export async function claudeServerNames(text: string, file: string): Promise<string[]> {
  return Object.keys(
    (await parseConfigText(text, file, fileSchema, '.mcp.json is an object with "mcpServers"', { json: true })).mcpServers ?? {},
  );
}

/** The file's servers as core-agent's declarations; its JSON or shape errors are RecipeErrors at their position. */
export async function claudeServers(text: string, file: string, env: NodeJS.ProcessEnv): Promise<ClaudeServers> {
  const parsed = await parseConfigText(text, file, fileSchema, '.mcp.json is an object with "mcpServers"', { json: true });
  const servers: Record<string, McpServerConfig> = {};
  const notices: string[] = [];
  for (const [name, entry] of Object.entries(parsed.mcpServers ?? {})) {
    const where = `${file}: mcpServers.${name.slice(0, 40)}`;
    const r = translate(name, entry, env);
    if ('skip' in r) {
      notices.push(`${where} is not started: ${r.skip}`);
      continue;
    }
    const ignored = Object.keys(entry).filter((k) => !KNOWN_KEYS.has(k));
    if (ignored.length > 0)
      notices.push(`${where}: ${ignored.slice(0, 5).join(', ')} ignored (Claude Code's; core-agent does not read them)`);
    servers[name] = r.server;
  }
  return { servers, notices };
}

function translate(name: string, entry: Entry, env: NodeJS.ProcessEnv): { server: McpServerConfig } | { skip: string } {
  if (!SERVER_NAME.test(name)) return { skip: 'a server name starts with a letter, then letters, digits, - and _ (at most 32)' };
  const type = entry.type ?? (entry.url !== undefined && entry.command === undefined ? 'http' : 'stdio');
  if (type === 'sse') return { skip: 'it uses the SSE transport, and core-agent speaks Streamable HTTP ("type": "http") only' };
  if (type !== 'stdio' && type !== 'http') return { skip: `"type": "${type.slice(0, 20)}" is not one core-agent knows (stdio, http)` };
  const candidate: Record<string, unknown> = { transport: type };
  if (type === 'stdio') {
    const command = entry.command === undefined ? undefined : expandNow(entry.command, env);
    if (typeof command === 'object') return { skip: `command needs \${${command.unset}}, which is not set` };
    Object.assign(candidate, { command, args: entry.args, env: entry.env });
  } else {
    const url = entry.url === undefined ? undefined : expandNow(entry.url, env);
    if (typeof url === 'object') return { skip: `url needs \${${url.unset}}, which is not set` };
    Object.assign(candidate, { url, headers: entry.headers });
  }
  for (const k of Object.keys(candidate)) if (candidate[k] === undefined) delete candidate[k];
  const checked = mcpServerSchema.safeParse(candidate);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    return { skip: `${issue.path.join('.') || 'the server'}: ${issue.message.slice(0, 200)}` };
  }
  return { server: checked.data };
}

/** `${VAR}` / `${VAR:-default}` now, from core-agent's environment (ENV_REFERENCE's forms); an unset one without a default is named. */
function expandNow(value: string, env: NodeJS.ProcessEnv): string | { unset: string } {
  let unset: string | undefined;
  const out = value.replace(/\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_m, name: string, fallback: string | undefined) => {
    const v = env[name];
    if (v !== undefined && v !== '') return v;
    if (fallback !== undefined) return fallback;
    if (v === undefined) unset ??= name;
    return '';
  });
  return unset === undefined ? out : { unset };
}
