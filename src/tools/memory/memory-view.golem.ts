import { defineFace } from '../framework/face.ts';
import { MEMORY_VIEW_ARGS } from './golem-args.ts';
import description from './memory-view.golem.md';

/** golem's MemoryView: its argument names are the engine's, so nothing is mapped. */
export const memoryViewGolem = defineFace({
  dialect: 'golem',
  name: 'MemoryView',
  description,
  args: MEMORY_VIEW_ARGS,
  toEngine: (a) => a,
});
