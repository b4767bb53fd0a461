import * as z from 'zod/v4';
import { defineFace } from '../framework/face.ts';
import description from './update-plan.golem.md';

/** golem's TodoWrite over update_plan: `{todos: [{content, status}]}`, the whole list each time. */
export const updatePlanGolem = defineFace({
  dialect: 'golem',
  name: 'TodoWrite',
  description,
  args: z.strictObject({
    todos: z
      .array(
        z.strictObject({
          content: z.string().min(1).max(500).describe('The step, as a short imperative line.'),
          status: z.enum(['pending', 'in_progress', 'completed']).describe('pending, in_progress or completed.'),
        }),
      )
      .min(1)
      .max(50)
      .describe('The whole list, in order; it replaces the previous one.'),
  }),
  toEngine: (a) => ({ plan: a.todos.map((t) => ({ step: t.content, status: t.status })) }),
});
