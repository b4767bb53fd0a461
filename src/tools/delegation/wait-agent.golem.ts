import * as z from 'zod/v4';
import { defineFace } from '../framework/face.ts';
import description from './wait-agent.golem.md';

/** golem's WaitForSubagent over wait_agent: a minute at most, then "still running"; results are sentences. */
export const waitAgentGolem = defineFace({
  dialect: 'golem',
  name: 'WaitForSubagent',
  description,
  args: z.strictObject({
    subagentId: z.string().min(1).max(48).describe('The id StartSubagent returned.'),
  }),
  toEngine: (a) => ({ name: a.subagentId }),
  result: (r, a) => ({ message: sentence(r, a.subagentId) }),
});

function sentence(r: Record<string, unknown>, id: string): string {
  if (typeof r.status === 'string' && r.status.startsWith('error: ')) return `There is no subagent ${id} in this conversation.`;
  if (r.status === 'running')
    return `Subagent ${id} is still running; call WaitForSubagent again, or CancelSubagent if you no longer need its answer.`;
  const text = typeof r.final_text === 'string' ? r.final_text : '';
  if (r.status === 'stopped') return `Subagent ${id} was cancelled.${text ? ` What it had done:\n\n${text}` : ''}`;
  if (r.status === 'error') return `Subagent ${id} failed: ${String(r.error ?? 'unknown error')}`;
  if (r.stop_reason === 'budget') {
    const why = r.budget === 'time' ? 'it ran out of time' : 'it spent its cost budget';
    return `Subagent ${id} was cancelled: ${why}. What it had done:\n\n${text}`;
  }
  return `Subagent ${id} finished:\n\n${text}`;
}
