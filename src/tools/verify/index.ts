import members from 'virtual:tool-family';
import { familyTools } from '../family.ts';

/** The verify family: poll a read-only tool until a condition holds. */
export const tools = familyTools('verify', members);
