import members from 'virtual:tool-family';
import { familyTools } from '../family.ts';

/** The data family: query JSON, and get back what a digest left out. */
export const tools = familyTools('data', members);
