import { parseConfigText, RecipeError } from '../config/parse-config.ts';
import { ConfigFileError, MCP_JSON_FILE, readConfigFile, type ConfigKind } from '../config/read-config-file.ts';
import type { McpConfig, McpServerConfig } from '../config/mcp-schema.ts';
import { joinUnder } from '../startup/join-path.ts';

/** Claude Code's file. Named here, not imported from claude-mcp-json.ts: that module builds zod schemas, and a start without the file must not evaluate them. */
const CLAUDE_MCP_JSON = '.mcp.json';
const CLAUDE_MCP_JSON_FILE: ConfigKind = { ...MCP_JSON_FILE, hint: 'make .mcp.json a JSON file or remove it' };

/**
 * The run's MCP declarations: the workspace's files — `<workspace>/.agents/mcp.json` and
 * Claude Code's `<workspace>/.mcp.json` (checked in with the project; claude-mcp-json.ts) — and
 * the recipe's `mcp:` (the operator's), merged by server name: the recipe wins, then
 * `.agents/mcp.json`, then `.mcp.json`. A missing file is no servers; a broken one is an error
 * with its position, like a broken recipe.
 *
 * The workspace's files are used only when the workspace is trusted: they name commands to
 * start and may expand any environment variable into a header, so a cloned repository must not
 * get to run them (or ship an API key to its own URL) just because someone listed its tools.
 * Untrusted, their servers are reported and skipped (and `.mcp.json`'s are not even translated).
 */
export async function loadMcpConfig(
  workspace: string,
  fromRecipe: McpConfig | undefined,
  trustWorkspace: boolean,
  env: NodeJS.ProcessEnv = {},
): Promise<McpConfig & { untrusted?: string[]; notices?: string[] }> {
  // Read bounded (a FIFO, a huge file or /dev/zero from a cloned repository cannot hang or
  // exhaust a start) and parsed as strict JSON: other tools read the same files.
  const read = async (name: string, kind: ConfigKind): Promise<{ text: string; file: string } | undefined> => {
    const file = joinUnder(workspace, name);
    try {
      return { text: await readConfigFile(file, kind), file };
    } catch (err) {
      if (err instanceof ConfigFileError) {
        if (err.code === 'ENOENT') return undefined;
        throw new RecipeError([err.message]);
      }
      throw err;
    }
  };
  const loadOurs = async (): Promise<McpConfig> => {
    const got = await read('.agents/mcp.json', MCP_JSON_FILE);
    if (!got) return {};
    // Imported here: without an mcp.json, its schema (zod) is never evaluated.
    const { mcpConfigSchema } = await import('../config/mcp-schema.ts');
    return parseConfigText(got.text, got.file, mcpConfigSchema, 'mcp.json is an object with "servers"', { json: true });
  };
  const loadClaude = async (): Promise<{ servers: Record<string, McpServerConfig>; notices: string[] }> => {
    const got = await read(CLAUDE_MCP_JSON, CLAUDE_MCP_JSON_FILE);
    if (!got) return { servers: {}, notices: [] };
    const { claudeServers, claudeServerNames } = await import('./claude-mcp-json.ts');
    if (trustWorkspace) return claudeServers(got.text, got.file, env);
    // Untrusted: only the names, to report; nothing expanded, nothing started.
    return { servers: Object.fromEntries((await claudeServerNames(got.text, got.file)).map((n) => [n, { command: '?' }])), notices: [] };
  };
  // Trusted, a broken file stops the run like a broken recipe; untrusted, it is only reported.
  const unreadable = (err: unknown) => {
    if (err instanceof RecipeError) return { servers: { '(unreadable)': { command: '?' } }, notices: [] };
    throw err;
  };
  const ours: McpConfig = trustWorkspace ? await loadOurs() : await loadOurs().catch(unreadable);
  const claude = trustWorkspace ? await loadClaude() : await loadClaude().catch(unreadable);
  const declared = [...new Set([...Object.keys(claude.servers), ...Object.keys(ours.servers ?? {})])];
  const untrusted = trustWorkspace ? [] : declared.filter((n) => !fromRecipe?.servers?.[n]);
  const fromFiles = trustWorkspace ? { ...claude.servers, ...ours.servers } : {};
  const servers: Record<string, McpServerConfig> = { ...fromFiles, ...fromRecipe?.servers };
  const digest = fromRecipe?.digest ?? (trustWorkspace ? ours.digest : undefined);
  return {
    ...(digest === undefined ? {} : { digest }),
    servers,
    ...(untrusted.length > 0 ? { untrusted } : {}),
    ...(claude.notices.length > 0 ? { notices: claude.notices } : {}),
  };
}
