import { defineFace } from '../framework/face.ts';
import { MEMORY_WRITE_ARGS } from './golem-args.ts';
import description from './memory-write.golem.md';

/** golem's MemoryWrite: its argument names are the engine's, so nothing is mapped. */
export const memoryWriteGolem = defineFace({
  dialect: 'golem',
  name: 'MemoryWrite',
  description,
  args: MEMORY_WRITE_ARGS,
  toEngine: (a) => a,
});
