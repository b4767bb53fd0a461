import members from 'virtual:tool-family';
import { defineFamily } from '../framework/family.ts';

/** The search family: find files by name, search their contents. */
export const family = defineFamily('search', members);
