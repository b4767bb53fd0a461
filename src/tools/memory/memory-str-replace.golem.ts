import { defineFace } from '../framework/face.ts';
import { MEMORY_STR_REPLACE_ARGS } from './golem-args.ts';
import description from './memory-str-replace.golem.md';

/** golem's MemoryStrReplace: its argument names are the engine's, so nothing is mapped. */
export const memoryStrReplaceGolem = defineFace({
  dialect: 'golem',
  name: 'MemoryStrReplace',
  description,
  args: MEMORY_STR_REPLACE_ARGS,
  toEngine: (a) => a,
});
