// The tools' script (dist/core-agent-tools.js), which src/main.ts loads for `core-agent tools …`
// (src/startup/cli-script.ts): built from this entry, it holds what `tools list` and `tools call`
// reach and nothing of the other commands — 0.7 MiB against the whole CLI's 0.9 MiB, so a
// listing reads, decodes and compiles less at every start (docs/benchmarks.md). It is the whole
// of those two commands, not a cut-down one: esbuild bundles everything they import.
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
