import * as z from 'zod/v4';
import { LIMITS } from '../framework/limits.ts';
import { defineFace } from '../framework/face.ts';
import description from './skill.golem.md';

/** golem's ReadSkillFile over skill: `{skill, file}` in, `{content}` back. */
export const readSkillFileGolem = defineFace({
  dialect: 'golem',
  name: 'ReadSkillFile',
  description,
  args: z.strictObject({
    skill: z.string().min(1).max(LIMITS.identifier).describe('The skill’s name, as ListSkills shows it.'),
    file: z.string().min(1).max(LIMITS.path).describe('A file inside the skill: SKILL.md, or a path such as references/notes.md.'),
  }),
  toEngine: (a) => ({ name: a.skill, file: a.file }),
  result: (r) => ({ content: r.content ?? '' }),
});
