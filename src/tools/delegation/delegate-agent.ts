import * as z from 'zod/v4';
import { agentEnvelope } from '../framework/child-report.ts';
import type { ChildReport } from '../framework/services.ts';
import { defineTool, type DescribeEnv, type JsonObject } from '../framework/tool.ts';
import { awaitStarted } from './await-child.ts';
import template from './delegate-agent.md';

/**
 * Cagent's delegate_agent on the one engine (runtime/child-agents.ts): a profile, a task,
 * an optional provider/model override, and either its completion envelope or an id to join
 * with wait_join. Under `tools.dialect: cagent` it does the delegation job spawn_agent does
 * in core-agent's dialect; wait_agent and stop_agent, which require spawn_agent, go with it.
 */
export const delegateAgentTool = defineTool({
  name: 'delegate_agent',
  dialect: 'cagent',
  description: (env: DescribeEnv) => describe(env),
  kind: 'delegate',
  job: 'delegate',
  // Cagent: a delegated agent's depth is structurally 1.
  excludedIn: { subagent: true },
  needs: ['delegator'],
  available: (services) => services.delegator?.off() ?? null,
  narrowHint: 'ask the sub-agent for a shorter answer',
  args: z.strictObject({
    task: z.string().min(1).max(32_000).describe('Concrete bounded task for the sub-agent: it sees nothing of this conversation.'),
    agent: z.string().min(1).max(40).describe('Configured delegated-agent profile name.'),
    provider: z.string().min(1).max(40).nullable().optional().describe('Optional provider override (with model).'),
    model: z.string().min(1).max(200).nullable().optional().describe('Optional model override: a model of provider, or provider:model.'),
    effort: z
      .string()
      .min(1)
      .max(40)
      .nullable()
      .optional()
      .describe('Optional reasoning effort override; null keeps the default (no effect yet).'),
    wait: z.boolean().optional().describe('Wait for its completion before continuing (default true); false returns its id for wait_join.'),
  }),
  async gateSubjects(args) {
    // Rules match the profile: tool.delegate_agent:explore allows explore sub-agents only.
    return { subject: args.agent, verbs: [] };
  },
  deadlineMs: () => 24 * 3600_000,
  ownsCancellation: true,
  async run(args, ctx): Promise<JsonObject> {
    const delegator = ctx.services.delegator;
    const model = modelOverride(args.provider, args.model);
    if (typeof model === 'object') return { status: `error: ${model.error}` };
    const started = delegator.start(
      {
        profile: args.agent,
        goal: args.task,
        // What a delegated agent never has (the delegation tools, wait_join, update_plan: Cagent's depth
        // is structurally 1) their definitions exclude from the subagent scenario, listed or not.
        model,
      },
      ctx.session.sessionId,
    );
    // A refused delegation is a result the model reads, not a failed call.
    if (!started.ok) return { status: `error: ${started.error}` };
    if (args.wait === false) {
      // Unjoined, its report still reaches the next turn by itself.
      delegator.defer(started.name);
      const join = ctx.toolName('wait_join');
      return {
        id: started.name,
        type: 'agent',
        done: false,
        status: 'running',
        guidance: join ? `Join it with ${join} {"ids": ["${started.name}"]}.` : 'Its report comes in a later turn.',
      };
    }
    const { report, deferred } = await awaitStarted(delegator, started.name, ctx.session.sessionId, ctx.signal);
    if (deferred)
      return {
        ...envelope(report),
        stop_reason: 'deferred',
        guidance: 'Still running after the wait: join it later, or its report comes in a later turn.',
      };
    return envelope(report);
  },
});

function envelope(r: ChildReport | undefined): JsonObject {
  return r ? agentEnvelope(r) : { status: 'error: the agent is gone' };
}

/** The model a delegation asks for: undefined (the profile's), `small`, a provider:model, or why the pair makes no model. */
export function modelOverride(
  provider: string | null | undefined,
  model: string | null | undefined,
): string | undefined | { error: string } {
  if (!model) return provider ? { error: `provider "${provider}" needs a model: give model too, or leave both null` } : undefined;
  if (!provider) return model;
  // The provider named twice (provider: openai, model: openai:gpt-x) is the same model.
  return model.startsWith(`${provider}:`) ? model : `${provider}:${model}`;
}

/** The description lists only the profiles that resolve in this run. */
function describe({ services }: DescribeEnv): string {
  const profiles = services.delegator?.profiles() ?? [];
  const list = profiles.map((p) => `- \`${p.name}\`: ${p.description}`).join('\n');
  return template.replace('{profiles}', list || '(none)');
}
