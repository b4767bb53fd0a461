// The CLI proper (dist/core-agent-cli.js), loaded by src/main.ts for every command line it does
// not answer itself and the tools' script does not take (src/startup/cli-script.ts).
import { ALL_COMMANDS } from './commands.ts';
import { startCli } from './start-cli.ts';

/** Runs one command line as the process: sets the exit code, flushes the logs. */
export function start(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return startCli(argv, env, ALL_COMMANDS);
}
