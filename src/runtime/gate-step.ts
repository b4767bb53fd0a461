import type { Recipe } from '../config/recipe-schema.ts';
import type { Logger } from '../log.ts';
import { Gate, type Prompter } from '../permissions/gate.ts';
import { canonicalRule } from '../tools/index.ts';
import { planGated } from '../tools/planning/plan-gated.ts';
import type { Services } from './services.ts';
import type { Settings } from './settings.ts';

/** The gate step: the permission mode (flag, environment, recipe, ask), the rules, path_scope and plan-first. */
export function buildGate(o: {
  settings: Settings;
  recipe: Recipe;
  services: Services;
  prompter?: Prompter | undefined;
  logger: Logger;
}): Gate {
  const perms = o.recipe.permissions ?? {};
  const { session } = o.services;
  const plans = o.services.tools.plans;
  return new Gate({
    mode: o.settings.mode ?? perms.mode ?? 'ask',
    // The command line's rules add to the recipe's: a flag can narrow a recipe's allow with a deny, never lift its deny.
    // A rule may name a tool by its face (tool.ReadFile): the gate matches canonical names.
    allow: [...(perms.allow ?? []), ...(o.settings.allowRules ?? [])].map(canonicalRule),
    deny: [...(perms.deny ?? []), ...(o.settings.denyRules ?? [])].map(canonicalRule),
    scope: o.services.scope,
    prompter: o.prompter,
    logger: o.logger,
    planCheck: plans
      ? (req) =>
          plans.blocks(session.sessionId) &&
          planGated({ name: req.tool, readOnly: req.readOnly, lifecycle: req.lifecycle, openWorld: req.openWorld })
            ? // The dispatcher puts the tool's model-facing name before this (WriteFile under golem).
              `plan-first mode requires record_plan to be called before any tool that changes state or reaches outside the machine. Call record_plan(plan: <your markdown plan>) first, then retry.`
            : null
      : undefined,
  });
}
