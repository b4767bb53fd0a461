import * as z from 'zod/v4';
import { LIMITS, pathArg } from '../framework/limits.ts';
import { defineFace } from '../framework/face.ts';
import description from './grep.golem.md';

/** golem's GrepFiles over grep: `{matches: [{file, line, text}]}` back. */
export const grepGolem = defineFace({
  dialect: 'golem',
  name: 'GrepFiles',
  description,
  args: z.strictObject({
    pattern: z.string().min(1).max(LIMITS.regex).describe('Regular expression (RE2 syntax) matched against each line.'),
    path: pathArg('File or directory to search, relative to the workspace. Default: the workspace.').optional(),
  }),
  toEngine: (a) => ({ pattern: a.pattern, ...(a.path !== undefined ? { path: a.path } : {}) }),
  result: (r) => {
    const { matches, ...rest } = r;
    return {
      matches: (Array.isArray(matches) ? matches : []).map((m) => {
        const match = m as { path: string; line: number; text: string };
        return { file: match.path, line: match.line, text: match.text };
      }),
      // The engine's counts and notes (truncated, how to narrow) stay.
      ...Object.fromEntries(
        Object.entries(rest)
          .filter(([k]) => k !== 'path' && k !== 'pattern')
          .map(([k, v]) => [k, typeof v === 'string' ? v.replace(', `path` or `include`', ' or `path`') : v]),
      ),
    };
  },
});
