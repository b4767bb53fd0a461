import members from 'virtual:tool-family';
import { defineFamily } from '../framework/family.ts';
import { missing, services } from './services.ts';

/** The memory family: the asking user's notes under their home's memories/ (golem's Memory* tools, Anthropic's memory tool). */
export const family = defineFamily('memory', members, { services, missing });
