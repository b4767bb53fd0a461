import path from 'node:path';
import type { McpServerConfig } from '../config/mcp-schema.ts';
import type { Logger } from '../log.ts';
import type { McpManager } from '../mcp/manager.ts';
import type { Resolver } from '../net/guarded-fetch.ts';
import type { SecretValues } from '../util/secret-values.ts';
import { parseRule, ruleMatches, type Rule } from '../permissions/rules.ts';
import type { Catalog } from '../tools/framework/catalog.ts';
import { capErrorText } from '../util/error-text.ts';
import { SettingsError, type Settings } from './settings.ts';
import { stateDir } from './state-dir.ts';
import { processGuardFor } from './exec-only-launch.ts';

/**
 * Connect the declared MCP servers. A server that fails is reported and retried — unless it is
 * `required`: then the start fails (SettingsError, exit 2) with the server and why, since a
 * run without the tools its recipe is built on would investigate blind and still exit 0.
 */
export async function startMcp(o: {
  servers: Readonly<Record<string, McpServerConfig>>;
  catalog: Catalog;
  workspace: string;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  settings: Settings;
  resolver?: Resolver | undefined;
  secrets?: SecretValues | undefined;
}): Promise<McpManager | undefined> {
  const { servers, settings: s } = o;
  if (Object.values(servers).every((c) => c.disabled)) return undefined;
  // The same grammar as permission rules: mcp.<server>, mcp.<server>.<tool>, * anywhere.
  const parsed = (names: readonly string[]) => names.filter((n) => n.startsWith('mcp.')).map((n) => parseRule(n));
  const allowRules = parsed(s.allowTools ?? []);
  const denyRules = parsed(s.denyTools ?? []);
  const matches = (rules: readonly Rule[], name: string) => rules.some((r) => ruleMatches(r, name, [], 'any'));
  const allow = s.allowTools && s.allowTools.length > 0 ? allowRules : null;
  // ${CORE_AGENT_RECIPE_DIR} in a server's args and env finds files shipped beside the recipe.
  const env = s.recipe ? { ...o.env, CORE_AGENT_RECIPE_DIR: path.dirname(path.resolve(s.recipe)) } : o.env;
  // Imported here: a run without MCP servers never evaluates the client or its schemas.
  const { McpManager } = await import('../mcp/manager.ts');
  const manager = new McpManager({
    servers,
    catalog: o.catalog,
    workspace: o.workspace,
    env,
    stateDir: stateDir(env),
    logger: o.logger,
    resolve: o.resolver,
    secrets: o.secrets,
    processGuard: processGuardFor(env),
    keep: (name) => (allow === null || matches(allow, name)) && !matches(denyRules, name),
  });
  const failed = await manager.start();
  const missing = failed.find((f) => servers[f.server]?.required === true);
  if (missing) {
    await manager.close();
    throw new SettingsError(
      `the recipe requires the MCP server "${missing.server}" (mcp.servers.${missing.server}.required) and it did not start: ${capErrorText(missing.error.replace(/\s+/g, ' ').trim(), 300)}`,
    );
  }
  return manager;
}
