import members from 'virtual:tool-family';
import { defineFamily } from '../framework/family.ts';
import { missing, services } from './services.ts';

/** The web family: fetch what url_scope allows, search the web, alert a person. */
export const family = defineFamily('web', members, { services, missing });
