import * as z from 'zod/v4';
import { defineFace } from '../framework/face.ts';
import description from './update-plan.golem.md';

/**
 * golem's TodoWrite over update_plan: `{todos: [{content, status}]}`, the whole list each time.
 * As golem: every problem in the list is named in one error (zod reports each item), a missing
 * status is pending, and the result is golem's sentence "N todos recorded".
 */
export const updatePlanGolem = defineFace({
  dialect: 'golem',
  name: 'TodoWrite',
  description,
  args: z.strictObject({
    todos: z
      .array(
        z.strictObject({
          content: z.string().min(1).max(500).describe('The step, as a short imperative line.'),
          status: z
            .enum(['pending', 'in_progress', 'completed'])
            .optional()
            .describe('pending, in_progress or completed (default pending).'),
        }),
      )
      .min(1)
      .max(50)
      .describe('The whole list, in order; it replaces the previous one.'),
  }),
  toEngine: (a) => ({ plan: a.todos.map((t) => ({ step: t.content, status: t.status ?? 'pending' })) }),
  // golem answers with a bare sentence; a result here is a JSON object, so the sentence is its one field.
  result: (_r, a) => ({ result: `${a.todos.length} todos recorded` }),
});
