import members from 'virtual:tool-family';
import { defineFamily } from '../framework/family.ts';

/** The verify family: poll a read-only tool until a condition holds. */
export const family = defineFamily('verify', members);
