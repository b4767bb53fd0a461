import { realpath, stat } from '../startup/fs-callbacks.ts';
import path from 'node:path';
import { loadConfigLayers, type LayeredConfig } from '../config/config-layers.ts';
import { BUILTIN_TOOL_SPECS } from '../tools/index.ts';
import type { Recipe } from '../config/recipe-schema.ts';
import { SettingsError, type Settings } from './settings.ts';
import { resolveDir } from '../startup/join-path.ts';

/** The recipe step: the file -c / CORE_AGENT_RECIPE names (RecipeError for anything wrong in it), or none. */
export async function loadRecipeStep(s: Pick<Settings, 'recipe'>): Promise<Recipe> {
  if (!s.recipe) return {};
  // Imported here: without a recipe, its schema (zod, every section) is never evaluated.
  const { loadRecipe } = await import('../config/load-recipe.ts');
  return loadRecipe(s.recipe, BUILTIN_TOOL_SPECS);
}

/**
 * The recipe as the steps read it: the user file, the project file (only its
 * narrowing keys unless the workspace is trusted) and the recipe, merged
 * (src/config/config-layers.ts); flags and environment still win over it, key by key.
 */
export async function loadConfigStep(
  s: Pick<Settings, 'recipe' | 'trustWorkspace'>,
  where: { workspace: string; env: NodeJS.ProcessEnv; home: string },
): Promise<LayeredConfig> {
  return loadConfigLayers({ recipeFile: s.recipe, trustWorkspace: s.trustWorkspace === true, tools: BUILTIN_TOOL_SPECS, ...where });
}

/** Where files shipped beside the recipe are (skills dirs, ${CORE_AGENT_RECIPE_DIR}); the workspace without one. */
export function recipeDirOf(s: Pick<Settings, 'recipe'>, workspace: string): string {
  return s.recipe ? path.dirname(path.resolve(s.recipe)) : workspace;
}

/** -w / CORE_AGENT_WORKSPACE (default: the current directory), symlinks resolved. */
export async function resolveWorkspace(dir: string): Promise<string> {
  const abs = resolveDir(dir);
  try {
    if (!(await stat(abs)).isDirectory()) throw new SettingsError(`workspace ${abs} is not a directory`);
    return await realpath(abs);
  } catch (err) {
    if (err instanceof SettingsError) throw err;
    throw new SettingsError(`workspace ${abs} does not exist`);
  }
}
