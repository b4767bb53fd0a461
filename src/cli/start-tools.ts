// The tools' listing script (dist/core-agent-tools.js), which src/main.ts loads for `core-agent
// tools …` but `tools call` (src/startup/cli-script.ts, listsTools): built from this entry, it
// holds what `tools list` and the tools' help reach and nothing of the other commands, and its
// zod is an embedded chunk (scripts/bundle/listing-zod.mjs), evaluated only when a recipe is
// read — so a listing reads, copies and compiles less at every start (docs/startup.md). A
// `tools call` validates arguments and runs a tool, which needs zod at once: the whole CLI,
// whose script has it, serves it.
import type { Commands } from './commands.ts';
import { startCli } from './start-cli.ts';

/**
 * The one command this script holds; the same entry src/cli/commands.ts names for it, written
 * again because importing that table would bring every command's import() into this script.
 */
const TOOLS_ONLY: Commands = { tools: async () => (await import('./tools-command.ts')).toolsCommand };

/** Runs one `tools …` command line as the process. */
export function start(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return startCli(argv, env, TOOLS_ONLY);
}
