import * as z from 'zod/v4';
import { LIMITS } from '../framework/limits.ts';
import { fillDescription } from '../framework/describe.ts';
import { defineTool, type JsonObject } from '../framework/tool.ts';
import { terminalFor } from './terminal-tools.ts';
import template from './wait-join.md';

// At most 240 s: every tool call is cut at the dispatcher's 300 s deadline, and a wait
// that ends there would return nothing.
export const WAIT_JOIN_DEFAULTS = { timeout_seconds: 60, max_timeout_seconds: 240 } as const;

export const waitJoinTool = defineTool({
  name: 'wait_join',
  dialect: 'cagent',
  description: fillDescription(template, { default_timeout: WAIT_JOIN_DEFAULTS.timeout_seconds }),
  kind: 'read',
  requires: 'bash',
  settings: z.strictObject({
    timeout_seconds: z
      .number()
      .positive()
      .max(WAIT_JOIN_DEFAULTS.max_timeout_seconds)
      .default(WAIT_JOIN_DEFAULTS.timeout_seconds)
      .describe('How long wait_join waits when the call does not say (default 60, at most 240).'),
  }),
  narrowHint: 'Wait for fewer ids at once, or read each with terminal_output.',
  args: z.strictObject({
    ids: z.array(z.string().min(1).max(LIMITS.identifier)).min(1).max(16).describe('Terminal ids, e.g. ["t1", "t2"].'),
    timeout: z.number().positive().max(WAIT_JOIN_DEFAULTS.max_timeout_seconds).optional().describe('Seconds to wait at most.'),
  }),
  async run(args, ctx) {
    const terminals = args.ids.map((id) => terminalFor(ctx, id));
    const seconds = args.timeout ?? ctx.settings.timeout_seconds;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), seconds * 1000)));
    const aborted = new Promise<'timeout'>((resolve) => ctx.signal.addEventListener('abort', () => resolve('timeout'), { once: true }));
    const all = Promise.all(terminals.map((t) => t.done)).then(() => 'done' as const);
    const outcome = await Promise.race([all, expired, aborted]);
    clearTimeout(timer);
    // Share the output budget between the terminals.
    const each = Math.max(512, Math.floor((ctx.caps.maxBytes - 1024) / terminals.length / 2));
    const results: JsonObject[] = terminals.map((t) => {
      const status = t.status();
      const tail = t.tail(each);
      return { terminal_id: t.id, done: !status.running, ...status, output_tail: tail.output, next_cursor: tail.next_cursor };
    });
    return { all_done: outcome === 'done', ...(outcome === 'done' ? {} : { waited_seconds: seconds }), results };
  },
});
