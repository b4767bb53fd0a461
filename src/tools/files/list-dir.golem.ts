import * as z from 'zod/v4';
import { pathArg } from '../framework/limits.ts';
import { defineFace } from '../framework/face.ts';
import description from './list-dir.golem.md';

/** golem's ListFiles over list_dir: `{entries: [{name, dir, size}]}` back. */
export const listDirGolem = defineFace({
  dialect: 'golem',
  name: 'ListFiles',
  description,
  args: z.strictObject({
    path: pathArg('Directory to list, relative to the workspace (or absolute). Default: the workspace.').optional(),
  }),
  toEngine: (a) => (a.path !== undefined ? { path: a.path } : {}),
  result: (r) => ({
    entries: (Array.isArray(r.entries) ? r.entries : []).map((e) => {
      const entry = e as { name: string; type: string; size?: number };
      return { name: entry.name, dir: entry.type === 'directory', ...(entry.size !== undefined ? { size: entry.size } : {}) };
    }),
  }),
});
