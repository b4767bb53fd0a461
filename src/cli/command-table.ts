import { WATCHDOG_MODES } from '../agent/watchdog.ts';
import { ATTACH_LISTEN_DEFAULT, PROMPT_TIMEOUT_DEFAULT_S } from '../attach/defaults.ts';
import { DIALECTS } from '../core/dialects.ts';
import { LOG_LEVELS } from '../log.ts';
import { PROVIDERS } from '../model/providers.ts';
import { PERMISSION_MODES } from '../permissions/gate.ts';
import { ASK_MODES } from '../runtime/askers.ts';
import { SEARCH_GATE_MODES } from '../tools/shell/search-gate.ts';
import { WATCH_LISTEN_DEFAULT } from '../watch/listen.ts';

// The flag tables every command parses with, and the tree of commands that holds them. One
// table per command says, for each flag, its type, its default, its CORE_AGENT_* variable and
// its help line; from it come the command's parse and its checks (common-options.ts), the
// options of its --help (help-text.ts) and the completion scripts (completion-command.ts), so
// the three cannot disagree (test/cli/flag-drift.test.ts holds them equal for every command).
// The value lists and defaults imported here come from modules main.ts has already evaluated
// (runtime/settings.ts checks the environment with them) or that import nothing
// (attach/defaults.ts): nothing a command builds runs.

/** What a flag's value completes to: a word list, files, recipe files (*.yaml, *.yml), or directories. */
export type ValueKind = readonly string[] | 'file' | 'recipe' | 'dir';

/** A flag the command takes. Only `type`, `short` and `multiple` reach the parser (node:util parseArgs, quick-parse.ts). */
export interface Flag {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly multiple?: boolean;
  /** The help line: what the flag does (the default, the variable and the recipe key are added from the fields below). */
  readonly help: string;
  /** The value's name in help (`FILE`, `N`); a short list of choices is shown instead when there is one. */
  readonly arg?: string;
  /** The CORE_AGENT_* variable that stands in for the flag (runtime/settings.ts ENV, which checks it). */
  readonly env?: string;
  /** The recipe key below the flag and the variable, said in help. */
  readonly recipeKey?: string;
  /** The only values the parse accepts (and the completion offers); `noun` names them in the refusal. */
  readonly choices?: readonly string[];
  readonly noun?: string;
  /** What the completion offers when the value is free. */
  readonly complete?: ValueKind;
  /** A whole number, checked and converted by the parse: at least 1, or at least 0. */
  readonly integer?: 'positive' | 'non-negative';
  /** A number above 0 with a fraction allowed (a cost in USD), checked and converted by the parse. */
  readonly decimal?: 'positive';
  /** The value when the flag is absent, applied by the parse: nothing else (variable, recipe) sets it. */
  readonly fallback?: string | number;
  /** The default said in help when a later layer applies it (the variable, the recipe, the runtime's built-in). */
  readonly shownDefault?: string | number;
  /** Where it is listed in help: with the agent's options, with every command's, or (absent) the command's own. */
  readonly group?: 'agent' | 'common';
}

/**
 * A flag the command recognises only to refuse it, saying why: not in its help nor its
 * completion, and `--NAME REASON` is the usage error (`--resume does not apply to watch …`).
 */
export interface RefusedFlag {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly multiple?: boolean;
  readonly refused: string;
}

export type FlagSpec = Flag | RefusedFlag;
export type FlagTable = Readonly<Record<string, FlagSpec>>;
/** The name quick-parse.ts reads a table by. */
export type OptionTable = FlagTable;

export const isRefused = (spec: FlagSpec): spec is RefusedFlag => 'refused' in spec;

/** The flag refused, with the reason the command gives. */
const refuse = (spec: FlagSpec, reason: string): RefusedFlag => ({
  type: spec.type,
  ...(spec.short ? { short: spec.short } : {}),
  ...(spec.multiple ? { multiple: true } : {}),
  refused: reason,
});

