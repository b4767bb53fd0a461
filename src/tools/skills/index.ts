import members from 'virtual:tool-family';
import { familyTools } from '../family.ts';

/** The skills family: the operator's runbooks. */
export const tools = familyTools('skills', members);
