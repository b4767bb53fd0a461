import members from 'virtual:tool-family';
import { defineFamily } from '../framework/family.ts';
import { services } from './services.ts';

/** The agentic wrappers: a read, fetch, search or survey done by a child agent on the engine, of which only a digest comes back. */
export const family = defineFamily('agentic', members, { services });
