import * as z from 'zod/v4';
import { LIMITS } from '../framework/limits.ts';
import { defineTool } from '../framework/tool.ts';
import description from './delete-skill.md';
import { deleteSkillGolem } from './delete-skill.golem.ts';

/** Remove one of the user's own skills, whole. One skill, named: never every skill (golem's empty name does that). */
export const deleteSkillTool = defineTool({
  name: 'delete_skill',
  faces: [deleteSkillGolem],
  description,
  // Destroys the user's own files: asked for, and never in a read-only recipe.
  kind: 'control',
  // The user's skills are their standing instructions: a child agent reads them, never rewrites them.
  excludedIn: { subagent: true },
  needs: ['skillStore'],
  available: (s) =>
    s.skillStore?.roots.some((r) => r.scope === 'user') ? null : 'no skills folder of the user’s own (no state directory)',
  narrowHint: '',
  args: z.strictObject({
    skill: z.string().max(LIMITS.identifier).describe('The name of one of the user’s own skills.'),
  }),
  async run(args, ctx) {
    const { files } = await ctx.services.skillStore.delete(args.skill);
    return { skill: args.skill, deleted: true, files };
  },
});
