import members from 'virtual:tool-family';
import { defineFamily } from '../framework/family.ts';
import { missing, services } from './services.ts';

/** The scion family: telling a Scion orchestrator how the agent stands, when core-agent runs in a Scion container. */
export const family = defineFamily('scion', members, { services, missing });
