import members from 'virtual:tool-family';
import { familyTools } from '../family.ts';

/** The network family: fetch what url_scope allows, search the web, alert a person. */
export const tools = familyTools('network', members);
