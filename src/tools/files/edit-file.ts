import * as z from 'zod/v4';
import { LIMITS, pathArg } from '../framework/limits.ts';
import { defineTool, ToolError } from '../framework/tool.ts';
import description from './edit-file.md';
import { currentText, editChecked, looksBinary } from '../shared/safe-fs.ts';

const BOM = '\uFEFF';

export const editFileTool = defineTool({
  name: 'edit_file',
  description,
  kind: 'edit',
  uses: ['pendingWrites'],
  narrowHint: '',
  args: z.strictObject({
    path: pathArg('File to edit, relative to the current directory (or absolute).'),
    old_string: z
      .string()
      .max(LIMITS.fileContent)
      .describe('The exact text to replace; must occur exactly once unless replace_all is true.'),
    new_string: z.string().max(LIMITS.fileContent).describe('The replacement text, inserted literally.'),
    replace_all: z.boolean().optional().describe('Replace every occurrence instead of requiring exactly one. Default false.'),
  }),
  paths: (a) => [{ arg: 'path', path: a.path, access: 'write' }],
  // The same splice the call will make, on the file as it is now; an edit that
  // would fail shows no diff (the call then fails with the reason).
  async changes(args, { paths, display }) {
    const target = paths.get('path')!;
    const shown = display(target.real);
    const before = await currentText(target);
    if (before === undefined || args.old_string.length === 0) return [];
    try {
      return [{ path: shown, before, after: applyEdit(Buffer.from(before), args, shown, undefined).data }];
    } catch {
      return [];
    }
  },
  async run(args, ctx) {
    const target = ctx.paths.get('path')!;
    const shown = ctx.display(target.real);
    if (args.old_string.length === 0) {
      throw new ToolError(
        `old_string is empty; give the exact text to replace${ctx.toolName('write_file') ? ` (to write a whole file, use ${ctx.toolName('write_file')})` : ''}`,
      );
    }
    if (args.old_string.trim().length === 0) {
      throw new ToolError('old_string is only whitespace; include neighbouring text so the match is unambiguous');
    }
    if (args.old_string === args.new_string) throw new ToolError('old_string and new_string are identical; nothing to change');
    if (!target.exists) {
      throw new ToolError(
        `file not found: ${shown}${ctx.toolName('write_file') ? ` (to create a file, use ${ctx.toolName('write_file')})` : ''}`,
        'not_found',
      );
    }
    // The read and the replacement go through one pinned directory: the file edited is the file read.
    const { replacements, crlf } = await editChecked(
      target,
      LIMITS.fileContent, // the largest file edit_file reads: the same bound as its strings
      (raw) => applyEdit(raw, args, shown, ctx.toolName('read_file')),
      ctx.services.pendingWrites,
    );
    return { path: shown, replacements, line_endings: crlf ? 'crlf' : 'lf' };
  },
});

function applyEdit(
  raw: Buffer,
  args: { old_string: string; new_string: string; replace_all?: boolean | undefined },
  shown: string,
  readFile: string | undefined,
): { data: string; replacements: number; crlf: boolean } {
  if (looksBinary(raw)) throw new ToolError(`${shown} is a binary file; edit_file edits text`);
  let text = raw.toString('utf8');
  const hasBom = text.startsWith(BOM);
  if (hasBom) text = text.slice(1);
  // A CRLF file stays CRLF: models write "\n", so both strings are converted
  // to the file's convention before matching and splicing.
  const crlf = text.includes('\r\n') && !/(^|[^\r])\n/.test(text);
  const oldString = crlf ? toCrlf(args.old_string) : args.old_string;
  const newString = crlf ? toCrlf(args.new_string) : args.new_string;

  const positions: number[] = [];
  for (let i = text.indexOf(oldString); i !== -1; i = text.indexOf(oldString, i + oldString.length)) positions.push(i);
  if (positions.length === 0) {
    throw new ToolError(
      `old_string was not found in ${shown} (0 matches); it must match exactly, including whitespace and indentation${readFile ? ` — ${readFile} shows the current text` : ''}`,
    );
  }
  if (positions.length > 1 && args.replace_all !== true) {
    throw new ToolError(
      `old_string matches ${positions.length} times in ${shown}; include more surrounding text so it matches once, or pass replace_all: true to replace all ${positions.length}`,
    );
  }
  // Splice by index: never String.replace, whose replacement patterns ($&, $1, $$)
  // would rewrite the model's text.
  const parts: string[] = [];
  let from = 0;
  for (const at of positions) {
    parts.push(text.slice(from, at), newString);
    from = at + oldString.length;
  }
  parts.push(text.slice(from));
  return { data: (hasBom ? BOM : '') + parts.join(''), replacements: positions.length, crlf };
}

function toCrlf(s: string): string {
  return s.replace(/\r?\n/g, '\r\n');
}
