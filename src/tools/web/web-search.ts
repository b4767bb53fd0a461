import * as z from 'zod/v4';
import { SearchError } from '../../net/search-providers.ts';
import { fillDescription } from '../framework/describe.ts';
import { defineTool, ToolError } from '../framework/tool.ts';
import template from './web-search.md';

export const WEB_SEARCH_DEFAULTS = { max_results: 5, timeout_seconds: 20 } as const;

const maxResults = (n: number) => `How many results (default ${n}, at most 20).`;

export const webSearchTool = defineTool({
  name: 'web_search',
  dialect: 'cagent',
  description: ({ services }) =>
    fillDescription(template, { provider: services.searchProvider ? ` (${services.searchProvider.name})` : '' }),
  kind: 'read_remote',
  needs: ['searchProvider'],
  uses: ['searchResults'],
  settings: z.strictObject({
    timeout_seconds: z
      .number()
      .positive()
      .max(600)
      .default(WEB_SEARCH_DEFAULTS.timeout_seconds)
      .describe('Seconds before a search is abandoned (default 20).'),
  }),
  // The default count is the recipe's web_search.max_results.
  describeArgs: (services) => ({ max_results: maxResults(services.searchResults ?? 5) }),
  narrowHint: 'Ask for fewer results (max_results) or a more specific query.',
  args: z.strictObject({
    query: z.string().trim().min(1).max(400).describe('What to search for, as you would type it into a search engine.'),
    max_results: z.int().min(1).max(20).optional().describe(maxResults(WEB_SEARCH_DEFAULTS.max_results)),
  }),
  async gateSubjects(args) {
    return { subject: args.query, verbs: [] };
  },
  async run(args, ctx) {
    const provider = ctx.services.searchProvider;
    if (!provider) throw new ToolError('no search provider is configured (web_search in the recipe)');
    const seconds = ctx.settings.timeout_seconds;
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(seconds * 1000)]);
    try {
      const results = await provider.search(args.query, args.max_results ?? ctx.services.searchResults ?? 5, signal);
      return { query: args.query, provider: provider.name, results: results.map((r) => ({ ...r })) };
    } catch (err) {
      if (err instanceof SearchError) throw new ToolError(`web_search failed: ${err.message}`);
      throw err;
    }
  },
});
