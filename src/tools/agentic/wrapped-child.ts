import * as z from 'zod/v4';
import type { Delegator } from '../framework/services.ts';
import { ToolError, type JsonObject, type ServicesFor, type ToolContext } from '../framework/tool.ts';
import type { WrapperBudget } from './budgets.ts';

/**
 * What every wrapper does (the seed's "Agentic wrappers"): a child agent on the one engine
 * (the Delegator port, runtime/child-agents.ts) does the read, the fetch, the search or the
 * survey, so the bulk lands in the child's context and only its digest in the parent's. The
 * child runs as an `explore` child — read-only by its profile — narrowed to the wrapper's
 * inner tools, unable to ask the operator, on the wrappers' model; each of its calls goes
 * through the parent's dispatcher path (gate, path scope, caps), as every child's does. The
 * word limit is told to the child and enforced here: past it the digest is cut.
 */

export const requestArgs = z.strictObject({
  request: z
    .string()
    .min(1)
    .max(8000)
    .describe('What to look at and what you want to know, in one request: the sub-agent sees nothing else of this conversation.'),
});

/** A digest's characters at most, per word allowed: a "word" of a megabyte is not a word. */
const CHARS_PER_WORD = 12;

/** The profile the child runs under: read-only, and on the small model unless the wrappers have their own. */
const PROFILE = 'explore';

type WrapperContext = ToolContext<Readonly<Record<string, unknown>>, ServicesFor<'delegator', 'agenticModel'>>;

export async function runWrapped(budget: WrapperBudget, task: string, request: string, ctx: WrapperContext): Promise<JsonObject> {
  const delegator = ctx.services.delegator;
  const session = ctx.session.sessionId;
  const inner = budget.inner.filter((t) => ctx.hasTool(t));
  if (inner.length === 0) throw new ToolError(`${budget.tool} needs ${budget.inner.join(' or ')}, and none is registered here`);
  const tools = inner.map((t) => `\`${ctx.toolName(t) ?? t}\``).join(', ');
  const goal = [
    task.replaceAll('{tools}', tools),
    `Budget: ${budget.maxTurns} rounds of tool calls (several calls may go in one round), then answer.`,
    `Answer in at most ${budget.maxWords} words: only that much reaches the agent that asked, and the rest is cut off.`,
    '',
    'The request:',
    request,
  ].join('\n');
  const started = delegator.start(
    {
      profile: PROFILE,
      name: nextName(delegator, budget.tool),
      goal,
      tools: inner,
      noQuestions: true,
      model: 'small',
      modelSpec: ctx.services.agenticModel,
      maxTurns: budget.maxTurns,
      maxWallclockSeconds: budget.maxWallclockSeconds,
    },
    session,
  );
  if (!started.ok) throw new ToolError(`${budget.tool} could not start its sub-agent: ${started.error}`);
  // The engine stops the child at its wall clock; the margin only covers its last model call ending.
  let report = await delegator.wait(started.name, (budget.maxWallclockSeconds + 30) * 1000, session, ctx.signal);
  if (ctx.signal.aborted || report?.status === 'running') report = (await delegator.stop(started.name, session)) ?? report;
  if (!report) throw new ToolError(`${budget.tool}: its sub-agent is gone`);
  if (report.status === 'error') throw new ToolError(`${budget.tool}: its sub-agent failed: ${report.error ?? 'unknown error'}`);
  const digest = capWords(report.finalText ?? '', budget.maxWords);
  return {
    digest: digest.text,
    ...(digest.truncated ? { truncated: true } : {}),
    turns_used: report.turns,
    ...(report.costUsd !== null ? { cost_usd: report.costUsd } : {}),
  };
}

/** `text` cut after `maxWords` words (whitespace-separated) or their characters' worth, whichever comes first. */
export function capWords(text: string, maxWords: number): { text: string; truncated: boolean } {
  let end = text.length;
  let count = 0;
  for (const m of text.matchAll(/\S+/g)) {
    if (++count > maxWords) {
      end = m.index;
      break;
    }
  }
  let out = text.slice(0, end).trimEnd();
  let truncated = end < text.length;
  const maxChars = maxWords * CHARS_PER_WORD;
  if (out.length > maxChars) {
    out = out.slice(0, maxChars);
    // Never half a surrogate pair.
    if (/[\uD800-\uDBFF]$/.test(out)) out = out.slice(0, -1);
    truncated = true;
  }
  return { text: out, truncated };
}

/** `<tool>-<n>` per run (its engine): the child's session says which wrapper started it. */
const counters = new WeakMap<Delegator, Map<string, number>>();
function nextName(delegator: Delegator, tool: string): string {
  let byTool = counters.get(delegator);
  if (!byTool) counters.set(delegator, (byTool = new Map()));
  const n = (byTool.get(tool) ?? 0) + 1;
  byTool.set(tool, n);
  return `${tool}-${n}`;
}
