import { lstat, readdir } from 'node:fs/promises';
import * as z from 'zod/v4';
import { pathArg } from '../framework/limits.ts';
import { defineTool, ToolError, type JsonObject, type ToolContext } from '../framework/tool.ts';
import { PinnedDir, statChecked } from '../shared/safe-fs.ts';
import description from './list-dir.md';
import { listDirGolem } from './list-dir.golem.ts';

export const listDirTool = defineTool({
  name: 'list_dir',
  faces: [listDirGolem],
  description,
  kind: 'read',
  caps: { maxBytes: 32 * 1024, maxLines: 1000 },
  digest: true,
  narrowHint: 'List a subdirectory, or find files by name pattern instead.',
  args: z.strictObject({
    path: pathArg('Directory to list, relative to the current directory (or absolute). Default: the current directory.').optional(),
  }),
  paths: (a) => [{ arg: 'path', path: a.path ?? '.', access: 'read' }],
  async run(_args, ctx) {
    const target = ctx.paths.get('path')!;
    const shown = ctx.display(target.real);
    if (!target.exists) throw new ToolError(`directory not found: ${shown}`, 'not_found');
    const st = await statChecked(target.real);
    if (st === undefined) throw new ToolError(`directory not found: ${shown}`, 'not_found');
    if (!st.isDirectory()) throw new ToolError(`${shown} is a file, not a directory`);
    // Listed through a descriptor verified to be the checked directory: a symlink swapped in
    // for it (or for a directory above it) after the check is never followed.
    const dir = await PinnedDir.open(target.real);
    try {
      return await listPinned(dir, target.real, shown, ctx);
    } finally {
      await dir.close();
    }
  },
});

async function listPinned(dir: PinnedDir, real: string, shown: string, ctx: ToolContext): Promise<JsonObject> {
  let dirents = await readdir(dir.self, { withFileTypes: true });
  const base = real === '/' ? '' : real;
  // Entries the path scope or a deny rule covers are left out, as in glob and grep.
  dirents = dirents.filter((d) => ctx.readable(`${base}/${d.name}`));
  dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // Sizes cost a stat each; only the entries that can be shown need one.
  const shownCount = Math.min(dirents.length, ctx.caps.maxLines);
  const entries: JsonObject[] = [];
  for (const [i, d] of dirents.entries()) {
    const type = d.isFile() ? 'file' : d.isDirectory() ? 'directory' : d.isSymbolicLink() ? 'symlink' : 'other';
    const entry: JsonObject = { name: d.name, type };
    if (type === 'file' && i < shownCount) {
      const st = await lstat(dir.entry(d.name)).catch(() => null);
      if (st) entry.size = st.size;
    }
    entries.push(entry);
  }
  return { path: shown, count: entries.length, entries };
}
