import * as z from 'zod/v4';
import { stopAgentGolem } from './stop-agent.golem.ts';
import { defineTool, type JsonObject } from '../framework/tool.ts';
import description from './stop-agent.md';

export const stopAgentTool = defineTool({
  name: 'stop_agent',
  description,
  // The session's own business: stopping a child it started never asks.
  kind: 'lifecycle',
  excludedIn: { subagent: true },
  job: 'delegate_stop',
  faces: [stopAgentGolem],
  needs: ['delegator'],
  available: (services) => services.delegator?.off() ?? null,
  requires: 'spawn_agent',
  narrowHint: '',
  args: z.strictObject({
    name: z.string().min(1).max(48).describe('The agent to stop, as spawn_agent named it.'),
  }),
  async run(args, ctx): Promise<JsonObject> {
    const report = await ctx.services.delegator.stop(args.name, ctx.session.sessionId);
    if (!report) return { status: `error: no agent named ${args.name} was started from this session` };
    return {
      name: report.name,
      status: report.status,
      ...(report.stopReason ? { stop_reason: report.stopReason } : {}),
      ...(report.finalText !== undefined ? { final_text: report.finalText } : {}),
    };
  },
});