/** The value lists the parses check and the completion offers. */
export const OUTPUT_FORMATS = ['text', 'json'] as const;
export const CHECKPOINT_MODES = ['auto', 'operator'] as const;
export const TASK_PRESETS = ['debug', 'research', 'review'] as const;
export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;

/** The default session database, as help says it (runtime/state-dir.ts resolves it). */
const SESSION_DB_DEFAULT = '~/.local/state/core-agent/sessions.db';

export const HELP_FLAG = { help: { type: 'boolean', short: 'h', help: 'show this help' } } as const satisfies FlagTable;

export const commonOptions = {
  recipe: {
    type: 'string',
    short: 'c',
    arg: 'FILE',
    help: 'the recipe (YAML) that configures the run',
    env: 'CORE_AGENT_RECIPE',
    complete: 'recipe',
    group: 'common',
  },
  workspace: {
    type: 'string',
    short: 'w',
    arg: 'DIR',
    help: 'the workspace root',
    shownDefault: 'the current directory',
    env: 'CORE_AGENT_WORKSPACE',
    complete: 'dir',
    group: 'common',
  },
  'disable-tools': {
    type: 'string',
    multiple: true,
    arg: 'a,b',
    help: 'leave these tools out of the catalog (repeatable)',
    env: 'CORE_AGENT_DISABLE_TOOLS',
    group: 'common',
  },
  'enable-tools': {
    type: 'string',
    multiple: true,
    arg: 'a,b',
    help: 'put these back after a disable, or add one the dialect left out (repeatable)',
    env: 'CORE_AGENT_ENABLE_TOOLS',
    group: 'common',
  },
  dialect: {
    type: 'string',
    arg: 'NAME',
    choices: DIALECTS,
    help: 'whose tool names the model sees (one tool per job)',
    shownDefault: 'core-agent',
    env: 'CORE_AGENT_DIALECT',
    recipeKey: 'tools.dialect',
    group: 'common',
  },
  'log-level': {
    type: 'string',
    arg: 'LEVEL',
    choices: LOG_LEVELS,
    noun: 'log level',
    help: 'what the logs say (JSON lines on stderr)',
    shownDefault: 'warn',
    env: 'CORE_AGENT_LOG_LEVEL',
    group: 'common',
  },
  'bash-search-gate': {
    type: 'string',
    arg: 'M',
    choices: SEARCH_GATE_MODES,
    help: 'what bash does with search-shaped commands',
    shownDefault: 'enforce',
    env: 'CORE_AGENT_BASH_SEARCH_GATE',
    group: 'common',
  },
  task: {
    type: 'string',
    arg: 'T',
    choices: TASK_PRESETS,
    help: 'an investigation preset without bash (--enable-tools bash puts it back; the search gate still applies)',
    group: 'common',
  },
  'no-mcp-digest': {
    type: 'boolean',
    help: 'show large MCP and survey-tool results as they are (capped) instead of as a digest; no retrieve_raw',
    env: 'CORE_AGENT_NO_MCP_DIGEST',
    group: 'common',
  },
  'trust-workspace': {
    type: 'boolean',
    help: 'start the MCP servers .agents/mcp.json declares (it names commands to run)',
    env: 'CORE_AGENT_TRUST_WORKSPACE',
    group: 'common',
  },
  help: { ...HELP_FLAG.help, group: 'common' },
} as const satisfies FlagTable;

export const modeOptions = {
  mode: {
    type: 'string',
    arg: 'MODE',
    choices: PERMISSION_MODES,
    noun: 'permission mode',
    help: 'the permission mode',
    shownDefault: 'ask',
    env: 'CORE_AGENT_MODE',
    recipeKey: 'permissions.mode',
  },
  yolo: { type: 'boolean', help: 'the same as --mode yolo' },
} as const satisfies FlagTable;

