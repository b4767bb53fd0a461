// What registering update_plan runs of its code: whether it is offered (not in plan mode). Apart
// from update-plan.ts so that the bundle decides it without evaluating the tool's module (a
// `<tool>.head.ts` beside a tool: scripts/bundle/tool-family.mjs; no zod here).
import type { ToolServices } from '../framework/services.ts';

// Plan mode has its own plan workflow (record_plan, the read-only gate): a progress
// checklist there would be a second, competing plan (the seed: "rejected in planning modes").
export const available = (services: ToolServices): string | null =>
  services.permissionMode === 'plan' ? 'the permission mode is "plan", where the plan is proposed, not tracked' : null;
