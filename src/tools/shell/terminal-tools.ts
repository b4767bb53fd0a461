import { quoteArg } from '../error-text.ts';
import { ToolError, type ToolContext } from '../tool.ts';
import type { Terminal } from './terminals.ts';

/** The terminal a call names, or a refusal that lists the ones that exist. */
export function terminalFor(ctx: ToolContext, id: string): Terminal {
  const t = ctx.session.terminals.get(id);
  if (t) return t;
  const known = ctx.session.terminals.ids();
  throw new ToolError(
    `no terminal ${quoteArg(id)} in this session; ${known.length > 0 ? `the terminals are ${known.join(', ')}` : 'start one with bash and wait: false'}`,
    'not_found',
  );
}
