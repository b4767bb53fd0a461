import * as z from 'zod/v4';
import { LIMITS, pathArg } from '../framework/limits.ts';
import { defineFace } from '../framework/face.ts';
import description from './write-file.golem.md';

/** golem's WriteFile over write_file: the same arguments, under golem's name. */
export const writeFileGolem = defineFace({
  dialect: 'golem',
  name: 'WriteFile',
  description,
  args: z.strictObject({
    path: pathArg('File to write, relative to the workspace (or absolute).'),
    content: z.string().max(LIMITS.fileContent).describe('The complete new content of the file.'),
  }),
  toEngine: (a) => ({ path: a.path, content: a.content }),
});
