import members from 'virtual:tool-family';
import { familyTools } from '../family.ts';

/** The peers family: delegating a turn to another daemon on this hub's roster (call_peer). */
export const tools = familyTools('peers', members);
