import path from 'node:path';
import { SettingsError } from '../../core/settings-error.ts';
import { loadSkills, SkillError, type Skill } from '../../skills/skills.ts';
import { joinUnder } from '../../startup/join-path.ts';
import type { FamilyServices } from '../framework/family.ts';
import type { MissingReasons } from '../framework/services.ts';

declare module '../framework/services.ts' {
  interface ToolServices {
    /** Installed skills (the skill tool). */
    readonly skills?: readonly Skill[] | undefined;
  }
}

/** Skills: the workspace's .agents/skills, and the recipe's dirs (relative to the recipe). */
export const services: FamilyServices = async ({ recipe, workspace, recipeDir, scope }) => {
  const dirs = [joinUnder(workspace, '.agents/skills'), ...(recipe.skills?.dirs ?? []).map((d) => path.resolve(recipeDir, d))];
  try {
    return { skills: await loadSkills(dirs, { denies: (p) => scope.denies(p) }) };
  } catch (err) {
    if (err instanceof SkillError) throw new SettingsError(err.message);
    throw err;
  }
};

export const missing: MissingReasons = {
  skills: () => 'no skills installed (.agents/skills, skills.dirs)',
};
