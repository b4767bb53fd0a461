import * as z from 'zod/v4';
import { defineTool, ToolError, type JsonObject } from '../framework/tool.ts';
import description from './mark-task-done.md';

const REPEAT =
  'already recorded for this turn — the checkpoint is taken once, after the turn ends, and your latest detail replaced the previous one. ' +
  'Calling this again cannot do anything further. If you have not yet answered what was asked of you, answer it now; if you are done, end the turn with your reply.';

/** Per session: the turn mark_task_done was last called in. */
const calledInTurn = new WeakMap<object, number>();

export const markTaskDoneTool = defineTool({
  name: 'mark_task_done',
  description,
  kind: 'lifecycle',
  // It asks the parent's checkpointer: a child would end a task that is not its own, so it is never offered one.
  excludedIn: { subagent: true },
  needs: ['checkpointer'],
  narrowHint: '',
  args: z.strictObject({
    detail: z
      .string()
      .min(1)
      .max(8000)
      .describe(
        'What a later turn needs: the outcome, the state things are in now, anything left unresolved. A few sentences; not a recap of the session.',
      ),
  }),
  async run(args, ctx) {
    const checkpointer = ctx.services.checkpointer;
    if (!checkpointer) throw new ToolError('checkpoints are not enabled for this run');
    checkpointer.request(args.detail);
    // A repeat is reported, not refused: an error would read as "not marked" and invite
    // the very retry loop this answer exists to end. `no_op` feeds the watchdog.
    if (calledInTurn.get(ctx.session) === ctx.session.turn) return { status: REPEAT, no_op: true } as JsonObject;
    calledInTurn.set(ctx.session, ctx.session.turn);
    return { status: 'acknowledged' } as JsonObject;
  },
});