const sessionDb = {
  type: 'string',
  arg: 'PATH',
  help: 'the SQLite event log (":memory:" keeps nothing)',
  shownDefault: SESSION_DB_DEFAULT,
  env: 'CORE_AGENT_SESSION_DB',
  complete: 'file',
} as const satisfies Flag;

const freshSessionDb = {
  type: 'boolean',
  help: 'if the session database is damaged, move it aside (PATH.broken-<time>) and start a fresh one; a healthy one is used as it is',
} as const satisfies Flag;

/** Options every command that runs the agent takes (run, repl, watch, serve). */
export const agentOptions = {
  model: {
    type: 'string',
    short: 'm',
    arg: 'PROVIDER:MODEL',
    help: `the model: ${PROVIDERS.map((p) => `${p}:…`).join(', ')} (replay:FILE plays a script)`,
    env: 'CORE_AGENT_MODEL',
    recipeKey: 'model',
    complete: PROVIDERS.map((p) => `${p}:`),
    group: 'agent',
  },
  'agentic-small-model': {
    type: 'string',
    arg: 'PROVIDER:MODEL',
    help: 'the model the agentic_* tools run their child on (docs/agentic.md)',
    env: 'CORE_AGENT_AGENTIC_SMALL_MODEL',
    recipeKey: 'agents.agentic_small_model',
    shownDefault: "agents.small_model, else the session's model",
    complete: PROVIDERS.map((p) => `${p}:`),
    group: 'agent',
  },
  'session-db': { ...sessionDb, group: 'agent' },
  'fresh-session-db': { ...freshSessionDb, group: 'agent' },
  resume: {
    type: 'string',
    arg: 'ID|latest',
    help: 'continue a session, in its workspace and on its model unless -w / --model say otherwise (latest: the newest session of this workspace)',
    complete: ['latest'],
    group: 'agent',
  },
  continue: { type: 'boolean', short: 'C', help: 'the same as --resume latest', group: 'agent' },
  'max-steps': {
    type: 'string',
    arg: 'N',
    integer: 'positive',
    help: 'model calls with tools per turn',
    // The agent's DEFAULT_MAX_STEPS (test/cli/flag-drift.test.ts): importing it would evaluate the loop in every command.
    shownDefault: 50,
    group: 'agent',
  },
  'max-session-cost-usd': {
    type: 'string',
    arg: 'USD',
    decimal: 'positive',
    help: "stop when the session's cost, its child agents' included, passes USD: no further model call, its children stopped (needs a priced model)",
    group: 'agent',
  },
  'allow-tool': { type: 'string', multiple: true, arg: 'a,b', help: 'register only these tools (repeatable)', group: 'agent' },
  'deny-tool': { type: 'string', multiple: true, arg: 'a,b', help: 'never register these (repeatable; wins)', group: 'agent' },
  allow: {
    type: 'string',
    multiple: true,
    arg: 'RULE',
    help: 'run matching calls without asking, as permissions.allow (repeatable): TOOL[:PATTERN], e.g. "bash:git *"',
    group: 'agent',
  },
  deny: {
    type: 'string',
    multiple: true,
    arg: 'RULE',
    help: 'refuse matching calls in any mode, as permissions.deny (repeatable; wins), e.g. "call_peer:prod-*"',
    group: 'agent',
  },
  watchdog: {
    type: 'string',
    arg: 'MODE',
    choices: WATCHDOG_MODES,
    help: 'what the watchdog does about a turn going in circles',
    env: 'CORE_AGENT_WATCHDOG',
    group: 'agent',
  },
  'reset-watchdog': { type: 'boolean', help: "with --resume: clear a watchdog halt (an operator's reset)", group: 'agent' },
  checkpoint: {
    type: 'string',
    choices: CHECKPOINT_MODES,
    fallback: 'auto',
    help: 'operator withholds mark_task_done',
    group: 'agent',
  },
  ask: {
    type: 'string',
    arg: 'MODE',
    choices: ASK_MODES,
    help: 'register ask_user: stdin always asks on stdin, auto asks on a terminal and refuses cleanly headless',
    env: 'CORE_AGENT_ASK',
    group: 'agent',
  },
} as const satisfies FlagTable;

