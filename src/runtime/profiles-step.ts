import { unknownName } from '../config/did-you-mean.ts';
import { positionOf } from '../config/parse-config.ts';
import { readConfigFile, RECIPE_FILE } from '../config/read-config-file.ts';
import type { AgentsConfig } from '../config/agents-schema.ts';
import { SettingsError } from '../core/settings-error.ts';
import type { Catalog } from '../tools/framework/catalog.ts';
import type { ToolKind } from '../tools/framework/kinds.ts';
import type { Delegator, ToolServices } from '../tools/framework/services.ts';

/**
 * Declarative subagents (docs/delegation.md): in core-agent's dialect, wherever spawn_agent is
 * registered under its own name and the recipe's `tools.kinds` (when it has one) allows
 * delegation, each profile is also offered as `agent_<profile>`. A recipe that leaves
 * `delegate` out of its kinds and enables spawn_agent by name made one exception, not these. The set
 * follows the recipe, so it joins the catalog as a source, as an MCP server's tools do — before
 * the MCP servers, whose model-facing names then keep clear of it. Cagent's delegate_agent and
 * golem's StartSubagent are their systems' only shapes: there, no profile tools.
 */
export async function offerProfileTools(
  catalog: Catalog,
  delegator: Delegator | undefined,
  kinds: readonly ToolKind[] | undefined,
): Promise<void> {
  const spawn = catalog.get('spawn_agent');
  if (delegator === undefined || catalog.dialect !== 'core-agent' || spawn === undefined || spawn.face !== undefined) return;
  if (kinds !== undefined && !kinds.includes('delegate')) return;
  // Imported here: a command without delegation never evaluates it (or its schema).
  const { profileTool } = await import('../tools/delegation/profile-tool.ts');
  catalog.setSource(
    'agents',
    delegator.profiles().map((p) => profileTool(p)),
    (def) => def.name,
  );
}

/**
 * A profile's `skills` are known only once the skills directories are read: a name no skill
 * has stops the start here (exit 2) with the field at its line:col in the recipe, as the
 * recipe's own checks say at load (a profile from another config layer: the field alone).
 */
export async function checkProfileSkills(
  agents: AgentsConfig | undefined,
  services: ToolServices,
  recipeFile: string | undefined,
): Promise<void> {
  const known = (services.skills ?? []).map((s) => s.name);
  for (const [name, profile] of Object.entries(agents?.profiles ?? {})) {
    const unknown = (profile.skills ?? []).findIndex((skill) => !known.includes(skill));
    if (unknown === -1) continue;
    const skill = profile.skills![unknown]!;
    const field = `agents.profiles.${name}.skills.${unknown}`;
    const at = recipeFile === undefined ? undefined : await recipePosition(recipeFile, ['agents', 'profiles', name, 'skills', unknown]);
    const where = recipeFile === undefined ? field : `${recipeFile}${at ? `:${at}` : ''}: ${field}`;
    throw new SettingsError(
      known.length
        ? `${where}: ${unknownName('skill', skill, known)}`
        : `${where}: no skill "${skill}": none is installed (.agents/skills, skills.dirs)`,
    );
  }
}

/** The field's line:col in the recipe file, read again (it was loaded and checked already); undefined if it cannot say. */
async function recipePosition(file: string, path: readonly PropertyKey[]): Promise<string | undefined> {
  try {
    return await positionOf(await readConfigFile(file, RECIPE_FILE), path);
  } catch {
    return undefined;
  }
}
