import * as z from 'zod/v4';
import { LIMITS, pathArg } from '../framework/limits.ts';
import { listFiles } from '../shared/file-list.ts';
import { compileNamePattern } from '../shared/name-pattern.ts';
import { chooseEngine } from '../shared/ripgrep.ts';
import { defineTool, ToolError, type JsonObject } from '../framework/tool.ts';
import description from './read-many-files.md';
import { looksBinary, openChecked } from '../shared/safe-fs.ts';

export const READ_MANY_DEFAULTS = { max_file_bytes: 64 * 1024, max_files: 200 } as const;

export const readManyFilesTool = defineTool({
  name: 'read_many_files',
  description,
  kind: 'read',
  uses: ['ripgrepPath'],
  caps: { maxBytes: 256 * 1024, maxLines: 5000 },
  settings: z.strictObject({
    max_file_bytes: z
      .int()
      .min(1)
      .max(64 * 1024 * 1024)
      .default(READ_MANY_DEFAULTS.max_file_bytes)
      .describe('Most bytes read from any one file (default 65536).'),
    max_files: z.int().min(1).max(10_000).default(READ_MANY_DEFAULTS.max_files).describe('Most files read in one call (default 200).'),
  }),
  digest: true,
  narrowHint: 'Read fewer files per call (a narrower pattern or a shorter paths list).',
  args: z
    .strictObject({
      paths: z
        .array(z.string().min(1).max(LIMITS.path))
        .max(1000)
        .optional()
        .describe('Files to read, relative to the current directory (or absolute).'),
      pattern: z
        .string()
        .min(1)
        .max(LIMITS.namePattern)
        .optional()
        .describe('Also read files whose name matches this pattern under `path`, e.g. "*.md" or "src/**/*.ts".'),
      path: pathArg('Directory the pattern is matched under. Default: the current directory.').optional(),
    })
    .refine((a) => (a.paths?.length ?? 0) > 0 || a.pattern !== undefined, {
      message: 'give "paths" (a list of files), "pattern" (a file-name pattern), or both',
    }),
  paths: (a) => (a.pattern !== undefined ? [{ arg: 'path', path: a.path ?? '.', access: 'read' as const }] : []),
  async run(args, ctx) {
    const { max_file_bytes: maxFileBytes, max_files: maxFiles } = ctx.settings;

    // Explicit paths first, in the order given, then pattern matches sorted.
    const requested: string[] = [...(args.paths ?? [])];
    if (args.pattern !== undefined) {
      const root = ctx.paths.get('path')!;
      if (!root.exists) throw new ToolError(`directory not found: ${ctx.display(root.real)}`, 'not_found');
      const matches = compileNamePattern(args.pattern);
      const prefix = root.real === '/' ? '/' : `${root.real}/`;
      const { files } = await listFiles(
        root.real,
        chooseEngine({}, ctx.services.ripgrepPath),
        ctx.signal,
        ctx.workspace,
        (rel) => matches(rel) && ctx.readable(prefix + rel),
        args.pattern,
      );
      const found = files.map((rel) => prefix + rel).sort();
      requested.push(...found);
    }

    const seen = new Set<string>();
    const entries: JsonObject[] = [];
    let omitted = 0;
    for (const p of requested) {
      const auth = await ctx.authorizePath(p, 'read');
      if ('refused' in auth) {
        entries.push({ path: p, skipped: auth.refused });
        continue;
      }
      if (seen.has(auth.real)) continue;
      seen.add(auth.real);
      if (entries.length >= maxFiles) {
        omitted += 1;
        continue;
      }
      entries.push(await readOne(auth.real, ctx.display(auth.real), auth.exists, maxFileBytes));
    }
    const result: JsonObject = { count: entries.length, files: entries };
    if (omitted > 0) {
      result.truncated = true;
      result.note = `${omitted} more files matched but at most ${maxFiles} are read per call; narrow the pattern or list the paths you need.`;
    }
    return result;
  },
});

async function readOne(real: string, shown: string, exists: boolean, maxBytes: number): Promise<JsonObject> {
  if (!exists) return { path: shown, skipped: 'not found' };
  try {
    const fh = await openChecked(real);
    try {
      const st = await fh.stat();
      if (st.isDirectory()) return { path: shown, skipped: 'is a directory' };
      const buf = Buffer.alloc(Math.min(st.size, maxBytes));
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      const bytes = buf.subarray(0, bytesRead);
      if (looksBinary(bytes)) return { path: shown, skipped: `binary file (${st.size} bytes)` };
      let content = new TextDecoder('utf-8').decode(bytes);
      const entry: JsonObject = { path: shown, content };
      if (st.size > maxBytes) {
        // Cut at the last whole line so the model never sees half a line as if it were whole.
        const lastNewline = content.lastIndexOf('\n');
        if (lastNewline > 0) content = content.slice(0, lastNewline + 1);
        entry.content = content;
        entry.truncated = true;
        entry.note = `first ${Buffer.byteLength(content)} of ${st.size} bytes`;
      }
      return entry;
    } finally {
      await fh.close();
    }
  } catch (err) {
    if (err instanceof ToolError) return { path: shown, skipped: err.message };
    const e = err as NodeJS.ErrnoException;
    return { path: shown, skipped: e.code === 'EISDIR' ? 'is a directory' : `unreadable: ${e.code ?? e.message}` };
  }
}
