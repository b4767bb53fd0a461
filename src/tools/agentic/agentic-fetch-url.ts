import { fillDescription } from '../framework/describe.ts';
import { defineTool } from '../framework/tool.ts';
import { BUDGETS } from './budgets.ts';
import template from './agentic-fetch-url.md';
import { requestArgs, runWrapped } from './wrapped-child.ts';

const TASK =
  'Fetch the URL the request names with {tools} and answer the request from the page. ' +
  'Quote URLs and key phrases exactly. If the fetch fails, the page is empty, or it does not answer the request, say so plainly rather than padding.';

export const agenticFetchUrlTool = defineTool({
  name: 'agentic_fetch_url',
  description: () => fillDescription(template, { max_words: BUDGETS.fetch_url.maxWords }),
  kind: 'read_remote',
  // A delegation: a child that inherits its parent's tools does not get it.
  excludedIn: { subagent: true },
  needs: ['delegator'],
  uses: ['agenticModel'],
  available: (services) => services.delegator?.off() ?? null,
  requires: 'fetch_url',
  narrowHint: 'Ask a narrower question.',
  args: requestArgs,
  ownsCancellation: true,
  deadlineMs: () => (BUDGETS.fetch_url.maxWallclockSeconds + 60) * 1000,
  run: (args, ctx) => runWrapped(BUDGETS.fetch_url, TASK, args.request, ctx),
});
