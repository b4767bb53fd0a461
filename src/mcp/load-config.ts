import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseConfigText } from '../config/load-recipe.ts';
import { mcpConfigSchema, type McpConfig, type McpServerConfig } from '../config/mcp-schema.ts';

/**
 * The run's MCP declarations: `<workspace>/.agents/mcp.json` (checked in with the
 * project) and the recipe's `mcp:` (the operator's), merged by server name with
 * the recipe winning. A missing file is no servers; a broken one is an error with
 * its position, like a broken recipe.
 */
export async function loadMcpConfig(workspace: string, fromRecipe: McpConfig | undefined): Promise<McpConfig> {
  const file = path.join(workspace, '.agents', 'mcp.json');
  let text: string | undefined;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const fromFile = text === undefined ? {} : await parseConfigText(text, file, mcpConfigSchema, 'mcp.json is an object with "servers"');
  const servers: Record<string, McpServerConfig> = { ...fromFile.servers, ...fromRecipe?.servers };
  const digest = fromRecipe?.digest ?? fromFile.digest;
  return { ...(digest === undefined ? {} : { digest }), servers };
}
