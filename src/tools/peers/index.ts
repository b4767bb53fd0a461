import members from 'virtual:tool-family';
import { defineFamily } from '../framework/family.ts';
import { missing, services } from './services.ts';

/** The peers family: delegating a turn to another daemon on this hub's roster (call_peer). */
export const family = defineFamily('peers', members, { services, missing });
