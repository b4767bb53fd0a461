import * as z from 'zod/v4';
import { LIMITS } from '../framework/limits.ts';
import { defineTool, type JsonObject } from '../framework/tool.ts';
import description from './terminal-output.md';
import { terminalFor } from './terminal-tools.ts';
import { jsonCost } from '../shared/keep-tail.ts';

export const terminalOutputTool = defineTool({
  name: 'terminal_output',
  dialect: 'cagent',
  description,
  kind: 'read',
  requires: 'bash',
  narrowHint: 'Read in smaller steps: pass next_cursor again to continue.',
  args: z.strictObject({
    terminal_id: z.string().min(1).max(LIMITS.identifier).describe('The id bash returned, e.g. "t1".'),
    cursor: z.int().min(0).optional().describe('next_cursor from the previous read (default 0: from the start).'),
  }),
  async run(args, ctx) {
    const t = terminalFor(ctx, args.terminal_id);
    // Within the output caps, so the caps never cut a read and the cursor stays exact: they
    // count JSON bytes (an ESC takes six), so a read that encodes larger is read again shorter.
    const budget = Math.max(1024, Math.min(64 * 1024, ctx.caps.maxBytes - 2048));
    const lines = Math.max(1, ctx.caps.maxLines - 20);
    let r = t.read(args.cursor ?? 0, budget, lines);
    for (let size = budget; jsonCost(r.output) > budget && size > 64;) {
      size = Math.floor((size * budget) / jsonCost(r.output) / 1.1);
      r = t.read(args.cursor ?? 0, Math.max(64, size), lines);
    }
    const result: JsonObject = { terminal_id: t.id, output: r.output, next_cursor: r.next_cursor, ...t.status() };
    if (r.more) result.more = true;
    if (r.dropped > 0) {
      result.dropped_bytes = r.dropped;
      result.note = `${r.dropped} bytes before this point were no longer retained (only the newest output is kept).`;
    }
    if (t.timedOut) result.timed_out = true;
    return result;
  },
});
