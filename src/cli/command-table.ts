import type { ParseArgsConfig } from 'node:util';

// The flag tables every command parses with, and the tree of commands that holds them. Data
// only, with no imports that run: `core-agent completion` generates its scripts from this
// module without evaluating a command (each command imports its own table from here, so a
// flag added to a command is a flag the completion offers — test/cli/completion.test.ts).

export type OptionTable = NonNullable<ParseArgsConfig['options']>;

export const commonOptions = {
  recipe: { type: 'string', short: 'c' },
  workspace: { type: 'string', short: 'w' },
  'disable-tools': { type: 'string', multiple: true },
  'enable-tools': { type: 'string', multiple: true },
  dialect: { type: 'string' },
  'log-level': { type: 'string' },
  'bash-search-gate': { type: 'string' },
  task: { type: 'string' },
  'no-mcp-digest': { type: 'boolean' },
  'trust-workspace': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies OptionTable;

export const modeOptions = {
  mode: { type: 'string' },
  yolo: { type: 'boolean' },
} as const satisfies OptionTable;

/** Options every command that runs the agent takes (run, repl, watch). */
export const agentOptions = {
  model: { type: 'string', short: 'm' },
  'session-db': { type: 'string' },
  'fresh-session-db': { type: 'boolean' },
  resume: { type: 'string' },
  continue: { type: 'boolean', short: 'C' },
  'max-steps': { type: 'string' },
  'allow-tool': { type: 'string', multiple: true },
  'deny-tool': { type: 'string', multiple: true },
  allow: { type: 'string', multiple: true },
  deny: { type: 'string', multiple: true },
  watchdog: { type: 'string' },
  'reset-watchdog': { type: 'boolean' },
  checkpoint: { type: 'string' },
  ask: { type: 'string' },
} as const satisfies OptionTable;

/** run's flags: the one table the real parse, the JSON-output pre-scan (json-errors.ts) and the completion read. */
export const RUN_OPTIONS = {
  ...commonOptions,
  ...modeOptions,
  ...agentOptions,
  output: { type: 'string', short: 'o' },
  prompt: { type: 'string', short: 'p' },
  autonomous: { type: 'boolean' },
  'max-turns': { type: 'string' },
  'max-defer': { type: 'string' },
} as const satisfies OptionTable;

export const REPL_OPTIONS = { ...commonOptions, ...modeOptions, ...agentOptions } as const satisfies OptionTable;

export const WATCH_OPTIONS = {
  ...commonOptions,
  ...modeOptions,
  ...agentOptions,
  listen: { type: 'string' },
  'allowed-host': { type: 'string', multiple: true },
  'shutdown-grace': { type: 'string' },
} as const satisfies OptionTable;

export const SESSIONS_OPTIONS = {
  'session-db': { type: 'string' },
  workspace: { type: 'string', short: 'w' },
  all: { type: 'boolean' },
  json: { type: 'boolean' },
  'older-than': { type: 'string' },
  'dry-run': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies OptionTable;

export const TOOLS_LIST_OPTIONS = { ...commonOptions, json: { type: 'boolean' } } as const satisfies OptionTable;

export const TOOLS_CALL_OPTIONS = {
  ...commonOptions,
  ...modeOptions,
  'session-db': { type: 'string' },
  'fresh-session-db': { type: 'boolean' },
} as const satisfies OptionTable;

export const RECIPE_OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  workspace: { type: 'string', short: 'w' },
} as const satisfies OptionTable;

export const MCP_SERVE_OPTIONS = {
  ...commonOptions,
  ...modeOptions,
  http: { type: 'string' },
  'token-env': { type: 'string' },
  'allowed-host': { type: 'string', multiple: true },
  'session-db': { type: 'string' },
  'fresh-session-db': { type: 'boolean' },
} as const satisfies OptionTable;

export const DOCTOR_OPTIONS = {
  ...commonOptions,
  model: { type: 'string', short: 'm' },
  output: { type: 'string', short: 'o' },
  timeout: { type: 'string' },
} as const satisfies OptionTable;

export const SERVE_OPTIONS = {
  ...commonOptions,
  ...modeOptions,
  ...agentOptions,
  listen: { type: 'string' },
  'token-env': { type: 'string' },
  'allowed-host': { type: 'string', multiple: true },
  'prompt-timeout': { type: 'string' },
} as const satisfies OptionTable;

export const ATTACH_OPTIONS = {
  'token-env': { type: 'string' },
  since: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies OptionTable;

export const HELP_ONLY = { help: { type: 'boolean', short: 'h' } } as const satisfies OptionTable;

/** The value lists the parses check (oneOf / pick) and the completion offers. */
export const OUTPUT_FORMATS = ['text', 'json'] as const;
export const CHECKPOINT_MODES = ['auto', 'operator'] as const;
export const TASK_PRESETS = ['debug', 'research', 'review'] as const;

export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;

/** What a command's positional arguments are, for the completion: files, recipe files, tool names, or a fixed word list. */
export type Positional = 'file' | 'recipe' | 'tool' | readonly string[];

export interface CommandNode {
  options: OptionTable;
  subcommands?: Readonly<Record<string, CommandNode>>;
  positional?: Positional;
}

/** Every command and subcommand the CLI dispatches, with the table it parses (main.ts COMMANDS must all be here). */
export const COMMAND_TREE: Readonly<Record<string, CommandNode>> = {
  run: { options: RUN_OPTIONS },
  repl: { options: REPL_OPTIONS },
  sessions: {
    options: HELP_ONLY,
    subcommands: {
      list: { options: SESSIONS_OPTIONS },
      show: { options: SESSIONS_OPTIONS },
      rm: { options: SESSIONS_OPTIONS },
      prune: { options: SESSIONS_OPTIONS },
    },
  },
  tools: {
    options: HELP_ONLY,
    subcommands: { list: { options: TOOLS_LIST_OPTIONS }, call: { options: TOOLS_CALL_OPTIONS, positional: 'tool' } },
  },
  recipe: {
    options: HELP_ONLY,
    subcommands: { validate: { options: RECIPE_OPTIONS, positional: 'recipe' }, schema: { options: RECIPE_OPTIONS } },
  },
  mcp: {
    options: HELP_ONLY,
    subcommands: {
      serve: { options: MCP_SERVE_OPTIONS },
      list: { options: commonOptions },
      login: { options: commonOptions },
      logout: { options: commonOptions },
    },
  },
  watch: { options: WATCH_OPTIONS },
  doctor: { options: DOCTOR_OPTIONS },
  completion: { options: HELP_ONLY, positional: COMPLETION_SHELLS },
  serve: { options: SERVE_OPTIONS },
  attach: { options: ATTACH_OPTIONS },
  version: { options: {} },
  help: { options: {} },
};
