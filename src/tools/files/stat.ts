import * as z from 'zod/v4';
import { pathArg } from '../framework/limits.ts';
import { defineTool, type JsonObject } from '../framework/tool.ts';
import { statChecked } from '../shared/safe-fs.ts';
import description from './stat.md';

export const statTool = defineTool({
  name: 'stat',
  description,
  kind: 'read',
  narrowHint: '',
  args: z.strictObject({
    path: pathArg('File or directory to inspect, relative to the current directory (or absolute).'),
  }),
  paths: (a) => [{ arg: 'path', path: a.path, access: 'read' }],
  async run(_args, ctx) {
    const target = ctx.paths.get('path')!;
    const shown = ctx.display(target.real);
    if (!target.exists) return { path: shown, exists: false };
    // The entry the gate checked, not what a symlink swapped in since leads to.
    const st = await statChecked(target.real);
    if (st === undefined) return { path: shown, exists: false };
    const result: JsonObject = {
      path: shown,
      exists: true,
      type: st.isFile() ? 'file' : st.isDirectory() ? 'directory' : 'other',
      is_dir: st.isDirectory(),
      size: st.size,
      mtime: st.mtime.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      mode: (st.mode & 0o7777).toString(8).padStart(4, '0'),
      permissions: permissionString(st.mode),
    };
    return result;
  },
});

function permissionString(mode: number): string {
  const kind = (mode & 0o170000) === 0o040000 ? 'd' : (mode & 0o170000) === 0o120000 ? 'l' : '-';
  const bits = ['r', 'w', 'x'];
  let s = kind;
  for (let shift = 6; shift >= 0; shift -= 3) {
    for (let i = 0; i < 3; i++) s += mode & (1 << (shift + 2 - i)) ? bits[i] : '-';
  }
  return s;
}
