import * as z from 'zod/v4';
import { defineFace } from '../framework/face.ts';
import description from './list-skills.golem.md';

/** golem's ListSkills over list_skills: `{}` in, `{skills: [{name, description}]}` back. */
export const listSkillsGolem = defineFace({
  dialect: 'golem',
  name: 'ListSkills',
  description,
  args: z.strictObject({}),
  toEngine: () => ({}),
  result: (r) => ({
    skills: (Array.isArray(r.skills) ? r.skills : []).map((s) => {
      const o = s as { name?: unknown; description?: unknown };
      return { name: String(o.name ?? ''), description: String(o.description ?? '') };
    }),
  }),
});