/** A daemon's sessions are its own to choose: these agent flags are refused, each with the reason. */
function daemonAgentOptions(command: string, why: string) {
  const no = `does not apply to ${command} (${why})`;
  return {
    ...agentOptions,
    resume: refuse(agentOptions.resume, no),
    continue: refuse(agentOptions.continue, no),
    'reset-watchdog': refuse(agentOptions['reset-watchdog'], no),
    ask: refuse(agentOptions.ask, no),
    checkpoint: refuse(agentOptions.checkpoint, no),
    watchdog: { ...agentOptions.watchdog, shownDefault: 'enforce' },
  } as const;
}

const allowedHost = {
  type: 'string',
  multiple: true,
  arg: 'HOST[:PORT]',
  help: 'a Host name the port answers to besides its own address and loopback (a Service, an ingress); "*" any; repeatable',
} as const satisfies Flag;

/** --user (run, repl): who a terminal run acts for. */
const userOption = {
  user: {
    type: 'string',
    arg: 'NAME',
    help: 'act for this user: their memory, skills and workspace under the state directory (default: the OS account)',
    env: 'CORE_AGENT_USER',
  },
} as const satisfies FlagTable;

/** run's flags: the one table the real parse, the JSON-output pre-scan (json-errors.ts) and the completion read. */
export const RUN_OPTIONS = {
  prompt: { type: 'string', short: 'p', arg: 'PROMPT', help: 'the prompt, as a flag (before any PROMPT words)' },
  output: {
    type: 'string',
    short: 'o',
    choices: OUTPUT_FORMATS,
    fallback: 'text',
    help: 'text: the answer on stdout, tool calls on stderr; json: JSON Lines events on stdout (docs/json-stream.md), ending in "result" and "exit"; every error, usage errors included, is an "error" event',
  },
  autonomous: {
    type: 'boolean',
    help: 'after each turn, sleep and wake as the model asks with schedule_next_turn; without a request the run ends',
  },
  'max-turns': { type: 'string', arg: 'N', integer: 'positive', fallback: 20, help: 'autonomous: most turns in one run' },
  'max-defer': {
    type: 'string',
    arg: 'SECONDS',
    integer: 'positive',
    fallback: 3600,
    help: 'autonomous: the longest wait the model may ask for',
  },
  ...agentOptions,
  ...userOption,
  watchdog: { ...agentOptions.watchdog, shownDefault: 'enforce' },
  ask: { ...agentOptions.ask, shownDefault: 'off' },
  ...modeOptions,
  ...commonOptions,
} as const satisfies FlagTable;

export const REPL_OPTIONS = {
  ...agentOptions,
  ...userOption,
  watchdog: { ...agentOptions.watchdog, shownDefault: 'warn' },
  ask: { ...agentOptions.ask, shownDefault: 'stdin' },
  ...modeOptions,
  ...commonOptions,
} as const satisfies FlagTable;

export const WATCH_OPTIONS = {
  listen: {
    type: 'string',
    arg: 'HOST:PORT',
    help: '/healthz, /readyz and /metrics (Prometheus) on this address',
    shownDefault: WATCH_LISTEN_DEFAULT,
    env: 'CORE_AGENT_WATCH_LISTEN',
  },
  'allowed-host': { ...allowedHost, help: `${allowedHost.help} (the attach API's: attach.allowed_hosts)` },
  'shutdown-grace': {
    type: 'string',
    arg: 'SECONDS',
    integer: 'positive',
    fallback: 25,
    help: 'on SIGTERM, how long running sessions get to finish before they are stopped and left to resume',
  },
  ...daemonAgentOptions('watch', 'each incident is its own session'),
  ...modeOptions,
  ...commonOptions,
  'log-level': { ...commonOptions['log-level'], shownDefault: 'info' },
} as const satisfies FlagTable;

