import { ConfigFileError, readConfigFile, RECIPE_FILE } from './read-config-file.ts';
import { parseConfigText, RECIPE_SHAPE, RecipeError } from './parse-config.ts';
import { recipeSchema, type Recipe, type ToolSettingsSpec } from './recipe-schema.ts';

export { parseConfigText, RecipeError, RECIPE_SHAPE } from './parse-config.ts';

/**
 * Read (bounded: read-config-file.ts) and validate a recipe against the tools
 * this build has (their names and settings); every problem is a RecipeError line.
 */
export async function loadRecipe(file: string, tools: readonly ToolSettingsSpec[]): Promise<Recipe> {
  let text: string;
  try {
    text = await readConfigFile(file, RECIPE_FILE);
  } catch (err) {
    if (err instanceof ConfigFileError) throw new RecipeError([err.message]);
    throw err;
  }
  return parseRecipe(text, file, tools);
}

/** Parse and validate recipe text; all problems are reported at once, each with its position. */
export async function parseRecipe(text: string, file: string, tools: readonly ToolSettingsSpec[]): Promise<Recipe> {
  return parseConfigText(text, file, recipeSchema(tools), RECIPE_SHAPE);
}
