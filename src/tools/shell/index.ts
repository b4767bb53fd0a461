import members from 'virtual:tool-family';
import { defineFamily } from '../framework/family.ts';
import { missing, services } from './services.ts';

/** The shell family: bash and the tools for its background terminals (they need bash). */
export const family = defineFamily('shell', members, { services, missing });
