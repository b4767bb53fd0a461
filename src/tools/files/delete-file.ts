import * as z from 'zod/v4';
import { pathArg } from '../framework/limits.ts';
import { defineTool } from '../framework/tool.ts';
import { removeChecked } from '../shared/safe-fs.ts';
import description from './delete-file.md';

export const deleteFileTool = defineTool({
  name: 'delete_file',
  description,
  kind: 'edit',
  narrowHint: '',
  args: z.strictObject({
    path: pathArg('File to delete, relative to the current directory (or absolute).'),
  }),
  // The link itself is what gets removed, so the last component is not followed.
  paths: (a) => [{ arg: 'path', path: a.path, access: 'write', followFinal: false }],
  async run(args, ctx) {
    const target = ctx.paths.get('path')!;
    const shown = ctx.display(target.real);
    const outcome = await removeChecked(target);
    if (outcome === 'missing') return { path: shown, deleted: false, note: 'no such file; nothing to delete' };
    return {
      path: shown,
      deleted: true,
      ...(outcome === 'deleted-symlink' ? { note: 'removed the symlink; its target is untouched' } : {}),
    };
  },
});
