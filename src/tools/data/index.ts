import members from 'virtual:tool-family';
import { defineFamily } from '../framework/family.ts';

/** The data family: query JSON, and get back what a digest left out. */
export const family = defineFamily('data', members);
