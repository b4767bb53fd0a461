import * as z from 'zod/v4';
import { defineTool, ToolError, type JsonObject } from '../framework/tool.ts';
import description from './ask-user.md';

export const askUserTool = defineTool({
  name: 'ask_user',
  description,
  kind: 'ask',
  // golem's subagents cannot ask the user (its SubagentScenario).
  excludedIn: { subagent: ['golem'] },
  needs: ['asker'],
  narrowHint: '',
  args: z.strictObject({
    question: z.string().min(1).max(2000).describe('The question, complete enough to answer without other context.'),
  }),
  async run(args, ctx): Promise<JsonObject> {
    const asker = ctx.services.asker;
    if (!asker) throw new ToolError('no way to ask the operator in this run');
    const reply = await asker.ask(args.question);
    if ('answer' in reply) return { answer: reply.answer };
    return { answer: null, unavailable: `no user available: ${reply.unavailable}` };
  },
});
