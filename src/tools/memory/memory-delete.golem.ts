import { defineFace } from '../framework/face.ts';
import { MEMORY_DELETE_ARGS } from './golem-args.ts';
import description from './memory-delete.golem.md';

/** golem's MemoryDelete: its argument names are the engine's, so nothing is mapped. */
export const memoryDeleteGolem = defineFace({
  dialect: 'golem',
  name: 'MemoryDelete',
  description,
  args: MEMORY_DELETE_ARGS,
  toEngine: (a) => a,
});
