import path from 'node:path';
import { SettingsError } from '../../core/settings-error.ts';
import { loadSkills, SkillError, type Skill } from '../../skills/skills.ts';
import { joinUnder } from '../../startup/join-path.ts';
import type { FamilyServices } from '../framework/family.ts';
import type { MissingReasons } from '../framework/services.ts';
import { SkillStore, type ScopedRoot } from './store.ts';

declare module '../framework/services.ts' {
  interface ToolServices {
    /** The skills installed when the run started (the skill tool's description, agents.profiles.<p>.skills). */
    readonly skills?: readonly Skill[] | undefined;
    /** The skills now, and the principal's own skills folder (skill, list_skills, write_skill_file, delete_skill). */
    readonly skillStore?: SkillStore | undefined;
  }
}

/**
 * Skills, first root first (the first wins a name): the principal's own (`<state>/users/<name>/skills`),
 * the group's and the tenant's (read-only), the workspace's .agents/skills, then the recipe's dirs
 * (relative to the recipe). The first three are written by people and models at run time, so an
 * unusable skill there is skipped with a warning; the last two ship with the project and the recipe,
 * so one stops the run, as it always has.
 */
export const services: FamilyServices = async ({ recipe, workspace, recipeDir, scope, userHome, logger }) => {
  const roots: ScopedRoot[] = [
    ...(userHome ? [{ dir: userHome.skills, scope: 'user' as const }] : []),
    ...(userHome?.groupSkills ? [{ dir: userHome.groupSkills, scope: 'group' as const }] : []),
    ...(userHome?.tenantSkills ? [{ dir: userHome.tenantSkills, scope: 'tenant' as const }] : []),
    { dir: joinUnder(workspace, '.agents/skills'), scope: 'workspace' },
    ...(recipe.skills?.dirs ?? []).map((d) => ({ dir: path.resolve(recipeDir, d), scope: 'recipe' as const })),
  ];
  const denies = (p: string) => scope.denies(p);
  let skills: Skill[];
  try {
    skills = await loadSkills(
      roots.map((r) => ({ dir: r.dir, lenient: r.scope === 'user' || r.scope === 'group' || r.scope === 'tenant' })),
      { denies, warn: (message) => logger.warn({ family: 'skills' }, message) },
    );
  } catch (err) {
    if (err instanceof SkillError) throw new SettingsError(err.message);
    throw err;
  }
  // With a home of its own the principal may write its first skill, so the skill tools are there even with none yet.
  const skillStore = userHome !== undefined || skills.length > 0 ? new SkillStore(roots, { denies }) : undefined;
  return { skills, skillStore };
};

export const missing: MissingReasons = {
  skills: () => 'no skills installed (.agents/skills, skills.dirs)',
  skillStore: () => 'no skills installed (.agents/skills, skills.dirs)',
};
