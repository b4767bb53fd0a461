import type { FamilyServices } from '../framework/family.ts';

declare module '../framework/services.ts' {
  interface ToolServices {
    /** The provider:model the agentic_* tools run their child on; undefined: the engine's small model (agents.small_model, else the parent's). */
    readonly agenticModel?: string | undefined;
  }
}

declare module '../framework/family.ts' {
  interface FamilySettings {
    /** --agentic-small-model / CORE_AGENT_AGENTIC_SMALL_MODEL, over the recipe's agents.agentic_small_model. */
    readonly agenticSmallModel?: string | undefined;
  }
}

/** The wrappers' model: the flag or variable, else the recipe's; nothing is resolved until a wrapper runs. */
export const services: FamilyServices = (ctx) => ({
  agenticModel: ctx.settings.agenticSmallModel ?? ctx.recipe.agents?.agentic_small_model,
});
