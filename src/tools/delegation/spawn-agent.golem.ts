import { randomBytes } from 'node:crypto';
import * as z from 'zod/v4';
import { defineFace } from '../framework/face.ts';
import type { JsonObject } from '../framework/tool.ts';
import description from './spawn-agent.golem.md';

/** golem's ceiling on a subagent's run (its WaitTimeout): the engine's wall clock stops it there. */
export const GOLEM_SUBAGENT_SECONDS = 600;

/**
 * golem's StartSubagent over spawn_agent: the general profile, returning at once with a
 * `sub_<8 hex>` id. What golem's SubagentScenario withholds (asking the user, the subagent and
 * schedule tools) the tools' definitions exclude from the subagent scenario (scenario.ts), in
 * golem's dialect even when a profile lists them. Results are sentences.
 */
export const spawnAgentGolem = defineFace({
  dialect: 'golem',
  name: 'StartSubagent',
  description,
  args: z.strictObject({
    description: z.string().min(1).max(200).describe('A few words saying what the subagent is for.'),
    prompt: z.string().min(1).max(32_000).describe('The complete task: the subagent sees nothing of this conversation.'),
  }),
  toEngine: (a) => ({
    agent: 'general',
    name: `sub_${randomBytes(4).toString('hex')}`,
    goal: a.prompt,
    // golem cancels a subagent at ten minutes, whatever the general profile allows (a shorter one stands).
    max_wallclock_seconds: GOLEM_SUBAGENT_SECONDS,
    wait: false,
  }),
  result: (r, a): JsonObject => {
    if (typeof r.name !== 'string') return { message: `Could not start the subagent: ${String(r.status).replace(/^error: /, '')}` };
    return {
      subagentId: r.name,
      message: `Started subagent ${r.name} (${a.description}). Call WaitForSubagent with subagentId "${r.name}" for its result.`,
    };
  },
});
