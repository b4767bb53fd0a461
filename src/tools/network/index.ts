import type { AnyTool } from '../tool.ts';
import { alertTool } from './alert.ts';
import { fetchUrlTool } from './fetch-url.ts';
import { webFetchTool } from './web-fetch.ts';
import { webSearchTool } from './web-search.ts';

/** The network family: fetch what url_scope allows, search the web, alert a person. */
export const tools: readonly AnyTool[] = [fetchUrlTool, webFetchTool, webSearchTool, alertTool];
