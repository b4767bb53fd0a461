import { fillDescription } from '../framework/describe.ts';
import { defineTool } from '../framework/tool.ts';
import { BUDGETS } from './budgets.ts';
import template from './agentic-read-file.md';
import { requestArgs, runWrapped } from './wrapped-child.ts';

const TASK =
  'Read the file the request names with {tools} and answer the request from what it says. ' +
  'Quote the lines that matter exactly, with their line numbers. For a long file, read the parts the request needs (offset and limit; ' +
  'several reads may go in one round). If the file cannot be read, say so and why.';

export const agenticReadFileTool = defineTool({
  name: 'agentic_read_file',
  description: () => fillDescription(template, { max_words: BUDGETS.read_file.maxWords }),
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
  deadlineMs: () => (BUDGETS.read_file.maxWallclockSeconds + 60) * 1000,
  run: (args, ctx) => runWrapped(BUDGETS.read_file, TASK, args.request, ctx),
});
