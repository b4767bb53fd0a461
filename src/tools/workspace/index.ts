import members from 'virtual:tool-family';
import { defineFamily } from '../framework/family.ts';
import { missing, services } from './services.ts';

/** The workspace family: where the conversation works — its current directory, and worktrees to work in. */
export const family = defineFamily('workspace', members, { services, missing });
