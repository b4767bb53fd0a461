import { defineTool } from '../framework/tool.ts';
import { MEMORY_RENAME_ARGS } from './golem-args.ts';
import description from './memory-rename.md';
import { memoryRenameGolem } from './memory-rename.golem.ts';

/**
 * golem's MemoryRename, over the user's memory store. Nobody's own tool: golem's dialect offers it as
 * its face MemoryRename, and core-agent's and Cagent's do this job with `memory` (Anthropic's command set).
 */
export const memoryRenameTool = defineTool({
  name: 'memory_rename',
  dialect: [],
  job: 'memory_rename',
  faces: [memoryRenameGolem],
  description,
  kind: 'edit',
  needs: ['memoryStore'],
  narrowHint: '',
  args: MEMORY_RENAME_ARGS,
  async run(args, ctx) {
    await ctx.services.memoryStore.rename(args.from, args.to);
    return { result: `renamed ${args.from} to ${args.to}` };
  },
});
