import * as z from 'zod/v4';
import { LIMITS } from '../framework/limits.ts';
import { defineFace } from '../framework/face.ts';
import description from './write-skill-file.golem.md';
import { SKILL_LIMITS } from './store.ts';

/** golem's WriteSkillFile over write_skill_file: the same arguments, under golem's name. */
export const writeSkillFileGolem = defineFace({
  dialect: 'golem',
  name: 'WriteSkillFile',
  description,
  args: z.strictObject({
    skill: z.string().max(LIMITS.identifier).describe('The skill’s name: lower-case letters, digits and -, e.g. weekly-report.'),
    file: z.string().max(LIMITS.path).describe('The file inside the skill: SKILL.md first, then e.g. references/steps.md.'),
    content: z.string().max(SKILL_LIMITS.fileBytes).describe('The complete new content of the file.'),
  }),
  toEngine: (a) => ({ skill: a.skill, file: a.file, content: a.content }),
});
