import members from 'virtual:tool-family';
import { familyTools } from '../family.ts';

/** The workspace family: where the conversation works — its current directory, and worktrees to work in. */
export const tools = familyTools('workspace', members);
