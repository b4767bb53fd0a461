import { lstat, unlink } from 'node:fs/promises';
import * as z from 'zod/v4';
import { pathArg } from '../limits.ts';
import { defineTool, ToolError } from '../tool.ts';
import description from './delete-file.md';

export const deleteFileTool = defineTool({
  name: 'delete_file',
  description,
  readOnly: false,
  destructive: true,
  fileEdit: true,
  narrowHint: '',
  args: z.strictObject({
    path: pathArg('File to delete, relative to the workspace root (or absolute).'),
  }),
  // The link itself is what gets removed, so the last component is not followed.
  paths: (a) => [{ arg: 'path', path: a.path, access: 'write', followFinal: false }],
  async run(args, ctx) {
    const target = ctx.paths.get('path')!;
    const shown = ctx.display(target.real);
    let st;
    try {
      st = await lstat(target.real);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { path: shown, deleted: false, note: 'no such file; nothing to delete' };
      throw err;
    }
    if (st.isDirectory()) throw new ToolError(`${shown} is a directory; delete_file removes files only`);
    await unlink(target.real);
    return { path: shown, deleted: true, ...(st.isSymbolicLink() ? { note: 'removed the symlink; its target is untouched' } : {}) };
  },
});
