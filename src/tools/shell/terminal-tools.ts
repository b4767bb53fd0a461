import { ToolError, type ToolContext } from '../tool.ts';
import type { Terminal } from './terminals.ts';

/** The terminal a call names, or a refusal that lists the ones that exist. */
export function terminalFor(ctx: ToolContext, id: string): Terminal {
  const t = ctx.session.terminals.get(id);
  if (t) return t;
  const known = ctx.session.terminals.ids();
  throw new ToolError(
    `no terminal "${id}" in this session; ${known.length > 0 ? `the terminals are ${known.join(', ')}` : 'start one with bash and wait: false'}`,
  );
}

/** Keep whole leading lines within `maxLines`; returns the kept text. */
export function firstLines(text: string, maxLines: number): string {
  let idx = -1;
  for (let n = 0; n < maxLines; n++) {
    idx = text.indexOf('\n', idx + 1);
    if (idx === -1) return text;
  }
  return text.slice(0, idx + 1);
}
