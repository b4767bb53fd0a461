import members from 'virtual:tool-family';
import { familyTools } from '../family.ts';

/** The planning family: the session's own bookkeeping — steps, plans, questions, checkpoints, wake-ups. */
export const tools = familyTools('planning', members);
