import * as z from 'zod/v4';
import { defineTool, ToolError } from '../framework/tool.ts';
import description from './update-plan.md';
import { updatePlanGolem } from './update-plan.golem.ts';

const STATUSES = ['pending', 'in_progress', 'completed'] as const;

export const updatePlanTool = defineTool({
  name: 'update_plan',
  job: 'plan_checklist',
  dialect: 'cagent',
  // Cagent's delegated agent has no update_plan: the checklist is the main session's.
  excludedIn: { subagent: ['cagent'] },
  faces: [updatePlanGolem],
  description,
  // Changes only this turn's checklist: never asks, and plan-first does not hold it back.
  kind: 'lifecycle',
  narrowHint: '',
  // Plan mode has its own plan workflow (record_plan, the read-only gate): a progress
  // checklist there would be a second, competing plan (the seed: "rejected in planning modes").
  available: (services) =>
    services.permissionMode === 'plan' ? 'the permission mode is "plan", where the plan is proposed, not tracked' : null,
  args: z.strictObject({
    explanation: z.string().min(1).max(2000).optional().describe('Why the plan changed, in a sentence (optional).'),
    plan: z
      .array(
        z.strictObject({
          step: z.string().min(1).max(500).describe('The step, as a short imperative line.'),
          status: z.enum(STATUSES).describe('pending, in_progress or completed.'),
        }),
      )
      .min(1)
      .max(50)
      .describe('The whole checklist, in order; it replaces the previous one.'),
  }),
  async run(args, ctx) {
    const active = args.plan.filter((s) => s.status === 'in_progress');
    // Said to the model, not silently fixed: which step is current is the model's call.
    if (active.length > 1)
      throw new ToolError(
        `plan: ${active.length} steps are in_progress (${active.map((s) => JSON.stringify(s.step.slice(0, 60))).join(', ')}); ` +
          'at most one may be — mark the others pending or completed and send the whole list again',
      );
    const previous = ctx.session.plan;
    ctx.session.plan = {
      explanation: args.explanation,
      steps: args.plan.map((s) => ({ step: s.step, status: s.status })),
      revision: previous.revision + 1,
    };
    const done = args.plan.filter((s) => s.status === 'completed').length;
    return { updated: true, steps: args.plan.length, completed: done };
  },
});
