import * as z from 'zod/v4';
import { LIMITS, pathArg } from '../framework/limits.ts';
import { defineTool } from '../framework/tool.ts';
import { currentText, writeChecked } from '../shared/safe-fs.ts';
import description from './write-file.md';
import { writeFileGolem } from './write-file.golem.ts';

export const writeFileTool = defineTool({
  name: 'write_file',
  faces: [writeFileGolem],
  description,
  kind: 'edit',
  uses: ['pendingWrites'],
  narrowHint: '',
  args: z.strictObject({
    path: pathArg('File to write, relative to the current directory (or absolute).'),
    content: z.string().max(LIMITS.fileContent).describe('The complete new content of the file.'),
  }),
  paths: (a) => [{ arg: 'path', path: a.path, access: 'write' }],
  async changes(args, { paths, display }) {
    const target = paths.get('path')!;
    return [{ path: display(target.real), before: await currentText(target), after: args.content }];
  },
  async run(args, ctx) {
    const target = ctx.paths.get('path')!;
    // Missing directories are created inside the checked ones, never through a symlink swapped in since.
    const { created } = await writeChecked(target, args.content, { journal: ctx.services.pendingWrites });
    return { path: ctx.display(target.real), bytes: Buffer.byteLength(args.content), created };
  },
});
