import * as z from 'zod/v4';
import { defineTool, ToolError } from '../framework/tool.ts';
import description from './todo.md';

export const todoTool = defineTool({
  name: 'todo',
  job: 'plan_checklist',
  description,
  // Changes only this session's list: never needs approval, nor a plan under plan-first.
  kind: 'lifecycle',
  narrowHint: '',
  args: z.strictObject({
    action: z.enum(['list', 'add', 'set_status', 'clear']).optional().describe('What to do (default list).'),
    text: z.string().min(1).max(2000).optional().describe('The step, for add.'),
    id: z.int().min(1).max(100_000).optional().describe('The step, for set_status.'),
    status: z.enum(['pending', 'in_progress', 'completed']).optional().describe('The new status, for set_status.'),
  }),
  async run(args, ctx) {
    const todos = ctx.session.todos;
    switch (args.action ?? 'list') {
      case 'add':
        if (args.text === undefined) throw new ToolError('text is required for add');
        todos.push({ id: todos.length + 1, status: 'pending', text: args.text });
        break;
      case 'set_status': {
        if (args.id === undefined || args.status === undefined) throw new ToolError('set_status needs id and status');
        const item = todos.find((t) => t.id === args.id);
        if (!item) throw new ToolError(`no step ${args.id}; the list has ${todos.length}`, 'not_found');
        item.status = args.status;
        break;
      }
      case 'clear':
        todos.length = 0;
        break;
      default:
        break;
    }
    return { items: todos.map((t) => ({ ...t })) };
  },
});
