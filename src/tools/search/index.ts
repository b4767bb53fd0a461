import members from 'virtual:tool-family';
import { familyTools } from '../family.ts';

/** The search family: find files by name, search their contents. */
export const tools = familyTools('search', members);
