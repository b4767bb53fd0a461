import { defineFace } from '../framework/face.ts';
import { MEMORY_INSERT_ARGS } from './golem-args.ts';
import description from './memory-insert.golem.md';

/** golem's MemoryInsert: its argument names are the engine's, so nothing is mapped. */
export const memoryInsertGolem = defineFace({
  dialect: 'golem',
  name: 'MemoryInsert',
  description,
  args: MEMORY_INSERT_ARGS,
  toEngine: (a) => a,
});
