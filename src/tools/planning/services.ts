import type { FamilyServices } from '../framework/family.ts';
import type { MissingReasons } from '../framework/services.ts';
import type { PlanMode, PlanRecorder } from './plan-recorder.ts';

declare module '../framework/services.ts' {
  interface ToolServices {
    /** Plan-first's recorder (record_plan), absent when permissions.plan_mode is off; the gate asks it too. */
    readonly plans?: PlanRecorder | undefined;
    /** permissions.plan_mode when it is on (record_plan's description says what it unblocks). */
    readonly planMode?: PlanMode | undefined;
  }
}

/** The plan recorder, when permissions.plan_mode is advisory or required. */
export const services: FamilyServices = async (ctx) => {
  const mode = ctx.recipe.permissions?.plan_mode;
  if (mode === undefined || mode === 'off') return {};
  const { PlanRecorder } = await import('./plan-recorder.ts');
  return { plans: new PlanRecorder(mode, ctx.workspace), planMode: mode };
};

export const missing: MissingReasons = {
  plans: () => 'permissions.plan_mode is off',
};
