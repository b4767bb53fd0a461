import * as z from 'zod/v4';
import { LIMITS } from '../framework/limits.ts';
import { fillDescription } from '../framework/describe.ts';
import { defineTool } from '../framework/tool.ts';
import template from './terminal-kill.md';
import { terminalFor } from './terminal-tools.ts';
import { TERMINAL_DEFAULTS } from './terminals.ts';

export const terminalKillTool = defineTool({
  name: 'terminal_kill',
  dialect: 'cagent',
  description: fillDescription(template, { grace_seconds: TERMINAL_DEFAULTS.grace_ms / 1000 }),
  kind: 'control',
  requires: 'bash',
  narrowHint: '',
  args: z.strictObject({
    terminal_id: z.string().min(1).max(LIMITS.identifier).describe('The id bash returned, e.g. "t1".'),
    force: z.boolean().optional().describe('Kill at once (SIGKILL) instead of asking it to stop first.'),
  }),
  async run(args, ctx) {
    const t = terminalFor(ctx, args.terminal_id);
    const wasRunning = t.status().running;
    await t.kill(args.force ?? false, TERMINAL_DEFAULTS.grace_ms);
    const tail = t.tail(4096);
    return { terminal_id: t.id, was_running: wasRunning, ...t.status(), output_tail: tail.output, next_cursor: tail.next_cursor };
  },
});
