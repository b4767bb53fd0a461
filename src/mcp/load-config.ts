import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseConfigText } from '../config/load-recipe.ts';
import { mcpConfigSchema, type McpConfig, type McpServerConfig } from '../config/mcp-schema.ts';

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
  const file = path.join(workspace, '.agents', 'mcp.json');
  let text: string | undefined;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const parse = (t: string) => parseConfigText(t, file, mcpConfigSchema, 'mcp.json is an object with "servers"');
  // Trusted, a broken file stops the run like a broken recipe; untrusted, it is only reported.
  const parsed: McpConfig =
    text === undefined
      ? {}
      : trustWorkspace
        ? await parse(text)
        : await parse(text).catch(() => ({ servers: { '(unreadable)': { command: '?' } } }));
  const untrusted = !trustWorkspace && parsed.servers ? Object.keys(parsed.servers).filter((n) => !fromRecipe?.servers?.[n]) : [];
  const fromFile = trustWorkspace ? parsed : {};
  const servers: Record<string, McpServerConfig> = { ...fromFile.servers, ...fromRecipe?.servers };
  const digest = fromRecipe?.digest ?? fromFile.digest;
  return { ...(digest === undefined ? {} : { digest }), servers, ...(untrusted.length > 0 ? { untrusted } : {}) };
}
