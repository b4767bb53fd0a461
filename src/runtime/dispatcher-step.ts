import type { Recipe } from '../config/recipe-schema.ts';
import type { Logger } from '../log.ts';
import type { Gate } from '../permissions/gate.ts';
import type { CallLog } from '../tools/call-log.ts';
import type { Catalog } from '../tools/catalog.ts';
import { Dispatcher } from '../tools/dispatch.ts';
import type { Services } from './services.ts';

/** The dispatcher step: the one path every call takes, with the recipe's caps and tool settings and, when wired, the store. */
export function buildDispatcher(o: {
  catalog: Catalog;
  gate: Gate;
  recipe: Recipe;
  services: Services;
  logger: Logger;
  afterGate?: ((tool: string) => void | Promise<void>) | undefined;
  callLog?: CallLog | undefined;
}): Dispatcher {
  const toolSettings = Object.fromEntries(
    Object.entries(o.recipe.tools ?? {}).filter(([k]) => k !== 'disable' && k !== 'enable'),
  ) as Record<string, Record<string, unknown>>;
  return new Dispatcher({
    catalog: o.catalog,
    gate: o.gate,
    workspace: o.services.workspace,
    home: o.services.home,
    toolOutput: o.recipe.tool_output ?? {},
    toolSettings,
    logger: o.logger,
    afterGate: o.afterGate,
    session: o.services.session,
    callLog: o.callLog,
  });
}
