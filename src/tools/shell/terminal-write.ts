import * as z from 'zod/v4';
import { LIMITS } from '../framework/limits.ts';
import { defineTool, ToolError, type JsonObject } from '../framework/tool.ts';
import { terminalFor } from './terminal-tools.ts';
import description from './terminal-write.md';

export const terminalWriteTool = defineTool({
  name: 'terminal_write',
  dialect: 'cagent',
  description,
  kind: 'control',
  requires: 'bash',
  narrowHint: '',
  args: z.strictObject({
    terminal_id: z.string().min(1).max(LIMITS.identifier).describe('The id bash returned, e.g. "t1".'),
    input: z
      .string()
      .max(64 * 1024)
      .describe('The bytes to send, e.g. "yes\\n".'),
    close_stdin: z.boolean().optional().describe('Close stdin after the input (end-of-file).'),
  }),
  async run(args, ctx) {
    const t = terminalFor(ctx, args.terminal_id);
    try {
      const w = await t.write(args.input, args.close_stdin ?? false);
      const result: JsonObject = { terminal_id: t.id, written_bytes: w.bytes, stdin_closed: args.close_stdin ?? false };
      if (!w.delivered) result.note = 'Queued: the program has not read its input yet (it may be busy, or not reading stdin).';
      return result;
    } catch (err) {
      throw new ToolError(`cannot write to ${t.id}: ${(err as Error).message}`);
    }
  },
});
