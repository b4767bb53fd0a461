import { quoteArg } from '../framework/error-text.ts';
import { defineTool, ToolError } from '../framework/tool.ts';
import { MEMORY_STR_REPLACE_ARGS } from './golem-args.ts';
import { occurrences } from './text.ts';
import description from './memory-str-replace.md';
import { memoryStrReplaceGolem } from './memory-str-replace.golem.ts';

/**
 * golem's MemoryStrReplace, over the user's memory store. Nobody's own tool: golem's dialect offers it as
 * its face MemoryStrReplace, and core-agent's and Cagent's do this job with `memory` (Anthropic's command set).
 */
export const memoryStrReplaceTool = defineTool({
  name: 'memory_str_replace',
  dialect: [],
  job: 'memory_str_replace',
  faces: [memoryStrReplaceGolem],
  description,
  kind: 'edit',
  needs: ['memoryStore'],
  narrowHint: '',
  args: MEMORY_STR_REPLACE_ARGS,
  async run(args, ctx) {
    if (args.old === '') throw new ToolError('old text is required: give the literal text to replace', 'invalid_args');
    const replacements = await ctx.services.memoryStore.edit(args.file, (text) => {
      const count = occurrences(text, args.old);
      if (count === 0) throw new ToolError(`old text was not found in ${quoteArg(args.file, 80)}; nothing was changed`);
      if (count > 1 && args.all !== true) {
        throw new ToolError(
          `old text occurs ${count} times in ${quoteArg(args.file, 80)}; set all=true or make it unique. Nothing was changed`,
        );
      }
      return {
        text: args.all === true ? text.split(args.old).join(args.new) : text.replace(args.old, () => args.new),
        result: args.all === true ? count : 1,
      };
    });
    return { result: `updated ${args.file}`, replacements };
  },
});
