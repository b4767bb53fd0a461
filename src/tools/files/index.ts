import members from 'virtual:tool-family';
import { defineFamily } from '../framework/family.ts';

/** The file family: read, write, edit, delete and look at workspace files. */
export const family = defineFamily('files', members);
