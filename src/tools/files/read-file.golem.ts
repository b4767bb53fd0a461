import * as z from 'zod/v4';
import { pathArg } from '../framework/limits.ts';
import { defineFace } from '../framework/face.ts';
import description from './read-file.golem.md';

/** golem's ReadFile over read_file: a 0-based `offset`, and `{content, totalLines}` back. */
export const readFileGolem = defineFace({
  dialect: 'golem',
  name: 'ReadFile',
  description,
  args: z.strictObject({
    path: pathArg('File to read, relative to the workspace (or absolute).'),
    offset: z.int().min(0).max(1_000_000_000).optional().describe('Lines to skip before the first one returned (0-based). Default 0.'),
    limit: z.int().min(1).max(1_000_000).optional().describe('Maximum number of lines to return.'),
  }),
  toEngine: (a) => ({ path: a.path, offset: (a.offset ?? 0) + 1, ...(a.limit !== undefined ? { limit: a.limit } : {}) }),
  result: (r) => ({
    content: r.content ?? '',
    ...(typeof r.total_lines === 'number' ? { totalLines: r.total_lines } : {}),
    // Where to continue, in this face's 0-based terms.
    ...(typeof r.next_offset === 'number' ? { nextOffset: r.next_offset - 1 } : {}),
    ...(r.truncated === true ? { truncated: true } : {}),
    ...(typeof r.note === 'string' ? { note: r.note.replace(/offset=(\d+)/, (_m, n: string) => `offset=${Number(n) - 1}`) } : {}),
  }),
});
