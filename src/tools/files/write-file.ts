import { lstat, mkdir } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod/v4';
import { LIMITS, pathArg } from '../limits.ts';
import { defineTool, ToolError } from '../tool.ts';
import { atomicWrite } from './safe-fs.ts';
import description from './write-file.md';

export const writeFileTool = defineTool({
  name: 'write_file',
  description,
  readOnly: false,
  destructive: true,
  fileEdit: true,
  narrowHint: '',
  args: z.strictObject({
    path: pathArg('File to write, relative to the workspace root (or absolute).'),
    content: z.string().max(LIMITS.fileContent).describe('The complete new content of the file.'),
  }),
  paths: (a) => [{ arg: 'path', path: a.path, access: 'write' }],
  async run(args, ctx) {
    const target = ctx.paths.get('path')!;
    const shown = ctx.display(target.real);
    let mode = 0o644;
    if (target.exists) {
      const st = await lstat(target.real);
      if (st.isDirectory()) throw new ToolError(`${shown} is a directory`);
      if (!st.isFile()) throw new ToolError(`${shown} is not a regular file`);
      mode = st.mode & 0o7777;
    } else {
      await mkdir(path.dirname(target.real), { recursive: true });
    }
    await atomicWrite(target.real, args.content, mode);
    return { path: shown, bytes: Buffer.byteLength(args.content), created: !target.exists };
  },
});
