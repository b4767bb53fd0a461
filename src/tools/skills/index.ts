import members from 'virtual:tool-family';
import { defineFamily } from '../framework/family.ts';
import { missing, services } from './services.ts';

/** The skills family: the operator's runbooks. */
export const family = defineFamily('skills', members, { services, missing });
