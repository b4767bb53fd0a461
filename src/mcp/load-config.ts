import { parseConfigText, RecipeError } from '../config/parse-config.ts';
import { ConfigFileError, MCP_JSON_FILE, readConfigFile } from '../config/read-config-file.ts';
import type { McpConfig, McpServerConfig } from '../config/mcp-schema.ts';
import { joinUnder } from '../util/join-path.ts';

/**
 * The run's MCP declarations: `<workspace>/.agents/mcp.json` (checked in with the
 * project) and the recipe's `mcp:` (the operator's), merged by server name with
 * the recipe winning. A missing file is no servers; a broken one is an error with
 * its position, like a broken recipe.
 *
 * The workspace's file is used only when the workspace is trusted: it names commands
 * to start and may expand any environment variable into a header, so a cloned
 * repository must not get to run them (or ship an API key to its own URL) just
 * because someone listed its tools. Untrusted, its servers are reported and skipped.
 */
export async function loadMcpConfig(
  workspace: string,
  fromRecipe: McpConfig | undefined,
  trustWorkspace: boolean,
): Promise<McpConfig & { untrusted?: string[] }> {
  const file = joinUnder(workspace, '.agents/mcp.json');
  // Read bounded (a FIFO, a huge file or /dev/zero from a cloned repository cannot hang or
  // exhaust a start) and parsed as strict JSON: other tools read the same file.
  const load = async (): Promise<McpConfig> => {
    let text: string;
    try {
      text = await readConfigFile(file, MCP_JSON_FILE);
    } catch (err) {
      if (err instanceof ConfigFileError) {
        if (err.code === 'ENOENT') return {};
        throw new RecipeError([err.message]);
      }
      throw err;
    }
    // Imported here: without an mcp.json, its schema (zod) is never evaluated.
    const { mcpConfigSchema } = await import('../config/mcp-schema.ts');
    return parseConfigText(text, file, mcpConfigSchema, 'mcp.json is an object with "servers"', { json: true });
  };
  // Trusted, a broken file stops the run like a broken recipe; untrusted, it is only reported.
  const parsed: McpConfig = trustWorkspace
    ? await load()
    : await load().catch((err: unknown) => {
        if (err instanceof RecipeError) return { servers: { '(unreadable)': { command: '?' } } };
        throw err;
      });
  const untrusted = !trustWorkspace && parsed.servers ? Object.keys(parsed.servers).filter((n) => !fromRecipe?.servers?.[n]) : [];
  const fromFile = trustWorkspace ? parsed : {};
  const servers: Record<string, McpServerConfig> = { ...fromFile.servers, ...fromRecipe?.servers };
  const digest = fromRecipe?.digest ?? fromFile.digest;
  return { ...(digest === undefined ? {} : { digest }), servers, ...(untrusted.length > 0 ? { untrusted } : {}) };
}