export const SERVE_OPTIONS = {
  listen: {
    type: 'string',
    arg: 'HOST:PORT',
    help: 'where the API listens; port 0 picks a free one',
    shownDefault: ATTACH_LISTEN_DEFAULT,
    recipeKey: 'attach.listen',
  },
  'token-env': {
    type: 'string',
    arg: 'NAME',
    help: 'the variable holding the bearer token, or NAME=TOKEN,NAME2=TOKEN2 (each NAME a principal); required off loopback',
    recipeKey: 'attach.token_env',
  },
  'users-file': {
    type: 'string',
    arg: 'PATH',
    help: 'the users file (principals with group, tenant, admin; tokens by variable or sha256), mode 0600',
    env: 'CORE_AGENT_USERS_FILE',
    recipeKey: 'attach.users_file',
  },
  'allowed-host': { ...allowedHost, help: `${allowedHost.help} (needs --token-env for "*")`, recipeKey: 'attach.allowed_hosts' },
  'prompt-timeout': {
    type: 'string',
    arg: 'SECONDS',
    integer: 'positive',
    help: 'a permission prompt nobody answers is denied after this long',
    shownDefault: PROMPT_TIMEOUT_DEFAULT_S,
    recipeKey: 'attach.prompt_timeout_seconds',
  },
  ...daemonAgentOptions('serve', 'clients choose their sessions'),
  model: { ...agentOptions.model, help: `every session's model: ${agentOptions.model.help.slice('the model: '.length)}` },
  ...modeOptions,
  mode: { ...modeOptions.mode, help: 'the permission mode; in ask, a call that needs approval waits for a remote answer' },
  ...commonOptions,
  'log-level': { ...commonOptions['log-level'], shownDefault: 'info' },
} as const satisfies FlagTable;

export const SESSIONS_OPTIONS = {
  all: { type: 'boolean', help: "list and prune: every workspace's sessions" },
  json: { type: 'boolean', help: 'list and show: JSON' },
  'older-than': { type: 'string', arg: 'AGE', help: 'prune: sessions with no activity for AGE (30d, 12h, 2w, 90m)' },
  'dry-run': { type: 'boolean', help: 'prune: list what would be deleted, and delete nothing' },
  workspace: {
    type: 'string',
    short: 'w',
    arg: 'DIR',
    help: 'the workspace list and prune look at',
    shownDefault: 'the current directory',
    env: 'CORE_AGENT_WORKSPACE',
    complete: 'dir',
  },
  'session-db': sessionDb,
  ...HELP_FLAG,
} as const satisfies FlagTable;

export const TOOLS_LIST_OPTIONS = {
  json: { type: 'boolean', help: 'an array of {name, model_name?, description, read_only, input_schema}' },
  ...commonOptions,
} as const satisfies FlagTable;

export const TOOLS_CALL_OPTIONS = {
  'session-db': {
    ...sessionDb,
    help: 'record the call in a new session of this SQLite event log (core-agent sessions show ID)',
    shownDefault: 'none: nothing is recorded',
  },
  'fresh-session-db': freshSessionDb,
  ...modeOptions,
  ...commonOptions,
} as const satisfies FlagTable;

export const RECIPE_OPTIONS = {
  workspace: { ...commonOptions.workspace, help: 'the workspace the recipe is read for (its project file, its paths)', group: undefined },
  ...HELP_FLAG,
} as const satisfies FlagTable;

