import { quoteArg } from '../framework/error-text.ts';
import { ToolError, type ToolContext } from '../framework/tool.ts';
import { TERMINALS, type Terminal } from './terminals.ts';

/** The terminal a call names, or a refusal that lists the ones that exist. */
export function terminalFor(ctx: ToolContext, id: string): Terminal {
  const t = ctx.session.slot(TERMINALS).get(id);
  if (t) return t;
  const known = ctx.session.slot(TERMINALS).ids();
  throw new ToolError(
    `no terminal ${quoteArg(id)} in this session; ${known.length > 0 ? `the terminals are ${known.join(', ')}` : 'start one with bash and wait: false'}`,
    'not_found',
  );
}
