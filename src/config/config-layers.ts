import path from 'node:path';
import { joinUnder } from '../startup/join-path.ts';
import { mergeLayers } from './merge-layers.ts';
import { MAX_PROBLEMS, parseConfigTextAt, RECIPE_SHAPE, RecipeError } from './parse-config.ts';
import { ConfigFileError, MAX_RECIPE_BYTES, readConfigFile, RECIPE_FILE, type ConfigKind } from './read-config-file.ts';
import type { Recipe, ToolSettingsSpec } from './recipe-schema.ts';
import { keepTrustedKeys } from './untrusted-keys.ts';

const FILE_SHAPE = 'a configuration file is a mapping of keys (model, tools, permissions, …)';

/**
 * The configuration layers under flags and environment, lowest first: the user
 * file, the project file, the recipe -c names. Each file has the recipe's schema
 * and is read and checked exactly as a recipe is (the bounded reader, the YAML
 * checks, errors at FILE:LINE:COL); a missing user or project file is no layer.
 *
 * The recipe is the highest of the three: it is named for this one run, the
 * files are standing defaults, so what the recipe says about a key wins (an
 * incident recipe's mode and disabled tools hold whatever the user's file says),
 * while the lists that add rules (deny rules, hooks, …) keep every layer's.
 */
export const CONFIG_FILE: ConfigKind = {
  noun: 'a configuration file',
  maxBytes: MAX_RECIPE_BYTES,
  hint: 'make it a YAML file or remove it',
};

/** $XDG_CONFIG_HOME/core-agent/config.yaml (an absolute XDG_CONFIG_HOME only, as the XDG spec says), else ~/.config/…. */
export function userConfigPath(env: NodeJS.ProcessEnv, home: string): string {
  const xdg = env.XDG_CONFIG_HOME;
  return xdg && path.isAbsolute(xdg) ? joinUnder(xdg, 'core-agent/config.yaml') : joinUnder(home, '.config/core-agent/config.yaml');
}

export function projectConfigPath(workspace: string): string {
  return joinUnder(workspace, '.agents/config.yaml');
}

export interface ConfigLayer {
  readonly source: 'user' | 'project' | 'recipe';
  readonly file: string;
  readonly recipe: Recipe;
}

export interface LayeredConfig {
  /** The layers merged (merge-layers.ts): what the steps read as "the recipe". */
  recipe: Recipe;
  layers: ConfigLayer[];
  /** Lines for the user (keys of an untrusted project file that were left out). */
  notices: string[];
}

export interface LayerOptions {
  recipeFile: string | undefined;
  workspace: string;
  env: NodeJS.ProcessEnv;
  home: string;
  trustWorkspace: boolean;
  tools: readonly ToolSettingsSpec[];
}

export async function loadConfigLayers(o: LayerOptions): Promise<LayeredConfig> {
  const layers: ConfigLayer[] = [];
  const notices: string[] = [];
  const user = userConfigPath(o.env, o.home);
  const project = projectConfigPath(o.workspace);
  const userLayer = await readLayer(user, CONFIG_FILE, o.tools, true);
  if (userLayer) layers.push({ source: 'user', file: user, recipe: absoluteSkillDirs(userLayer.value, user) });
  // The same file twice (a workspace at ~/.config/core-agent/..): one layer, the user's.
  const projectLayer = project === user ? undefined : await readLayer(project, CONFIG_FILE, o.tools, true);
  if (projectLayer) {
    let value = projectLayer.value;
    if (!o.trustWorkspace) {
      const { kept, dropped } = keepTrustedKeys(value as Record<string, unknown>);
      value = kept as Recipe;
      for (const d of dropped.slice(0, MAX_PROBLEMS)) {
        notices.push(
          `${project}:${projectLayer.at(d.path)}: ${d.path.join('.')} is ignored: the workspace is not trusted and ${d.why} (--trust-workspace to use it)`,
        );
      }
      if (dropped.length > MAX_PROBLEMS) notices.push(`${project}: … and ${dropped.length - MAX_PROBLEMS} more keys ignored`);
    }
    layers.push({ source: 'project', file: project, recipe: absoluteSkillDirs(value, project) });
  }
  if (o.recipeFile) {
    const recipeLayer = await readLayer(o.recipeFile, RECIPE_FILE, o.tools, false, RECIPE_SHAPE);
    layers.push({ source: 'recipe', file: o.recipeFile, recipe: recipeLayer!.value });
  }
  const recipe = layers.reduce<Recipe>((acc, l) => mergeLayers(acc, l.recipe), {});
  return { recipe, layers, notices };
}

async function readLayer(file: string, kind: ConfigKind, tools: readonly ToolSettingsSpec[], optional: boolean, shape = FILE_SHAPE) {
  let text: string;
  try {
    text = await readConfigFile(file, kind);
  } catch (err) {
    if (!(err instanceof ConfigFileError)) throw err;
    if (optional && err.code === 'ENOENT') return undefined;
    throw new RecipeError([err.message]);
  }
  // The schema's module (zod and every section's schema) is evaluated only when a file is there.
  const { recipeSchema } = await import('./recipe-schema.ts');
  return parseConfigTextAt(text, file, recipeSchema(tools), shape);
}

/** skills.dirs are relative to the file that names them (a recipe's are resolved against its directory later). */
function absoluteSkillDirs(recipe: Recipe, file: string): Recipe {
  const dirs = recipe.skills?.dirs;
  if (!dirs) return recipe;
  return { ...recipe, skills: { ...recipe.skills, dirs: dirs.map((d) => path.resolve(path.dirname(file), d)) } };
}
