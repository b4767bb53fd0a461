import { defineFace } from '../framework/face.ts';
import { MEMORY_RENAME_ARGS } from './golem-args.ts';
import description from './memory-rename.golem.md';

/** golem's MemoryRename: its argument names are the engine's, so nothing is mapped. */
export const memoryRenameGolem = defineFace({
  dialect: 'golem',
  name: 'MemoryRename',
  description,
  args: MEMORY_RENAME_ARGS,
  toEngine: (a) => a,
});
