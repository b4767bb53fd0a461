import path from 'node:path';
import { shellAvailable } from '../../util/command-env.ts';
import type { FamilyServices } from '../framework/family.ts';
import type { MissingReasons } from '../framework/services.ts';
import type { SearchGateMode } from './search-gate.ts';
import type { GroupRecorder } from './supervised-shell.ts';

declare module '../framework/services.ts' {
  interface ToolServices {
    /** Whether /bin/sh exists (a distroless image has none). */
    readonly shell?: boolean | undefined;
    /** What bash does with search-shaped commands (absent: enforce). */
    readonly searchGate?: SearchGateMode | undefined;
    /** Where the shells' process groups are recorded, so a later start can stop those of a killed run. */
    readonly groupRecords?: GroupRecorder | undefined;
  }
}

declare module '../framework/family.ts' {
  interface FamilySettings {
    /** --bash-search-gate / CORE_AGENT_BASH_SEARCH_GATE, over the recipe's safety.bash_search_gate. */
    readonly bashSearchGate?: SearchGateMode | undefined;
  }
}

/** The shell, the search gate's posture, and where process groups are recorded (the root reaps a killed run's first). */
export const services: FamilyServices = async (ctx) => {
  const groupRecords =
    ctx.stateDir === undefined
      ? undefined
      : new (await import('./group-records.ts')).GroupRecords(path.join(ctx.stateDir, 'process-groups'), ctx.logger);
  return {
    shell: shellAvailable(),
    searchGate: ctx.settings.bashSearchGate ?? ctx.recipe.safety?.bash_search_gate ?? 'enforce',
    groupRecords,
  };
};

export const missing: MissingReasons = {
  shell: () => 'there is no /bin/sh on this system (a distroless image?), so bash is not registered',
};
