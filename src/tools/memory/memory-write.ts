import { defineTool } from '../framework/tool.ts';
import { MEMORY_WRITE_ARGS } from './golem-args.ts';
import { MEMORY_INDEX_FILE } from './limits.ts';
import description from './memory-write.md';
import { memoryWriteGolem } from './memory-write.golem.ts';

/**
 * golem's MemoryWrite, over the user's memory store. Nobody's own tool: golem's dialect offers it as
 * its face MemoryWrite, and core-agent's and Cagent's do this job with `memory` (Anthropic's command set).
 */
export const memoryWriteTool = defineTool({
  name: 'memory_write',
  dialect: [],
  job: 'memory_write',
  faces: [memoryWriteGolem],
  description,
  kind: 'edit',
  needs: ['memoryStore'],
  narrowHint: '',
  args: MEMORY_WRITE_ARGS,
  async run(args, ctx) {
    const file = args.file || MEMORY_INDEX_FILE;
    await ctx.services.memoryStore.write(file, args.content);
    return { result: `wrote ${file}` };
  },
});
