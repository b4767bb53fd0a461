// The version and the top-level help, with no imports: src/main.ts answers --version and
// --help from this module alone, before the rest of the bundle is evaluated.
export const VERSION: string = typeof __CORE_AGENT_VERSION__ === 'string' ? __CORE_AGENT_VERSION__ : '0.0.0-dev';

export const MAIN_HELP = `core-agent ${VERSION} — an agent runtime with a gated catalog of built-in tools

Usage: core-agent <command> [options]
       core-agent "PROMPT" [options]   or   core-agent -p PROMPT [options]
                             a prompt: the same as core-agent run "PROMPT" [options]
                             (one word close to a command's name is taken for a
                             mistyped command: -p WORD sends it as a prompt)

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
  doctor [-c RECIPE]         Check Node, ripgrep, config, credentials, MCP servers, the cluster
  completion bash|zsh|fish   A shell completion script (source <(core-agent completion bash))
  serve --listen H:P         The attach daemon: sessions, live events, remote approval over HTTP
  attach URL [SESSION]       Follow a daemon's session on the terminal; answer its prompts

Options:
  --version                  Print the version
  -h, --help                 Show help (also: core-agent <command> --help)

Exit status: 0 success, 1 a tool refused or failed, 2 a usage or recipe error.`;

/** The first words that print the version or the help (the rest of the line is ignored). */
export const HELP_WORDS: ReadonlySet<string> = new Set(['--version', '-v', 'version', '--help', '-h', 'help']);

/** What the entry prints for a help word without loading the CLI, or undefined for everything else. */
export function quickAnswer(argv: readonly string[]): string | undefined {
  const [command] = argv;
  if (command === '--version' || command === '-v' || command === 'version') return `${VERSION}\n`;
  if (command === '--help' || command === '-h' || command === 'help') return `${MAIN_HELP}\n`;
  return undefined;
}

/** The oldest Node this build runs on (package.json engines): node:sqlite and the rest are there from 24 on. */
export const MIN_NODE_MAJOR = 24;

/**
 * One line when `version` (process.versions.node) is older than MIN_NODE_MAJOR:
 * checked first, before any module that needs a newer built-in is loaded, so an
 * old Node is one clear sentence and not ERR_UNKNOWN_BUILTIN_MODULE halfway in.
 */
export function nodeVersionProblem(version: string): string | undefined {
  const major = Number.parseInt(version, 10);
  if (Number.isFinite(major) && major >= MIN_NODE_MAJOR) return undefined;
  return `core-agent: needs Node ${MIN_NODE_MAJOR} or newer; this is Node ${version.slice(0, 20)} (${process.execPath.slice(0, 200)})\n`;
}

/** The command words the CLI dispatches (src/cli/main.ts; every one is in command-table.ts's tree). */
export const COMMANDS: readonly string[] = [
  'run',
  'repl',
  'sessions',
  'tools',
  'recipe',
  'mcp',
  'watch',
  'doctor',
  'completion',
  'serve',
  'attach',
  'version',
  'help',
];

/** `-p PROMPT` / `--prompt PROMPT` (Gemini CLI's, and Claude Code's `-p "…"`): run's flag, before any `--`. */
export function hasPromptFlag(argv: readonly string[]): boolean {
  for (const a of argv) {
    if (a === '--') return false;
    if (a === '-p' || a === '--prompt' || a.startsWith('--prompt=') || /^-p./.test(a)) return true;
  }
  return false;
}

/**
 * The command a line runs when its first word is not a command: `run` for a prompt (`-p PROMPT`
 * anywhere, or a first word that is not a flag), undefined for only global flags (the REPL on a
 * terminal). Which first words are mistyped commands instead is main.ts's to say (did-you-mean).
 */
export function impliedCommand(argv: readonly string[]): 'run' | undefined {
  const [first] = argv;
  if (first === undefined || COMMANDS.includes(first)) return undefined;
  return hasPromptFlag(argv) || !first.startsWith('-') ? 'run' : undefined;
}
