import * as z from 'zod/v4';
import type { ChildReport } from '../framework/services.ts';
import { spawnAgentGolem } from './spawn-agent.golem.ts';
import { defineTool, type DescribeEnv, type JsonObject } from '../framework/tool.ts';
import { reportResult } from '../framework/child-report.ts';
import { awaitStarted } from './await-child.ts';
import template from './spawn-agent.md';

export const spawnAgentTool = defineTool({
  name: 'spawn_agent',
  description: (env: DescribeEnv) => describe(env),
  kind: 'delegate',
  job: 'delegate',
  faces: [spawnAgentGolem],
  // A child inheriting its parent's tools does not delegate; in core-agent's dialect a profile that lists spawn_agent does.
  excludedIn: { subagent: true },
  needs: ['delegator'],
  available: (services) => services.delegator?.off() ?? null,
  narrowHint: 'ask the child for a shorter answer',
  args: z.strictObject({
    agent: z.string().min(1).max(40).describe('The profile to run, by name.'),
    name: z
      .string()
      .max(48)
      .regex(/^[a-z][a-z0-9_-]{0,47}$/, 'lower-case letters, digits, "_" and "-", starting with a letter')
      .optional()
      .describe('A name for this instance (default <profile>-<n>).'),
    goal: z.string().min(1).max(32_000).describe('The complete task: the child sees nothing of this conversation.'),
    model: z.enum(['small']).optional().describe('"small": run it on the small model.'),
    tools: z.array(z.string().min(1).max(200)).max(200).optional().describe("Narrow the profile's tools to these (never widen)."),
    max_turns: z.int().min(1).max(1000).optional().describe("Tighten the profile's turn limit."),
    max_cost_usd: z.number().positive().max(1000).optional().describe("Tighten the profile's cost budget."),
    max_wallclock_seconds: z.int().min(1).max(86_400).optional().describe("Tighten the profile's time budget."),
    no_questions: z.boolean().optional().describe('true: the child may not ask the operator (its ask tools are left out).'),
    wait: z.boolean().optional().describe('true (default): wait for its answer; false: return at once, its report comes in a later turn.'),
  }),
  async gateSubjects(args) {
    // Rules match the profile: tool.spawn_agent:explore allows explore children only.
    return { subject: args.agent, verbs: [] };
  },
  deadlineMs: () => 24 * 3600_000,
  ownsCancellation: true,
  async run(args, ctx): Promise<JsonObject> {
    const delegator = ctx.services.delegator;
    const started = delegator.start(
      {
        profile: args.agent,
        name: args.name,
        goal: args.goal,
        model: args.model,
        tools: args.tools,
        noQuestions: args.no_questions,
        maxTurns: args.max_turns,
        maxCostUsd: args.max_cost_usd,
        maxWallclockSeconds: args.max_wallclock_seconds,
      },
      ctx.session.sessionId,
    );
    // A refused spawn is a result the model reads, not a failed call.
    if (!started.ok) return { status: `error: ${started.error}` };
    if (args.wait === false) {
      delegator.defer(started.name);
      return { name: started.name, status: 'running', guidance: 'It runs on; its report comes in a later turn.' };
    }
    const { report, deferred } = await awaitStarted(delegator, started.name, ctx.session.sessionId, ctx.signal);
    if (deferred)
      return { ...result(report), stop_reason: 'deferred', guidance: 'Still running after the wait: its report comes in a later turn.' };
    return result(report);
  },
});

function result(r: ChildReport | undefined): JsonObject {
  return r ? reportResult(r) : { status: 'error: the agent is gone' };
}

/** The description lists only the profiles and the tool names that resolve in this run. */
function describe({ services, registered }: DescribeEnv): string {
  const profiles = services.delegator?.profiles() ?? [];
  const list = profiles.map((p) => `- \`${p.name}\`: ${p.description}`).join('\n');
  const tools = registered
    .filter((t) => t.kind !== 'delegate')
    // By the name the model calls each (golem's ListFiles for list_dir): the catalog renders {{@name}}.
    .map((t) => `\`{{@${t.name}}}\``)
    .join(', ');
  return template.replace('{profiles}', list || '(none)').replace('{tools}', tools || '(none)');
}
