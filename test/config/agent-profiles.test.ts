import { describe, expect, it } from 'vitest';
import { parseRecipe, RecipeError } from '../../src/config/load-recipe.ts';
import { profileToolName } from '../../src/config/agents-schema.ts';
import { BUILTIN_TOOL_NAMES, BUILTIN_TOOLS } from '../../src/tools/index.ts';
import { PROFILE_RECIPE_CASES } from './agent-profiles.cases.ts';

async function problems(text: string, extraTool?: string): Promise<string[]> {
  const tools = extraTool ? [...BUILTIN_TOOLS, { name: extraTool }] : BUILTIN_TOOLS;
  try {
    await parseRecipe(text, 'r.yaml', tools);
  } catch (err) {
    if (err instanceof RecipeError) return [...err.problems];
    throw err;
  }
  return [];
}

describe('agents.profiles in the recipe', () => {
  it.for(PROFILE_RECIPE_CASES.map((c) => [c.name, c] as const))('%s', async ([, c]) => {
    const found = await problems(c.recipe, c.extraTool);
    if (c.problem === undefined) expect(found).toEqual([]);
    else if (typeof c.problem === 'string') expect(found).toEqual([c.problem]);
    else expect(found[0]).toMatch(c.problem);
  });

  it("no built-in tool takes a built-in profile's declarative tool name", () => {
    for (const p of ['general', 'explore']) expect(BUILTIN_TOOL_NAMES).not.toContain(profileToolName(p));
  });
});
