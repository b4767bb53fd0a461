import { unknownName } from '../config/did-you-mean.ts';
import type { AgentsConfig } from '../config/agents-schema.ts';
import { SettingsError } from '../core/settings-error.ts';
import type { ToolServices } from '../tools/framework/services.ts';

/**
 * A profile's `skills` are known only once the skills directories are read: a name no skill
 * has stops the start here (exit 2) with the field, as the recipe's own checks do at load.
 */
export function checkProfileSkills(agents: AgentsConfig | undefined, services: ToolServices, recipeFile: string | undefined): void {
  const known = (services.skills ?? []).map((s) => s.name);
  for (const [name, profile] of Object.entries(agents?.profiles ?? {})) {
    (profile.skills ?? []).forEach((skill, i) => {
      if (known.includes(skill)) return;
      const where = `${recipeFile ? `${recipeFile}: ` : ''}agents.profiles.${name}.skills.${i}`;
      throw new SettingsError(
        known.length
          ? `${where}: ${unknownName('skill', skill, known)}`
          : `${where}: no skill "${skill}": none is installed (.agents/skills, skills.dirs)`,
      );
    });
  }
}
