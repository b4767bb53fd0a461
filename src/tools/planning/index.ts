import members from 'virtual:tool-family';
import { defineFamily } from '../framework/family.ts';
import { missing, services } from './services.ts';

/** The planning family: the session's own bookkeeping — steps, plans, questions, checkpoints, wake-ups. */
export const family = defineFamily('planning', members, { services, missing });
