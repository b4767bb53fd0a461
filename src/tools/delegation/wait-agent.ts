import * as z from 'zod/v4';
import { waitAgentGolem } from './wait-agent.golem.ts';
import { defineTool, type JsonObject } from '../framework/tool.ts';
import { reportResult } from '../framework/child-report.ts';
import description from './wait-agent.md';

/** The longest one wait blocks: golem's WaitForSubagent says "still running" after a minute. */
export const MAX_WAIT_SECONDS = 60;

export const waitAgentTool = defineTool({
  name: 'wait_agent',
  description,
  // Waiting changes nothing, and is the session's own business: it never asks.
  kind: 'lifecycle',
  excludedIn: { subagent: true },
  job: 'delegate_wait',
  faces: [waitAgentGolem],
  needs: ['delegator'],
  available: (services) => services.delegator?.off() ?? null,
  requires: 'spawn_agent',
  narrowHint: '',
  args: z.strictObject({
    name: z.string().min(1).max(48).describe('The agent to wait for, as spawn_agent named it.'),
    timeout_seconds: z
      .int()
      .min(1)
      .max(MAX_WAIT_SECONDS)
      .optional()
      .describe(`How long to wait at most (default and limit ${MAX_WAIT_SECONDS}); past it the result says it is still running.`),
  }),
  ownsCancellation: true,
  async run(args, ctx): Promise<JsonObject> {
    const report = await ctx.services.delegator.wait(
      args.name,
      (args.timeout_seconds ?? MAX_WAIT_SECONDS) * 1000,
      ctx.session.sessionId,
      ctx.signal,
    );
    if (!report) return { status: `error: no agent named ${args.name} was started from this session` };
    return reportResult(report);
  },
});
