import * as z from 'zod/v4';
import { SearchError, type SearchProvider } from '../../net/search-providers.ts';
import { defineTool, ToolError } from '../tool.ts';

export const WEB_SEARCH_DEFAULTS = { max_results: 5, timeout_seconds: 20 } as const;

export function webSearchTool(provider: SearchProvider | undefined, defaultCount: number = WEB_SEARCH_DEFAULTS.max_results) {
  return defineTool({
    name: 'web_search',
    description: `Search the web${provider ? ` (${provider.name})` : ''} and return the top results as {title, url, snippet}. Snippets are short: read a promising result in full{{#web_fetch}} with \`web_fetch\`{{/web_fetch}}{{^web_fetch}}{{#fetch_url}} with \`fetch_url\`{{/fetch_url}}{{/web_fetch}}.`,
    openWorld: true,
    readOnly: true,
    narrowHint: 'Ask for fewer results (max_results) or a more specific query.',
    args: z.strictObject({
      query: z.string().trim().min(1).max(400).describe('What to search for, as you would type it into a search engine.'),
      max_results: z.int().min(1).max(20).optional().describe(`How many results (default ${defaultCount}, at most 20).`),
    }),
    async gateSubjects(args) {
      return { subject: args.query, verbs: [] };
    },
    async run(args, ctx) {
      if (!provider) throw new ToolError('no search provider is configured (web_search in the recipe)');
      const seconds = (ctx.settings.timeout_seconds as number | undefined) ?? WEB_SEARCH_DEFAULTS.timeout_seconds;
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(seconds * 1000)]);
      try {
        const results = await provider.search(args.query, args.max_results ?? defaultCount, signal);
        return { query: args.query, provider: provider.name, results: results.map((r) => ({ ...r })) };
      } catch (err) {
        if (err instanceof SearchError) throw new ToolError(`web_search failed: ${err.message}`);
        throw err;
      }
    },
  });
}