export const MCP_SERVE_OPTIONS = {
  http: {
    type: 'string',
    arg: 'HOST:PORT',
    help: 'Streamable HTTP (stateless) at http://HOST:PORT/mcp instead of stdio; port 0 picks a free one (printed on stdout)',
  },
  'token-env': { type: 'string', arg: 'NAME', help: 'with --http: require "Authorization: Bearer <value of NAME>"; required off loopback' },
  'allowed-host': { ...allowedHost, help: `with --http: ${allowedHost.help} (needs --token-env for "*"); any other Host is refused` },
  'session-db': {
    ...sessionDb,
    help: 'record every call in a session of this SQLite event log (core-agent sessions show ID)',
    shownDefault: 'none: nothing is recorded',
  },
  'fresh-session-db': freshSessionDb,
  ...modeOptions,
  ...commonOptions,
} as const satisfies FlagTable;

export const DOCTOR_OPTIONS = {
  model: { ...agentOptions.model, help: 'the model to check', shownDefault: 'as a run would pick it', group: undefined },
  output: { type: 'string', short: 'o', choices: OUTPUT_FORMATS, fallback: 'text', help: 'a table, or one JSON object' },
  timeout: {
    type: 'string',
    arg: 'SECONDS',
    integer: 'positive',
    fallback: 10,
    help: "how long the model's provider, an MCP server or the cluster may take",
  },
  ...commonOptions,
} as const satisfies FlagTable;

export const ATTACH_OPTIONS = {
  'token-env': { type: 'string', arg: 'NAME', help: "the variable holding this client's bearer token" },
  since: {
    type: 'string',
    arg: 'SEQ',
    integer: 'non-negative',
    fallback: 0,
    help: 'start after this event (0: the whole session)',
  },
  ...HELP_FLAG,
} as const satisfies FlagTable;

/** What a command's positional arguments are, for the completion: files, recipe files, tool names, or a fixed word list. */
export type Positional = 'file' | 'recipe' | 'tool' | readonly string[];

export interface CommandNode<T extends FlagTable = FlagTable> {
  /** The words that run it: `tools call`. */
  readonly name: string;
  readonly options: T;
  /** What follows the words in its usage line and its parent's list: `NAME [JSON|-]`. */
  readonly synopsis?: string;
  /** One line, in its parent's list of commands (and under its own usage line). */
  readonly summary?: string;
  readonly subcommands?: Readonly<Record<string, CommandNode>>;
  readonly positional?: Positional;
}

/** The subcommand `word` of a group (never a property every object has: `constructor`). */
export function subcommand(group: CommandNode, word: string): CommandNode | undefined {
  return group.subcommands && Object.hasOwn(group.subcommands, word) ? group.subcommands[word] : undefined;
}

const node = <T extends FlagTable>(n: CommandNode<T>): CommandNode<T> => n;

export const RUN = node({ name: 'run', options: RUN_OPTIONS, synopsis: '[PROMPT | -]' });
export const REPL = node({ name: 'repl', options: REPL_OPTIONS, synopsis: '[PROMPT]' });
export const WATCH = node({ name: 'watch', options: WATCH_OPTIONS, synopsis: '-c RECIPE' });
export const SERVE = node({ name: 'serve', options: SERVE_OPTIONS });
export const ATTACH = node({ name: 'attach', options: ATTACH_OPTIONS, synopsis: 'URL [SESSION]' });
export const DOCTOR = node({ name: 'doctor', options: DOCTOR_OPTIONS, synopsis: '[-c RECIPE]' });
export const COMPLETION = node({ name: 'completion', options: HELP_FLAG, synopsis: 'bash|zsh|fish', positional: COMPLETION_SHELLS });

const sessionsLeaf = (name: string, synopsis: string, summary: string) =>
  node({ name: `sessions ${name}`, options: SESSIONS_OPTIONS, synopsis, summary });
