import { fillDescription } from '../framework/describe.ts';
import { defineTool } from '../framework/tool.ts';
import { BUDGETS } from './budgets.ts';
import template from './agentic-grep.md';
import { requestArgs, runWrapped } from './wrapped-child.ts';

const TASK =
  'Search with {tools} for what the request asks, then rank the matches by how well they answer it and report the most relevant, ' +
  'each as path:line with the matched text exactly as the search returned it. Report only what the search returned: never invent paths, lines or ' +
  'the code around a match. If nothing matches, say so.';

export const agenticGrepTool = defineTool({
  name: 'agentic_grep',
  description: () => fillDescription(template, { max_words: BUDGETS.grep.maxWords }),
  kind: 'read',
  // A delegation: a child that inherits its parent's tools does not get it.
  excludedIn: { subagent: true },
  needs: ['delegator'],
  uses: ['agenticModel'],
  available: (services) => services.delegator?.off() ?? null,
  requires: 'grep',
  narrowHint: 'Ask a narrower question.',
  args: requestArgs,
  ownsCancellation: true,
  deadlineMs: () => (BUDGETS.grep.maxWallclockSeconds + 60) * 1000,
  run: (args, ctx) => runWrapped(BUDGETS.grep, TASK, args.request, ctx),
});
