import type { Io } from './usage.ts';

/** A command: the arguments after its word in, the exit status out. */
export type CommandRun = (argv: string[], io: Io) => Promise<number>;

/**
 * The commands a CLI script dispatches (src/cli/main.ts), each imported when it runs: esbuild
 * evaluates a module reached only through import() on its first import, so `tools list` never
 * evaluates watch's, MCP's or the REPL's code. A script is built from one entry, which passes
 * its table: src/cli/start.ts this one, src/cli/start-tools.ts only `tools`, so the tools'
 * script holds nothing any other command reaches (docs/cli.md).
 */
export type Commands = Readonly<Record<string, () => Promise<CommandRun>>>;

export const ALL_COMMANDS: Commands = {
  tools: async () => (await import('./tools-command.ts')).toolsCommand,
  recipe: async () => (await import('./recipe-command.ts')).recipeCommand,
  run: async () => (await import('./run-command.ts')).runCommand,
  repl: async () => (await import('./repl.ts')).replCommand,
  sessions: async () => (await import('./sessions-command.ts')).sessionsCommand,
  mcp: async () => (await import('./mcp-command.ts')).mcpCommand,
  watch: async () => (await import('./watch-command.ts')).watchCommand,
  doctor: async () => (await import('./doctor-command.ts')).doctorCommand,
  completion: async () => (await import('./completion-command.ts')).completionCommand,
  serve: async () => (await import('./serve-command.ts')).serveCommand,
  attach: async () => (await import('./attach-command.ts')).attachCommand,
};
