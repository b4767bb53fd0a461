import * as z from 'zod/v4';
import { defineTool, ToolError, type JsonObject } from '../tool.ts';

export const askUserTool = defineTool({
  name: 'ask_user',
  description:
    'Ask the operator a question and wait for the typed answer. Use it only for a decision you cannot make from what you can see — ' +
    'not for permission to use a tool (the permission system asks for that itself). When nobody is there to answer, the result says so: ' +
    'then proceed with reasonable defaults and explain them in your final answer.',
  readOnly: true,
  lifecycle: true,
  narrowHint: '',
  args: z.strictObject({
    question: z.string().min(1).max(2000).describe('The question, complete enough to answer without other context.'),
  }),
  async run(args, ctx): Promise<JsonObject> {
    const asker = ctx.session.asker;
    if (!asker) throw new ToolError('no way to ask the operator in this run');
    const reply = await asker.ask(args.question);
    if ('answer' in reply) return { answer: reply.answer };
    return { answer: null, unavailable: `no user available: ${reply.unavailable}` };
  },
});
