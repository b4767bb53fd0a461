import * as z from 'zod/v4';
import { profileToolName } from '../../config/agents-schema.ts';
import { defineTool, ToolError, type AnyTool, type JsonObject } from '../framework/tool.ts';

/**
 * A profile as a declarative subagent (core-agent's dialect; docs/delegation.md): a tool of its
 * own, `agent_<profile> {request}` → `{result, …}`, that runs the child through spawn_agent
 * itself — by `ctx.callTool`, so the call is validated, gated under `spawn_agent:<profile>`,
 * plan-first-checked and recorded exactly as the model's spawn would be, and every refusal
 * (depth, concurrency, an ancestor's profile) and the unfinished header are spawn_agent's. Its
 * own kind is `lifecycle`, which never asks: the approval is the inner spawn's, asked once.
 * Registered per run as a source of the catalog (runtime/profile-tools.ts), since the set
 * follows the recipe's profiles; no tool file, so it has no build-time head.
 */
export function profileTool(profile: { readonly name: string; readonly description: string }): AnyTool {
  const name = profileToolName(profile.name);
  return defineTool({
    name,
    description:
      `Hand a self-contained request to the ${profile.name} sub-agent and get its answer back: ${profile.description}\n\n` +
      'It sees nothing of this conversation: `request` must say everything it needs (the question, where to look, what to return). ' +
      'It works with its own tools and context and returns only its answer as `result`; one stopped by its turn, cost or time ' +
      'budget returns its partial work under an `[unfinished: …]` header, with `stop_reason` and one line of `guidance`. ' +
      'A refusal (the depth or concurrency limit, a profile that is its own ancestor, the permission rules) comes back as ' +
      '`status: "error: …"`.',
    kind: 'lifecycle',
    // A delegation: a child is never offered one (scenario.ts); core-agent's profiles cannot list it.
    excludedIn: { subagent: true },
    narrowHint: 'ask the sub-agent for a shorter answer',
    args: z.strictObject({
      request: z.string().min(1).max(32_000).describe('The complete task: the sub-agent sees nothing of this conversation.'),
    }),
    deadlineMs: () => 24 * 3600_000,
    // spawn_agent stops the child when the call is cancelled and returns what it had done.
    ownsCancellation: true,
    async run(args, ctx): Promise<JsonObject> {
      const outcome = await ctx.callTool('spawn_agent', { agent: profile.name, goal: args.request, wait: true }, ctx.signal, {
        digest: false,
      });
      if (!outcome.ok) throw new ToolError(outcome.error, outcome.kind);
      return asResult(outcome.result);
    },
  });
}

/** spawn_agent's result as the declarative tool's: the answer (or why there is none) as `result`, the rest beside it. */
function asResult(r: JsonObject): JsonObject {
  const { final_text: text, ...rest } = r;
  const status = typeof r.status === 'string' ? r.status : '';
  if (status.startsWith('error:')) return { result: `Not run: ${status.slice('error:'.length).trim()}`, ...rest };
  if (typeof text === 'string') return { result: text, ...rest };
  if (r.stop_reason === 'deferred') return { result: '(still running: its answer comes in a later turn by itself)', ...rest };
  return { result: typeof r.error === 'string' ? `It failed: ${r.error}` : '(no answer)', ...rest };
}
