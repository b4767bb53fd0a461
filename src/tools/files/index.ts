import members from 'virtual:tool-family';
import { familyTools } from '../family.ts';

/** The file family: read, write, edit, delete and look at workspace files. */
export const tools = familyTools('files', members);
