import * as z from 'zod/v4';
import { quoteArg } from '../framework/error-text.ts';
import { LIMITS } from '../framework/limits.ts';
import { defineTool, ToolError, type JsonObject } from '../framework/tool.ts';
import description from './schedule-next-turn.md';

export const scheduleNextTurnTool = defineTool({
  name: 'schedule_next_turn',
  description,
  kind: 'lifecycle',
  // A schedule tool: it would schedule the parent's next turn, so a child is never offered it.
  excludedIn: { subagent: true },
  needs: ['scheduler'],
  narrowHint: '',
  args: z.strictObject({
    wake_in_sec: z.int().min(0).max(31_536_000).optional().describe('Seconds from now.'),
    wake_at: z.string().max(LIMITS.identifier).optional().describe('An RFC 3339 time, e.g. 2026-11-30T14:00:00Z.'),
    next_prompt: z.string().max(4000).optional().describe('The message for the next turn (default: a plain wake-up note).'),
    detail: z.string().max(2000).optional().describe('Why, for the operator.'),
  }),
  async run(args, ctx): Promise<JsonObject> {
    const scheduler = ctx.services.scheduler;
    if (!scheduler) throw new ToolError('scheduling is only available in autonomous runs');
    if ((args.wake_in_sec === undefined) === (args.wake_at === undefined))
      throw new ToolError('give exactly one of wake_in_sec or wake_at');
    let wakeAt: Date;
    if (args.wake_at !== undefined) {
      wakeAt = new Date(args.wake_at);
      if (Number.isNaN(wakeAt.getTime()) || !/\d{4}-\d\d-\d\dT/.test(args.wake_at))
        throw new ToolError(`wake_at ${quoteArg(args.wake_at)} is not an RFC 3339 time (e.g. 2026-11-30T14:00:00Z)`);
    } else {
      wakeAt = new Date(Date.now() + args.wake_in_sec! * 1000);
    }
    const refusal = scheduler.request(wakeAt, args.next_prompt, args.detail);
    if (refusal !== null) return { ack: `rejected: ${refusal}` };
    const at = wakeAt.toISOString().replace(/\.\d{3}Z$/, 'Z');
    return { ack: `deferred until ${at}`, wake_at: at };
  },
});
