import { RecipeError } from '../config/parse-config.ts';
import { readEnv, SettingsError } from '../runtime/settings.ts';
import { SessionDbError } from '../store/session-db.ts';
import { isCwdGone } from '../util/failure-sentences.ts';
import { sessionDbAdvice } from './session-db-option.ts';
import { COMMANDS, HELP_WORDS, impliedCommand, MAIN_HELP, VERSION } from './main-help.ts';
import { EXIT, UsageError, type Io } from './usage.ts';
import { editDistance } from '../config/did-you-mean.ts';
import type { Commands } from './commands.ts';

export { COMMANDS, MAIN_HELP, VERSION } from './main-help.ts';

/**
 * Runs one command line; returns the exit status. Never throws for user errors. `commands`: the
 * commands this CLI script holds (src/cli/commands.ts), each imported when it runs.
 */
export async function main(argv: string[], io: Io, commands: Commands): Promise<number> {
  const [command, ...rest] = argv;
  // A prompt without the word `run` (`core-agent "why?"`, `core-agent -p "why?"`) is a run.
  const implied = impliedCommand(argv);
  // The entry picks the script by the command word (src/startup/cli-script.ts), so a script is never
  // asked for a command it does not hold: one missing here is a build mistake, said as one.
  const run = async (name: string, args: string[]): Promise<number> => {
    const load = commands[name];
    if (load === undefined) throw new Error(`core-agent: this CLI script has no "${name}" command (a build mistake)`);
    return (await load())(args, io);
  };
  try {
    // Every CORE_AGENT_* variable is checked before any command runs, as its flag would be
    // (help still works: it is how one finds out what a variable accepts).
    if (command !== undefined && !HELP_WORDS.has(command) && !rest.some((a) => a === '--help' || a === '-h')) readEnv(io.env);
    switch (command) {
      case undefined:
        // On a terminal, no command is an interactive session; elsewhere, a usage error.
        if (io.isTty) return await run('repl', []);
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
      default: {
        if (COMMANDS.includes(command)) return await run(command, rest);
        if (implied === 'run') {
          // One word close to a command's name is a mistyped command, not a prompt: `core-agent sesions list`.
          const meant = mistypedCommand(command);
          if (meant !== undefined)
            throw new UsageError(
              `unknown command "${command.slice(0, 60)}" — did you mean "${meant}"? (to send it as a prompt: core-agent -p ${command.slice(0, 60)})`,
            );
          return await run('run', argv);
        }
        // Only global flags (`core-agent --model X`, `-c r.yaml`): the interactive session, as with no command.
        if (io.isTty || rest.includes('--help') || rest.includes('-h')) return await run('repl', argv);
        io.err(`${MAIN_HELP}\n`);
        return EXIT.usage;
      }
    }
  } catch (err) {
    // `run -o json`: the same report, as one JSON event on stdout (docs/json-stream.md).
    if (command === 'run' || implied === 'run') {
      const { wantsJsonOutput, reportAsJson } = await import('./json-errors.ts');
      if (wantsJsonOutput(command === 'run' ? rest : argv)) return reportAsJson(io, (textIo) => reportError(err, 'run', textIo));
    }
    return reportError(err, implied ?? command, io);
  }
}

/**
 * The command a first word was likely meant to be, or undefined when the word is a prompt. Only
 * one word (a prompt of several is quoted) within an edit of a command's name — two from eight
 * letters on (`complition`) — since any other word is now a prompt of its own: `hello` is not a
 * mistyped `help`, `sesions` is a mistyped `sessions`. `-p WORD` sends such a word as a prompt.
 */
export function mistypedCommand(word: string): string | undefined {
  if (word.startsWith('-') || /\s/.test(word) || word.length > 60) return undefined;
  const limit = word.length >= 8 ? 2 : 1;
  let best: { command: string; d: number } | undefined;
  for (const command of COMMANDS) {
    const d = editDistance(word.toLowerCase(), command);
    if (d <= limit && (best === undefined || d < best.d)) best = { command, d };
  }
  return best?.command;
}

/** An error the user can act on, said on stderr with its exit status; anything else is rethrown (start-cli.ts reports it). */
function reportError(err: unknown, command: string | undefined, io: Io): number {
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
