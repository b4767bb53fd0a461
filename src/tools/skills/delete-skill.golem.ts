import * as z from 'zod/v4';
import { LIMITS } from '../framework/limits.ts';
import { defineFace } from '../framework/face.ts';
import description from './delete-skill.golem.md';

/** golem's DeleteSkill over delete_skill: the same argument, under golem's name. */
export const deleteSkillGolem = defineFace({
  dialect: 'golem',
  name: 'DeleteSkill',
  description,
  args: z.strictObject({
    skill: z.string().max(LIMITS.identifier).describe('The name of one of the user’s own skills.'),
  }),
  toEngine: (a) => ({ skill: a.skill }),
});
