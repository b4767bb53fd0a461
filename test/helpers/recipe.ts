import { parseRecipe, RecipeError } from '../../src/config/load-recipe.ts';
import { BUILTIN_TOOLS } from '../../src/tools/index.ts';

/** Every problem parseRecipe reports for `text` (as file r.yaml); [] when it parses. */
export async function recipeProblems(text: string): Promise<string[]> {
  try {
    await parseRecipe(text, 'r.yaml', BUILTIN_TOOLS);
  } catch (err) {
    if (err instanceof RecipeError) return [...err.problems];
    throw err;
  }
  return [];
}
