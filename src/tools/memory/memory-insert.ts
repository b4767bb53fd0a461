import { defineTool } from '../framework/tool.ts';
import { MEMORY_INSERT_ARGS } from './golem-args.ts';
import { insertAt } from './text.ts';
import description from './memory-insert.md';
import { memoryInsertGolem } from './memory-insert.golem.ts';

/**
 * golem's MemoryInsert, over the user's memory store. Nobody's own tool: golem's dialect offers it as
 * its face MemoryInsert, and core-agent's and Cagent's do this job with `memory` (Anthropic's command set).
 */
export const memoryInsertTool = defineTool({
  name: 'memory_insert',
  dialect: [],
  job: 'memory_insert',
  faces: [memoryInsertGolem],
  description,
  kind: 'edit',
  needs: ['memoryStore'],
  narrowHint: '',
  args: MEMORY_INSERT_ARGS,
  async run(args, ctx) {
    await ctx.services.memoryStore.edit(args.file, (text) => ({ text: insertAt(text, args.content, args.position), result: null }));
    return { result: `updated ${args.file}` };
  },
});
