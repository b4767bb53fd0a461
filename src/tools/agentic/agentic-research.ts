import { fillDescription } from '../framework/describe.ts';
import { defineTool } from '../framework/tool.ts';
import { BUDGETS } from './budgets.ts';
import template from './agentic-research.md';
import { requestArgs, runWrapped } from './wrapped-child.ts';

const TASK =
  'Investigate the request with {tools}: find the entry points, follow what the question is about, and name the files and functions involved. ' +
  'Answer with a one-paragraph summary first, then the evidence as path:line citations, then what is uncertain or left open. Quote sparingly.';

export const agenticResearchTool = defineTool({
  name: 'agentic_research',
  description: () => fillDescription(template, { max_words: BUDGETS.research.maxWords }),
  kind: 'read',
  // A delegation: a child that inherits its parent's tools does not get it.
  excludedIn: { subagent: true },
  needs: ['delegator'],
  uses: ['agenticModel'],
  available: (services) => services.delegator?.off() ?? null,
  requires: 'read_file',
  narrowHint: 'Ask a narrower question.',
  args: requestArgs,
  ownsCancellation: true,
  deadlineMs: () => (BUDGETS.research.maxWallclockSeconds + 60) * 1000,
  run: (args, ctx) => runWrapped(BUDGETS.research, TASK, args.request, ctx),
});
