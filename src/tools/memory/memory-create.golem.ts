import { defineFace } from '../framework/face.ts';
import { MEMORY_CREATE_ARGS } from './golem-args.ts';
import description from './memory-create.golem.md';

/** golem's MemoryCreate: its argument names are the engine's, so nothing is mapped. */
export const memoryCreateGolem = defineFace({
  dialect: 'golem',
  name: 'MemoryCreate',
  description,
  args: MEMORY_CREATE_ARGS,
  toEngine: (a) => a,
});
