import { RecipeError } from '../config/load-recipe.ts';
import { readEnv, SettingsError } from '../runtime/settings.ts';
import { SessionDbError } from '../store/session-db.ts';
import { isCwdGone } from '../util/failure-sentences.ts';
import { mcpCommand } from './mcp-command.ts';
import { recipeCommand } from './recipe-command.ts';
import { replCommand } from './repl.ts';
import { runCommand } from './run-command.ts';
import { sessionDbAdvice } from './session-db-option.ts';
import { sessionsCommand } from './sessions-command.ts';
import { toolsCommand } from './tools-command.ts';
import { watchCommand } from './watch-command.ts';
import { EXIT, UsageError, type Io } from './usage.ts';

export const VERSION: string = typeof __CORE_AGENT_VERSION__ === 'string' ? __CORE_AGENT_VERSION__ : '0.0.0-dev';

export const MAIN_HELP = `core-agent ${VERSION} — an agent runtime with a gated catalog of built-in tools

Usage: core-agent <command> [options]

Commands:
  run "PROMPT" --model M     Run one turn headless (replay:FILE for a scripted model)
  repl --model M             An interactive session (also: no command, on a terminal)
  sessions list|show|rm|prune  The session event log (this workspace's; --all)
  tools list [--json]        The tools a run registers, as the model sees them
  tools call NAME [JSON]     Run one tool through the permission gate and output caps
  recipe validate FILE       Check a recipe; errors as FILE:LINE:COL
  recipe schema              The recipe's JSON Schema
  mcp serve [--http H:P]     Serve the gated catalog over MCP (stdio or Streamable HTTP)
  watch -c RECIPE            Kubernetes events → one incident session each (health, metrics)

Options:
  --version                  Print the version
  -h, --help                 Show help (also: core-agent <command> --help)

Exit status: 0 success, 1 a tool refused or failed, 2 a usage or recipe error.`;

const HELP_WORDS = new Set(['--version', '-v', 'version', '--help', '-h', 'help']);

/** Runs one command line; returns the exit status. Never throws for user errors. */
export async function main(argv: string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  try {
    // Every CORE_AGENT_* variable is checked before any command runs, as its flag would be
    // (help still works: it is how one finds out what a variable accepts).
    if (command !== undefined && !HELP_WORDS.has(command) && !rest.some((a) => a === '--help' || a === '-h')) readEnv(io.env);
    switch (command) {
      case undefined:
        // On a terminal, no command is an interactive session; elsewhere, a usage error.
        if (io.isTty) return await replCommand([], io);
        io.err(`${MAIN_HELP}\n`);
        return EXIT.usage;
      case '--version':
      case '-v':
      case 'version':
        io.out(`${VERSION}\n`);
        return EXIT.ok;
      case '--help':
      case '-h':
      case 'help':
        io.out(`${MAIN_HELP}\n`);
        return EXIT.ok;
      case 'tools':
        return await toolsCommand(rest, io);
      case 'recipe':
        return await recipeCommand(rest, io);
      case 'run':
        return await runCommand(rest, io);
      case 'repl':
        return await replCommand(rest, io);
      case 'sessions':
        return await sessionsCommand(rest, io);
      case 'mcp':
        return await mcpCommand(rest, io);
      case 'watch':
        return await watchCommand(rest, io);
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`core-agent: ${err.message}\nRun "core-agent ${err.command ? `${err.command} ` : ''}--help" for usage.\n`);
      return EXIT.usage;
    }
    if (err instanceof RecipeError) {
      io.err(`${err.problems.join('\n')}\n`);
      return EXIT.usage;
    }
    if (err instanceof SettingsError) {
      io.err(`core-agent: ${err.message}\n`);
      return EXIT.usage;
    }
    // Exit 2, like a bad --session-db: running the same command again fails the same
    // way until the user acts (moves the file, frees space, picks another path).
    if (err instanceof SessionDbError) {
      io.err(`core-agent: ${err.message}.\n${sessionDbAdvice(err, command ?? '')}\n`);
      return EXIT.usage;
    }
    // Started from a directory that was removed since: process.cwd() fails (uv_cwd). A user's situation, not a crash.
    if (isCwdGone(err)) {
      io.err('core-agent: the current directory no longer exists; cd to a directory or pass -w DIR\n');
      return EXIT.usage;
    }
    throw err;
  }
}
