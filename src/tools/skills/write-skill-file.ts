import * as z from 'zod/v4';
import { LIMITS } from '../framework/limits.ts';
import { defineTool } from '../framework/tool.ts';
import description from './write-skill-file.md';
import { writeSkillFileGolem } from './write-skill-file.golem.ts';
import { SKILL_LIMITS } from './store.ts';

/** Create or replace a file of one of the user's own skills (never a shared or shipped one), atomically and within bounds. */
export const writeSkillFileTool = defineTool({
  name: 'write_skill_file',
  faces: [writeSkillFileGolem],
  description,
  // Replaces a file whole, outside the workspace: asked for as any change is, never auto-approved as an edit.
  kind: 'change',
  // The user's skills are their standing instructions: a child agent reads them, never rewrites them.
  excludedIn: { subagent: true },
  needs: ['skillStore'],
  uses: ['pendingWrites'],
  available: (s) =>
    s.skillStore?.roots.some((r) => r.scope === 'user') ? null : 'no skills folder of the user’s own (no state directory)',
  narrowHint: '',
  args: z.strictObject({
    skill: z.string().max(LIMITS.identifier).describe('The skill’s name: lower-case letters, digits and -, e.g. weekly-report.'),
    file: z.string().max(LIMITS.path).describe('The file inside the skill: SKILL.md first, then e.g. references/steps.md.'),
    content: z.string().max(SKILL_LIMITS.fileBytes).describe('The complete new content of the file.'),
  }),
  async run(args, ctx) {
    const { created, bytes } = await ctx.services.skillStore.write(args.skill, args.file, args.content, ctx.services.pendingWrites);
    return { skill: args.skill, file: args.file, bytes, created };
  },
});
