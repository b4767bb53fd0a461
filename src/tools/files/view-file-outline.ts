import path from 'node:path';
import * as z from 'zod/v4';
import { pathArg } from '../framework/limits.ts';
import { defineTool, ToolError, type JsonObject } from '../framework/tool.ts';
import { HEURISTIC, HEURISTIC_NOTE, scanOutline } from './outline-heuristic.ts';
import { PARSED } from './outline-languages.ts';
import { parseOutline } from './outline-parsed.ts';
import { looksBinary, readChecked } from '../shared/safe-fs.ts';
import description from './view-file-outline.md';

/** Above this an outline is not the cheap survey it is for; grep is. */
const MAX_FILE_BYTES = 8 * 1024 * 1024;
/** A syntax-error result lists at most this many lines. */
const MAX_ERROR_LINES = 50;

const extensions = (table: Record<string, unknown>) => Object.keys(table).sort().join(', ');

export const viewFileOutlineTool = defineTool({
  name: 'view_file_outline',
  description,
  kind: 'read',
  caps: { maxBytes: 64 * 1024, maxLines: 2000 },
  narrowHint: 'Read the part you need with read_file offset/limit, from the line numbers above.',
  args: z.strictObject({
    path: pathArg('File to outline, relative to the current directory (or absolute).'),
  }),
  paths: (a) => [{ arg: 'path', path: a.path, access: 'read' }],
  async run(args, ctx) {
    const target = ctx.paths.get('path')!;
    const shown = ctx.display(target.real);
    const ext = path.extname(target.real).toLowerCase();
    const parsed = PARSED[ext];
    const heuristic = HEURISTIC[ext];
    if (!parsed && !heuristic) {
      const subject = ext === '' ? 'a file with no extension' : `${ext} files`;
      throw new ToolError(
        `no outline for ${subject}: view_file_outline parses ${extensions(PARSED)} and scans ${extensions(HEURISTIC)}.` +
          `${ctx.toolName('read_file') ? ` Read the lines with ${ctx.toolName('read_file')} instead.` : ''}`,
      );
    }
    if (!target.exists) {
      throw new ToolError(
        `file not found: ${shown}${ctx.toolName('glob') ? ` (${ctx.toolName('glob')} finds files by name)` : ''}`,
        'not_found',
      );
    }
    const bytes = await readChecked(target.real, MAX_FILE_BYTES).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'EISDIR')
        throw new ToolError(`${shown} is a directory${ctx.toolName('list_dir') ? `; use ${ctx.toolName('list_dir')}` : ''}`);
      throw err;
    });
    if (looksBinary(bytes))
      throw new ToolError(`${shown} is a binary file (${bytes.length} bytes); view_file_outline outlines source text`);
    const source = new TextDecoder('utf-8').decode(bytes);

    if (!parsed) {
      return {
        path: shown,
        language: heuristic!.language,
        analysis: 'heuristic',
        outline: joinLines(scanOutline(source, heuristic!)),
        note: HEURISTIC_NOTE,
      };
    }
    let language = parsed;
    let outline = await parseOutline(source, language);
    if (outline.kind === 'errors' && language.alternative) {
      const other = await parseOutline(source, language.alternative);
      if (other.kind === 'outline') [language, outline] = [language.alternative, other];
    }
    const result: JsonObject = { path: shown, language: language.language, analysis: 'parsed' };
    const notes: string[] = [];
    if (outline.kind === 'gave_up') {
      throw new ToolError(`${shown} took too long to parse; no outline rather than a partial one. Use grep for the declarations you need.`);
    }
    if (outline.kind === 'outline') {
      result.outline = joinLines(outline.lines);
    } else {
      const listed = outline.errorLines.slice(0, MAX_ERROR_LINES);
      result.syntax_error_lines = listed;
      const more = outline.errorLines.length > listed.length ? ` (and ${outline.errorLines.length - listed.length} more)` : '';
      const broken = outline.brokenFrom.slice(0, MAX_ERROR_LINES);
      const where =
        `line${listed.length === 1 ? '' : 's'} ${listed.join(', ')}${more}` +
        (broken.length > 0 ? `, in what starts on line${broken.length === 1 ? '' : 's'} ${broken.join(', ')}` : '');
      if (outline.recovered) {
        result.outline = joinLines(outline.lines);
        result.partial = true;
        notes.push(
          `The file has syntax errors on ${where}. The parse recovered: the declarations above are the ones that parsed; those that hold an error are left out.`,
        );
      } else {
        notes.push(
          `The file has syntax errors on ${where}, and the parse did not recover from them: no outline rather than a guess. Read around those lines with read_file.`,
        );
      }
    }
    if (parsed.note) notes.push(parsed.note);
    if (notes.length > 0) result.note = notes.join(' ');
    return result;
  },
});

const joinLines = (lines: string[]) => (lines.length === 0 ? '' : `${lines.join('\n')}\n`);
