import { quoteArg } from '../framework/error-text.ts';
import { defineTool, ToolError } from '../framework/tool.ts';
import { MEMORY_VIEW_ARGS } from './golem-args.ts';
import { MEMORY_INDEX_FILE } from './limits.ts';
import { NO_MEMORY } from './text.ts';
import description from './memory-view.md';
import { memoryViewGolem } from './memory-view.golem.ts';

/**
 * golem's MemoryView, over the user's memory store. Nobody's own tool: golem's dialect offers it as
 * its face MemoryView, and core-agent's and Cagent's do this job with `memory` (Anthropic's command set).
 */
export const memoryViewTool = defineTool({
  name: 'memory_view',
  dialect: [],
  job: 'memory_view',
  faces: [memoryViewGolem],
  description,
  kind: 'read',
  needs: ['memoryStore'],
  narrowHint: '',
  args: MEMORY_VIEW_ARGS,
  async run(args, ctx) {
    const file = args.file || MEMORY_INDEX_FILE;
    const read = await ctx.services.memoryStore.read(file);
    if (read.kind === 'missing') return { content: NO_MEMORY };
    if (read.kind === 'dir') {
      const names = read.entries.map((e) => (e.dir ? `${e.path}/` : e.path)).join(', ');
      throw new ToolError(
        `memory path ${quoteArg(file, 80)} is a folder; read one of its files: ${names || '(it is empty)'}`.slice(0, 2000),
      );
    }
    return { content: read.text };
  },
});
