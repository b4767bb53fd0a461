import { describe, expect, it } from 'vitest';
import { parseRecipe, RecipeError } from '../../src/config/load-recipe.ts';
import { BUILTIN_TOOLS } from '../../src/tools/index.ts';
import { PROFILE_RECIPE_CASES } from './agent-profiles.cases.ts';

async function problems(text: string): Promise<string[]> {
  try {
    await parseRecipe(text, 'r.yaml', BUILTIN_TOOLS);
  } catch (err) {
    if (err instanceof RecipeError) return [...err.problems];
    throw err;
  }
  return [];
}

describe('agents.profiles in the recipe', () => {
  it.for(PROFILE_RECIPE_CASES.map((c) => [c.name, c] as const))('%s', async ([, c]) => {
    const found = await problems(c.recipe);
    if (c.problem === undefined) expect(found).toEqual([]);
    else if (typeof c.problem === 'string') expect(found).toEqual([c.problem]);
    else expect(found[0]).toMatch(c.problem);
  });
});
