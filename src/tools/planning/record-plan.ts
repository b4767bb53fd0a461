import * as z from 'zod/v4';
import { fillDescription } from '../framework/describe.ts';
import { planGated } from './plan-gated.ts';
import { defineTool, ToolError, type AnyTool, type JsonObject } from '../framework/tool.ts';
import type { PlanMode } from './plan-recorder.ts';
import template from './record-plan.md';

export { planGated };

/** record-plan.md for the plan mode; under `required` it names the tools the plan unblocks. */
function describe(mode: PlanMode, registered: readonly AnyTool[]): string {
  const gated = registered.filter(planGated).map((t) => `\`{{@${t.name}}}\``);
  const which =
    gated.length > 0
      ? `call this BEFORE any ${gated.join(' / ')} call, or those calls are denied with a "plan required" error`
      : 'call this before any call that changes state or reaches outside the machine';
  return fillDescription(template, { advisory: mode === 'advisory', required: mode !== 'advisory', which });
}

export const recordPlanTool = defineTool({
  name: 'record_plan',
  description: ({ services, registered }) => describe(services.planMode ?? 'advisory', registered),
  kind: 'lifecycle',
  needs: ['plans'],
  narrowHint: '',
  planText: (args) => args.plan,
  args: z.strictObject({
    plan: z
      .string()
      .max(64 * 1024)
      .describe('The plan as markdown: the steps you will take and how you will check the result.'),
  }),
  async run(args, ctx) {
    const recorder = ctx.services.plans;
    if (!recorder) throw new ToolError('plan recording is not enabled for this run');
    if (args.plan.trim().length === 0) throw new ToolError('plan is required (non-empty markdown)');
    const { outcome, file, seq, opened } = await recorder.record(args.plan, {
      agent: ctx.session.agentName,
      session: ctx.session.sessionId,
      turn: ctx.session.turn,
    });
    const shown = ctx.display(file);
    const artifact =
      outcome === 'recorded'
        ? `Plan recorded at ${shown}.`
        : outcome === 'updated'
          ? `Plan updated in place at ${shown}: you had already recorded a plan this turn, so this revision replaced it rather than filing a second plan — there is still exactly one plan (plan ${seq}) for this task.`
          : `No plan file was written: you already recorded this exact plan, and it is filed at ${shown}. Recording an identical plan again cannot do anything further — carry it out, or ask the operator for /replan if it needs to be withdrawn.`;
    let gate: string;
    if (recorder.mode === 'advisory') {
      gate =
        'plan_mode is advisory: no tool call was ever blocked on this plan and none becomes callable because of it — carry the plan out in this turn rather than waiting for approval.';
    } else if (!opened) {
      gate = 'Plan-first gating was already satisfied for this session — no tool became callable that was not already.';
    } else {
      const names = recorder.gatedTools;
      gate =
        names === null
          ? 'The tool calls it was denying are now unblocked for this session.'
          : names.length === 0
            ? 'This build registered no plan-gated tools — nothing was blocked and nothing is unblocked; the artifact is the only effect.'
            : `Now unblocked for this session: ${names.join(', ')}.`;
    }
    const result: JsonObject = { path: shown, sequence: seq, outcome, message: `${artifact} ${gate}` };
    if (ctx.session.agentName) result.agent = ctx.session.agentName;
    if (ctx.session.sessionId) result.session = ctx.session.sessionId;
    // The reserved key the watchdog's no-op streak reads; only an unchanged plan sets it.
    if (outcome === 'unchanged') result.no_op = true;
    return result;
  },
});
