import type { Recipe } from '../config/recipe-schema.ts';
import type { Logger } from '../log.ts';
import type { Gate } from '../permissions/gate.ts';
import type { Catalog } from '../tools/framework/catalog.ts';
import { Dispatcher } from '../tools/framework/dispatch.ts';
import type { HookSink } from '../tools/framework/hooks.ts';
import type { SecretValues } from '../util/secret-values.ts';
import type { Services } from './services.ts';

/** The dispatcher step: the one path every call takes, with the recipe's caps (the catalog holds the tool settings); the store is wired later (recordTo). */
export function buildDispatcher(o: {
  catalog: Catalog;
  gate: Gate;
  recipe: Recipe;
  services: Services;
  logger: Logger;
  afterGate?: ((tool: string) => void | Promise<void>) | undefined;
  hooks?: HookSink | undefined;
  secrets?: SecretValues | undefined;
}): Dispatcher {
  return new Dispatcher({
    catalog: o.catalog,
    gate: o.gate,
    workspace: o.services.workspace,
    home: o.services.home,
    toolOutput: o.recipe.tool_output ?? {},
    logger: o.logger,
    afterGate: o.afterGate,
    session: o.services.session,
    hooks: o.hooks,
    secrets: o.secrets,
  });
}
