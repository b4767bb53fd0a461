import members from 'virtual:tool-family';
import { familyTools } from '../family.ts';

/** The scion family: telling a Scion orchestrator how the agent stands, when core-agent runs in a Scion container. */
export const tools = familyTools('scion', members);
