import * as z from 'zod/v4';
import { defineTool } from '../framework/tool.ts';
import description from './list-skills.md';
import { listSkillsGolem } from './list-skills.golem.ts';

/** The skills as they are now (those written in this session included), and where each is from. */
export const listSkillsTool = defineTool({
  name: 'list_skills',
  faces: [listSkillsGolem],
  description,
  kind: 'read',
  needs: ['skillStore'],
  narrowHint: '',
  args: z.strictObject({}),
  async run(_args, ctx) {
    return { skills: await ctx.services.skillStore.list() };
  },
});
