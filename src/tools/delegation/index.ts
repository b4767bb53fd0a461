import members from 'virtual:tool-family';
import { defineFamily } from '../framework/family.ts';

/** The delegation family: child agents on the one engine (runtime/child-agents.ts), in each dialect's shape. */
export const family = defineFamily('delegation', members);