export const SESSIONS = node({
  name: 'sessions',
  options: HELP_FLAG,
  subcommands: {
    list: sessionsLeaf(
      'list',
      '[--all] [--json]',
      "This workspace's sessions, newest activity first: when each started and was last active (local time), status (done, interrupted, halted, …), turns, model and title. --all: every workspace's, with its directory",
    ),
    show: sessionsLeaf(
      'show',
      'ID [--json]',
      "Every event of one session: prompts, model responses, tool calls with the result the caller saw, usage. A call not made by the model is tagged: (tools call), (mcp serve), or (poll of CALL), indented, for the calls a tool made (wait_and_verify's polls); a failure says its kind (error [not_found], error [denied], …)",
    ),
    rm: sessionsLeaf('rm', 'ID...', 'Delete these sessions and everything recorded of them (all or none: an unknown ID deletes nothing)'),
    prune: sessionsLeaf(
      'prune',
      '--older-than AGE [--all] [--dry-run]',
      "Delete this workspace's sessions (--all: every one) with no activity for AGE (30d, 12h, 2w, 90m); --dry-run lists them and deletes nothing",
    ),
  },
});

export const TOOLS_LIST = node({
  name: 'tools list',
  options: TOOLS_LIST_OPTIONS,
  synopsis: '[--json]',
  summary: 'The tools a run registers, as the model sees them',
});
export const TOOLS_CALL = node({
  name: 'tools call',
  options: TOOLS_CALL_OPTIONS,
  synopsis: 'NAME [JSON|-]',
  summary: 'Run one tool through the gate and output caps',
  positional: 'tool',
});
export const TOOLS = node({ name: 'tools', options: HELP_FLAG, subcommands: { list: TOOLS_LIST, call: TOOLS_CALL } });

export const RECIPE_VALIDATE = node({
  name: 'recipe validate',
  options: RECIPE_OPTIONS,
  synopsis: 'FILE',
  summary:
    'Check a recipe: YAML, every key and value, the tools it selects. Prints a summary and exits 0, or every problem as FILE:LINE:COL: message on stderr and exits 2.',
  positional: 'recipe',
});
export const RECIPE_SCHEMA = node({
  name: 'recipe schema',
  options: RECIPE_OPTIONS,
  summary: "Print the recipe's JSON Schema (for editors: yaml-language-server).",
});
export const RECIPE = node({ name: 'recipe', options: HELP_FLAG, subcommands: { validate: RECIPE_VALIDATE, schema: RECIPE_SCHEMA } });

export const MCP_SERVE = node({
  name: 'mcp serve',
  options: MCP_SERVE_OPTIONS,
  synopsis: '[--http HOST:PORT [--token-env NAME]]',
  summary: "Serve core-agent's gated catalog over MCP (stdio, or Streamable HTTP)",
});
export const MCP_LIST = node({ name: 'mcp list', options: commonOptions, summary: 'The MCP servers: transport, auth state, tool count' });
export const MCP_LOGIN = node({
  name: 'mcp login',
  options: commonOptions,
  synopsis: 'SERVER',
  summary: 'Log in to an OAuth server (opens $BROWSER)',
});
export const MCP_LOGOUT = node({
  name: 'mcp logout',
  options: commonOptions,
  synopsis: 'SERVER',
  summary: 'Forget its stored tokens and registration',
});
export const MCP = node({
  name: 'mcp',
  options: HELP_FLAG,
  subcommands: { serve: MCP_SERVE, list: MCP_LIST, login: MCP_LOGIN, logout: MCP_LOGOUT },
});

/** Every command and subcommand the CLI dispatches, with the table it parses (main.ts COMMANDS must all be here). */
export const COMMAND_TREE: Readonly<Record<string, CommandNode>> = {
  run: RUN,
  repl: REPL,
  sessions: SESSIONS,
  tools: TOOLS,
  recipe: RECIPE,
  mcp: MCP,
  watch: WATCH,
  doctor: DOCTOR,
  completion: COMPLETION,
  serve: SERVE,
  attach: ATTACH,
  version: node({ name: 'version', options: {} }),
  help: node({ name: 'help', options: {} }),
};
