import * as z from 'zod/v4';
import { pathArg } from '../framework/limits.ts';
import { defineTool, ToolError, type JsonObject } from '../framework/tool.ts';
import description from './read-file.md';
import { looksBinary, openChecked } from '../shared/safe-fs.ts';
import { readFileGolem } from './read-file.golem.ts';

const CHUNK = 64 * 1024;
/** Files up to this size get an exact `total_lines`; beyond it counting would cost more than the read. */
const COUNT_ALL_LINES_BELOW = 16 * 1024 * 1024;

export const readFileTool = defineTool({
  name: 'read_file',
  faces: [readFileGolem],
  description,
  kind: 'read',
  caps: { maxBytes: 256 * 1024, maxLines: 2000 },
  narrowHint: 'Read the rest with offset/limit.',
  args: z.strictObject({
    path: pathArg('File to read, relative to the current directory (or absolute).'),
    offset: z.int().min(0).max(1_000_000_000).optional().describe('First line to return, 1-based (0 is treated as 1). Default: 1.'),
    limit: z
      .int()
      .min(1)
      .max(1_000_000)
      .optional()
      .describe('Maximum number of lines to return. Default: as many as the output cap allows.'),
  }),
  paths: (a) => [{ arg: 'path', path: a.path, access: 'read' }],
  async run(args, ctx) {
    const target = ctx.paths.get('path')!;
    const shown = ctx.display(target.real);
    if (!target.exists) {
      throw new ToolError(
        `file not found: ${shown}${ctx.toolName('glob') ? ` (${ctx.toolName('glob')} finds files by name)` : ''}`,
        'not_found',
      );
    }
    const fh = await openChecked(target.real).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'EISDIR')
        throw new ToolError(`${shown} is a directory${ctx.toolName('list_dir') ? `; use ${ctx.toolName('list_dir')}` : ''}`);
      throw err;
    });
    try {
      const st = await fh.stat();
      if (st.isDirectory())
        throw new ToolError(`${shown} is a directory${ctx.toolName('list_dir') ? `; use ${ctx.toolName('list_dir')}` : ''}`);
      const start = Math.max(1, args.offset ?? 1);
      const maxLines = Math.min(args.limit ?? Infinity, ctx.caps.maxLines);
      // Leave room for the other fields and for JSON escaping of the content.
      const byteBudget = ctx.caps.maxBytes - 1024;

      const decoder = new TextDecoder('utf-8'); // drops a leading BOM, as an editor would show it
      const buf = Buffer.allocUnsafe(CHUNK);
      let lineNo = 1; // the line `partial` belongs to
      let partial = '';
      const kept: string[] = [];
      let keptBytes = 0;
      let stoppedAt: number | null = null; // first line not returned
      let position = 0;
      let first = true;
      let countOnly = false;
      let lastByte = 10;

      for (;;) {
        const { bytesRead } = await fh.read(buf, 0, CHUNK, position);
        if (bytesRead === 0) break;
        position += bytesRead;
        const bytes = buf.subarray(0, bytesRead);
        lastByte = bytes[bytesRead - 1]!;
        if (first && looksBinary(bytes)) throw new ToolError(`${shown} is a binary file (${st.size} bytes); read_file returns text`);
        first = false;
        if (countOnly) {
          lineNo += countNewlines(bytes);
          continue;
        }
        const text = partial + decoder.decode(bytes, { stream: true });
        const lines = text.split('\n');
        partial = lines.pop()!;
        for (const line of lines) {
          if (stoppedAt === null && lineNo >= start) {
            const cost = JSON.stringify(line).length - 1;
            if (kept.length >= maxLines || keptBytes + cost > byteBudget) stoppedAt = lineNo;
            else {
              kept.push(`${line}\n`);
              keptBytes += cost;
            }
          }
          lineNo += 1;
        }
        if (stoppedAt !== null) {
          if (st.size > COUNT_ALL_LINES_BELOW) break;
          countOnly = true;
          partial = '';
        }
      }
      if (!countOnly) partial += decoder.decode();
      if (!countOnly && partial.length > 0 && stoppedAt === null && lineNo >= start) {
        // The last line has no newline: it is a line all the same.
        const cost = JSON.stringify(partial).length - 2;
        if (kept.length >= maxLines || keptBytes + cost > byteBudget) stoppedAt = lineNo;
        else kept.push(partial);
      }
      // Lines = newlines seen, plus one for a last line without a newline.
      const wholeFileSeen = position >= st.size;
      const totalLines = wholeFileSeen ? lineNo - 1 + (lastByte !== 10 ? 1 : 0) : null;
      const content = kept.join('');
      const result: JsonObject = {
        path: shown,
        content,
        start_line: start,
        end_line: start + kept.length - 1,
      };
      if (totalLines !== null) result.total_lines = totalLines;
      if (kept.length === 0 && totalLines !== null && start > totalLines) {
        result.note = `offset ${start} is past the end of the file (${totalLines} lines)`;
      }
      const cutByLimit = args.limit !== undefined && kept.length >= args.limit;
      if (stoppedAt !== null && !cutByLimit) {
        result.truncated = true;
        result.next_offset = stoppedAt;
        result.note = `Output cap reached (${ctx.caps.maxLines} lines / ${ctx.caps.maxBytes} bytes). Continue with offset=${stoppedAt}.`;
      } else if (stoppedAt !== null) {
        result.next_offset = stoppedAt;
      }
      return result;
    } finally {
      await fh.close();
    }
  },
});

function countNewlines(bytes: Uint8Array): number {
  let n = 0;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) n += 1;
  return n;
}
