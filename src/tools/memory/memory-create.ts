import { defineTool } from '../framework/tool.ts';
import { MEMORY_CREATE_ARGS } from './golem-args.ts';
import description from './memory-create.md';
import { memoryCreateGolem } from './memory-create.golem.ts';

/**
 * golem's MemoryCreate, over the user's memory store. Nobody's own tool: golem's dialect offers it as
 * its face MemoryCreate, and core-agent's and Cagent's do this job with `memory` (Anthropic's command set).
 */
export const memoryCreateTool = defineTool({
  name: 'memory_create',
  dialect: [],
  job: 'memory_create',
  faces: [memoryCreateGolem],
  description,
  kind: 'edit',
  needs: ['memoryStore'],
  narrowHint: '',
  args: MEMORY_CREATE_ARGS,
  async run(args, ctx) {
    await ctx.services.memoryStore.create(args.file, args.content);
    return { result: `created ${args.file}` };
  },
});
