import { defineTool } from '../framework/tool.ts';
import { MEMORY_DELETE_ARGS } from './golem-args.ts';
import description from './memory-delete.md';
import { memoryDeleteGolem } from './memory-delete.golem.ts';

/**
 * golem's MemoryDelete, over the user's memory store. Nobody's own tool: golem's dialect offers it as
 * its face MemoryDelete, and core-agent's and Cagent's do this job with `memory` (Anthropic's command set).
 */
export const memoryDeleteTool = defineTool({
  name: 'memory_delete',
  dialect: [],
  job: 'memory_delete',
  faces: [memoryDeleteGolem],
  description,
  kind: 'edit',
  needs: ['memoryStore'],
  narrowHint: '',
  args: MEMORY_DELETE_ARGS,
  async run(args, ctx) {
    await ctx.services.memoryStore.delete(args.file);
    return { result: `deleted ${args.file}` };
  },
});
