import members from 'virtual:tool-family';
import { familyTools } from '../family.ts';

/** The shell family: bash and the tools for its background terminals (they need bash). */
export const tools = familyTools('shell', members);
