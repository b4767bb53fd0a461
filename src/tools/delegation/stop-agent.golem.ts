import * as z from 'zod/v4';
import { defineFace } from '../framework/face.ts';
import description from './stop-agent.golem.md';

/** golem's CancelSubagent over stop_agent; the answer is a sentence. */
export const stopAgentGolem = defineFace({
  dialect: 'golem',
  name: 'CancelSubagent',
  description,
  args: z.strictObject({
    subagentId: z.string().min(1).max(48).describe('The id StartSubagent returned.'),
  }),
  toEngine: (a) => ({ name: a.subagentId }),
  result: (r, a) => {
    if (typeof r.status === 'string' && r.status.startsWith('error: '))
      return { message: `There is no subagent ${a.subagentId} in this conversation.` };
    if (r.status === 'stopped') return { message: `Subagent ${a.subagentId} was cancelled.` };
    return { message: `Subagent ${a.subagentId} had already ended (${String(r.stop_reason ?? r.status)}).` };
  },
});
