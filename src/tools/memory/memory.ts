import * as z from 'zod/v4';
import { quoteArg } from '../framework/error-text.ts';
import { LIMITS } from '../framework/limits.ts';
import { defineTool, ToolError, type JsonObject } from '../framework/tool.ts';
import { MEMORY_LIMITS } from './limits.ts';
import description from './memory.md';
import type { MemoryEntry, MemoryStore } from './store.ts';
import { occurrences } from './text.ts';

const ROOT = '/memories';
const text = z.string().max(MEMORY_LIMITS.fileBytes + 1024);
const memoryPath = z.string().max(LIMITS.path);

/**
 * Anthropic's memory tool (memory_20250818): one tool, a `command`, paths under `/memories`.
 * The same store as golem's Memory* tools (the user's `<home>/memories/`); core-agent's and
 * Cagent's dialects offer it, golem's offers the seven Memory* tools instead (one job each).
 */
export const memoryTool = defineTool({
  name: 'memory',
  job: ['memory_view', 'memory_write', 'memory_create', 'memory_insert', 'memory_str_replace', 'memory_rename', 'memory_delete'],
  description,
  // One tool for reading and writing: it is judged as a writer, so a read-only run does not offer a way to change memory.
  kind: 'edit',
  needs: ['memoryStore'],
  narrowHint: 'view a range of lines with view_range: [first, last]',
  args: z.strictObject({
    command: z.enum(['view', 'create', 'str_replace', 'insert', 'delete', 'rename']).describe('What to do.'),
    path: memoryPath.optional().describe('A path under /memories (view, create, str_replace, insert, delete): /memories/notes.md.'),
    view_range: z
      .tuple([z.int().min(1).max(Number.MAX_SAFE_INTEGER), z.int().min(-1).max(Number.MAX_SAFE_INTEGER)])
      .optional()
      .describe('view: [first, last] line, 1-based; last -1 is the end.'),
    file_text: text.optional().describe("create: the new file's content."),
    old_str: text.optional().describe('str_replace: the literal text to replace; it must occur exactly once.'),
    new_str: text.optional().describe('str_replace: the text to put in its place.'),
    insert_line: z.int().min(0).max(Number.MAX_SAFE_INTEGER).optional().describe('insert: the line after which to insert (0: at the top).'),
    insert_text: text.optional().describe('insert: the text to insert.'),
    old_path: memoryPath.optional().describe('rename: the file to move.'),
    new_path: memoryPath.optional().describe('rename: its new path; never overwrites.'),
  }),
  async run(args, ctx): Promise<JsonObject> {
    const store = ctx.services.memoryStore;
    const need = <T>(value: T | undefined, field: string): T => {
      if (value === undefined) throw new ToolError(`${field} is required for the ${args.command} command`, 'invalid_args');
      return value;
    };
    switch (args.command) {
      case 'view':
        return { result: await view(store, need(args.path, 'path'), args.view_range) };
      case 'create': {
        const p = need(args.path, 'path');
        await store.create(relative(p), need(args.file_text, 'file_text'));
        return { result: `File created successfully at: ${p}` };
      }
      case 'str_replace': {
        const p = need(args.path, 'path');
        const old = need(args.old_str, 'old_str');
        const replacement = need(args.new_str, 'new_str');
        if (old === '') throw new ToolError('old_str is empty: give the literal text to replace', 'invalid_args');
        await store.edit(relative(p), (t) => {
          const count = occurrences(t, old);
          if (count === 0)
            throw new ToolError(`No replacement was performed, old_str ${quoteArg(old, 200)} did not appear verbatim in ${p}.`);
          if (count > 1) {
            throw new ToolError(
              `No replacement was performed. Multiple occurrences (${count}) of old_str ${quoteArg(old, 200)} in lines: ${JSON.stringify(linesOf(t, old))}. Please ensure it is unique`,
            );
          }
          return { text: t.replace(old, () => replacement), result: null };
        });
        return { result: 'The memory file has been edited.' };
      }
      case 'insert': {
        const p = need(args.path, 'path');
        const line = need(args.insert_line, 'insert_line');
        const insert = need(args.insert_text, 'insert_text');
        await store.edit(relative(p), (t) => {
          const lines = t.split('\n');
          if (line > lines.length) {
            throw new ToolError(
              `Invalid \`insert_line\` parameter: ${line}. It should be within the range of lines of the file: [0, ${lines.length}]`,
              'invalid_args',
            );
          }
          return { text: [...lines.slice(0, line), ...insert.split('\n'), ...lines.slice(line)].join('\n'), result: null };
        });
        return { result: `The file ${p} has been edited.` };
      }
      case 'delete': {
        const p = need(args.path, 'path');
        await store.delete(relative(p));
        return { result: `Successfully deleted ${p}` };
      }
      case 'rename': {
        const from = need(args.old_path, 'old_path');
        const to = need(args.new_path, 'new_path');
        await store.rename(relative(from), relative(to));
        return { result: `Successfully renamed ${from} to ${to}` };
      }
    }
  },
});

/** `/memories/a/b.md` → `a/b.md`; anything not under /memories is outside the memories folder. */
function relative(p: string): string {
  if (p === ROOT) return '';
  if (p.startsWith(`${ROOT}/`)) return p.slice(ROOT.length + 1);
  throw new ToolError(`memory file ${quoteArg(p, 80)} is outside the memories folder: paths start with ${ROOT}/`, 'denied');
}

async function view(store: MemoryStore, p: string, range: readonly [number, number] | undefined): Promise<string> {
  const read = await store.read(relative(p));
  if (read.kind === 'missing') throw new ToolError(`The path ${p} does not exist. Please provide a valid path.`, 'not_found');
  if (read.kind === 'dir') {
    const base = p.replace(/\/+$/, '');
    const total = read.entries.filter((e) => !e.dir).reduce((n, e) => n + e.size, 0);
    const rows = read.entries.map((e: MemoryEntry) => `${e.dir ? '-' : size(e.size)}\t${ROOT}/${e.path}${e.dir ? '/' : ''}`);
    return [
      `Here're the files and directories up to 2 levels deep in ${base}, excluding hidden items:`,
      `${size(total)}\t${base}`,
      ...rows,
    ].join('\n');
  }
  const lines = read.text.split('\n');
  let first = 1;
  let last = lines.length;
  if (range !== undefined) {
    [first, last] = [range[0], range[1] === -1 ? lines.length : range[1]];
    if (first > lines.length || last < first || last > lines.length) {
      throw new ToolError(
        `Invalid \`view_range\` parameter: [${range.join(', ')}]. The file has ${lines.length} lines: give [first, last] within [1, ${lines.length}], last -1 for the end`,
        'invalid_args',
      );
    }
  }
  const numbered = lines.slice(first - 1, last).map((l, i) => `${String(first + i).padStart(6)}\t${l}`);
  return [`Here's the content of ${p} with line numbers:`, ...numbered].join('\n');
}

/** The 1-based lines where `literal` starts. */
function linesOf(t: string, literal: string): number[] {
  const out: number[] = [];
  for (let at = t.indexOf(literal); at !== -1 && out.length < 20; at = t.indexOf(literal, at + literal.length)) {
    out.push(t.slice(0, at).split('\n').length);
  }
  return out;
}

/** du -h's short sizes: 512, 1.5K, 2.0M. */
function size(bytes: number): string {
  if (bytes < 1024) return String(bytes);
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}K`;
  return `${(bytes / 1024 / 1024).toFixed(1)}M`;
}
