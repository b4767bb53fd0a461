import { PRINCIPAL_NAME, PRINCIPAL_NAME_RULE } from '../core/principal.ts';
import { SettingsError } from '../core/settings-error.ts';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { WATCHDOG_MODES, type WatchdogMode } from '../agent/watchdog.ts';
import { unknownName } from '../config/did-you-mean.ts';
import { DIALECTS, type Dialect } from '../core/dialects.ts';
import { BUILTIN_TOOL_AND_FACE_NAMES, canonicalToolName, isBuiltinToolName } from '../tools/index.ts';
import { LOG_LEVELS, type LogLevel } from '../log.ts';
import { modelSpecProblem } from '../model/providers.ts';
import { PERMISSION_MODES, type PermissionMode } from '../permissions/gate.ts';
import { SEARCH_GATE_MODES, type SearchGateMode } from '../tools/shell/search-gate.ts';
import { parseListen } from '../watch/listen.ts';
import { ASK_MODES, type AskMode } from './askers.ts';

/** What a command line can set; each is optional and beats the environment and the recipe. */
export interface FlagSettings {
  recipe?: string | undefined;
  workspace?: string | undefined;
  mode?: PermissionMode | undefined;
  disableTools?: readonly string[] | undefined;
  enableTools?: readonly string[] | undefined;
  /** --dialect: whose tool names the model sees (src/tools/framework/dialect.ts). */
  dialect?: Dialect | undefined;
  /** --allow-tool: when given, only these tools are registered. */
  allowTools?: readonly string[] | undefined;
  /** --deny-tool: never registered (wins over --allow-tool). */
  denyTools?: readonly string[] | undefined;
  /** --allow RULE: permission rules added to the recipe's permissions.allow (already in tool.<name>[:<pattern>] form). */
  allowRules?: readonly string[] | undefined;
  /** --deny RULE: permission rules added to the recipe's permissions.deny (deny wins, in any mode). */
  denyRules?: readonly string[] | undefined;
  /** --bash-search-gate. */
  bashSearchGate?: SearchGateMode | undefined;
  /** --task: an investigation preset that leaves bash out (debug, research, review). */
  task?: 'debug' | 'research' | 'review' | undefined;
  logLevel?: LogLevel | undefined;
  /** --no-mcp-digest: the whole digest layer off (MCP and survey tools), and no retrieve_raw. */
  noDigest?: boolean | undefined;
  /** --trust-workspace: start the MCP servers the workspace's .agents/mcp.json declares. */
  trustWorkspace?: boolean | undefined;
  /** -m, --model: provider:model (run, repl, watch). */
  model?: string | undefined;
  /** --agentic-small-model: provider:model the agentic_* tools run their child on (src/tools/agentic/). */
  agenticSmallModel?: string | undefined;
  /** --session-db: the SQLite event log. */
  sessionDb?: string | undefined;
  /** --max-session-cost-usd: each session stops before a model call once its cost, its child agents' included, passes this. */
  maxSessionCostUsd?: number | undefined;
  /** --watchdog (run, repl, watch). */
  watchdog?: WatchdogMode | undefined;
  /** --ask (run, repl). */
  ask?: AskMode | undefined;
  /** --listen (watch). */
  listen?: { host: string; port: number } | undefined;
}

export { SettingsError };

/** One CORE_AGENT_* variable: the flag it stands in for, what it accepts, and the rule that checks it. */
export interface EnvVar<T> {
  readonly name: string;
  readonly flag: string;
  readonly accepts: string;
  /** The value, or an Error whose message says what is wrong (without the variable's name). */
  readonly parse: (value: string) => T;
}

/** A value as shown in a message: never more than 64 characters of it. */
export function shown(value: string): string {
  return value.length > 64 ? `${value.slice(0, 64)}… (${value.length} characters)` : value;
}

function oneOf<T extends string>(kind: string, values: readonly T[]) {
  return (v: string): T => {
    if ((values as readonly string[]).includes(v)) return v as T;
    throw new Error(unknownName(kind, shown(v), values));
  };
}

const BOOLEAN_WORDS = { true: true, yes: true, '1': true, false: false, no: false, '0': false } as const;
function bool(v: string): boolean {
  if (Object.hasOwn(BOOLEAN_WORDS, v)) return BOOLEAN_WORDS[v as keyof typeof BOOLEAN_WORDS];
  throw new Error(`expected true, false, 1, 0, yes or no, not "${shown(v)}"`);
}

/** A comma-separated list of built-in tool names (a face name counts: `ReadFile`), each checked as the flag checks it. */
function toolList(v: string): string[] {
  const names = splitList(v);
  const unknown = names.find((n) => !isBuiltinToolName(n));
  if (unknown !== undefined) throw new Error(unknownName('tool', shown(unknown), BUILTIN_TOOL_AND_FACE_NAMES));
  return names;
}

function filePath(v: string): string {
  if (v.length > 4096) throw new Error(`"${shown(v)}" is longer than any path (4096 characters)`);
  return v;
}

function absolutePath(v: string): string {
  filePath(v);
  if (!path.isAbsolute(v)) throw new Error(`"${shown(v)}" is not an absolute path`);
  return v;
}

/** provider:model, the check resolveModel makes before it loads anything. */
function modelSpec(v: string): string {
  const problem = modelSpecProblem(v);
  if (problem) throw new Error(problem);
  return v;
}

function executable(v: string): string {
  filePath(v);
  try {
    accessSync(v, constants.X_OK);
    if (!statSync(v).isFile()) throw new Error('not a file');
  } catch {
    throw new Error(`"${shown(v)}" is not an executable file (unset it to use the bundled rg)`);
  }
  return v;
}

/** A whole number of milliseconds within [0, max]. */
const millis =
  (max: number) =>
  (v: string): number => {
    const ms = Number(v);
    if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(ms) || ms > max)
      throw new Error(`"${shown(v)}" is not a whole number of milliseconds from 0 to ${max}`);
    return ms;
  };

function userName(v: string): string {
  if (!PRINCIPAL_NAME.test(v.trim())) throw new Error(`"${shown(v)}" is not a valid user name`);
  return v.trim();
}

const envVar = <T>(name: string, flag: string, accepts: string, parse: (value: string) => T): EnvVar<T> => ({ name, flag, accepts, parse });

/**
 * Every CORE_AGENT_* variable core-agent reads, each with the rule its flag has.
 * An empty value is the same as unset. Anything else that does not pass is an
 * error (exit 2) naming the variable, the value (cut) and what it accepts —
 * never silently ignored, as a bad flag is not. docs/configuration.md lists them.
 */
export const ENV = {
  recipe: envVar('CORE_AGENT_RECIPE', '-c, --recipe', 'a recipe file', filePath),
  workspace: envVar('CORE_AGENT_WORKSPACE', '-w, --workspace', 'a directory', filePath),
  mode: envVar('CORE_AGENT_MODE', '--mode', PERMISSION_MODES.join(' | '), oneOf('permission mode', PERMISSION_MODES)),
  disableTools: envVar('CORE_AGENT_DISABLE_TOOLS', '--disable-tools', 'built-in tool names, comma-separated', toolList),
  enableTools: envVar('CORE_AGENT_ENABLE_TOOLS', '--enable-tools', 'built-in tool names, comma-separated', toolList),
  dialect: envVar('CORE_AGENT_DIALECT', '--dialect', DIALECTS.join(' | '), oneOf('dialect', DIALECTS)),
  logLevel: envVar('CORE_AGENT_LOG_LEVEL', '--log-level', LOG_LEVELS.join(' | '), oneOf('log level', LOG_LEVELS)),
  bashSearchGate: envVar(
    'CORE_AGENT_BASH_SEARCH_GATE',
    '--bash-search-gate',
    SEARCH_GATE_MODES.join(' | '),
    oneOf('value', SEARCH_GATE_MODES),
  ),
  noDigest: envVar('CORE_AGENT_NO_MCP_DIGEST', '--no-mcp-digest', 'true | false | 1 | 0 | yes | no', bool),
  trustWorkspace: envVar('CORE_AGENT_TRUST_WORKSPACE', '--trust-workspace', 'true | false | 1 | 0 | yes | no', bool),
  model: envVar('CORE_AGENT_MODEL', '-m, --model', 'provider:model', modelSpec),
  agenticSmallModel: envVar('CORE_AGENT_AGENTIC_SMALL_MODEL', '--agentic-small-model', 'provider:model', modelSpec),
  sessionDb: envVar('CORE_AGENT_SESSION_DB', '--session-db', 'a file path, or :memory:', filePath),
  watchdog: envVar('CORE_AGENT_WATCHDOG', '--watchdog', WATCHDOG_MODES.join(' | '), oneOf('value', WATCHDOG_MODES)),
  ask: envVar('CORE_AGENT_ASK', '--ask', ASK_MODES.join(' | '), oneOf('value', ASK_MODES)),
  watchListen: envVar('CORE_AGENT_WATCH_LISTEN', '--listen', 'HOST:PORT', parseListen),
  ripgrep: envVar('CORE_AGENT_RIPGREP', 'tools.grep.ripgrep_path', 'an executable rg', executable),
  stdinWaitMs: envVar('CORE_AGENT_STDIN_WAIT_MS', '(run)', 'milliseconds, 0 to 600000', millis(600_000)),
  // A debugging knob, not a setting: start-up's thread held, as a loaded machine holds it (system.ts).
  debugStartDelayMs: envVar('CORE_AGENT_DEBUG_START_DELAY_MS', '(debugging)', 'milliseconds, 0 to 600000', millis(600_000)),
  // Read by the entry before anything else (src/startup/compile-cache.ts), which cannot say what is
  // wrong with it; checked here so that a bad value is reported, not silently left uncached.
  compileCache: envVar('CORE_AGENT_COMPILE_CACHE', '(all commands)', 'an absolute directory path', absolutePath),
  // Read by the entry too (src/runtime/non-dumpable.ts), before the CLI exists: checked here the same way.
  dumpable: envVar('CORE_AGENT_DUMPABLE', '(all commands)', 'true | false | 1 | 0 | yes | no', bool),
  // Who a terminal run acts for: read by terminalPrincipal (state-dir.ts), checked here with the rest.
  user: envVar('CORE_AGENT_USER', '--user', PRINCIPAL_NAME_RULE, userName),
  // The attach daemon's users file: read by the attach step (attach-api.ts usersFileOf).
  usersFile: envVar('CORE_AGENT_USERS_FILE', '--users-file', 'a file path', filePath),
} as const;

export type EnvSettings = { [K in keyof typeof ENV]?: ReturnType<(typeof ENV)[K]['parse']> };

/** Every CORE_AGENT_* variable of `env`, checked; the first bad one is a SettingsError. */
export function readEnv(env: NodeJS.ProcessEnv): EnvSettings {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(ENV) as Array<[keyof typeof ENV, EnvVar<unknown>]>) {
    const raw = env[v.name];
    if (raw === undefined || raw === '') continue;
    try {
      out[key] = v.parse(raw);
    } catch (err) {
      throw new SettingsError(`${v.name}: ${(err as Error).message}`);
    }
  }
  return out as EnvSettings;
}

/**
 * The settings step: flags over environment, each CORE_AGENT_* variable read
 * here, once per command (the recipe and defaults are folded in by later steps).
 * `ripgrep` has no flag (the recipe's tools.grep.ripgrep_path is the other way).
 */
export type Settings = FlagSettings & { envDisable: string[]; envEnable: string[]; ripgrep?: string | undefined };

export function resolveSettings(flags: FlagSettings, env: NodeJS.ProcessEnv): Settings {
  const e = readEnv(env);
  return {
    ...flags,
    recipe: flags.recipe ?? e.recipe,
    workspace: flags.workspace ?? e.workspace,
    mode: flags.mode ?? e.mode,
    dialect: flags.dialect ?? e.dialect,
    logLevel: flags.logLevel ?? e.logLevel,
    bashSearchGate: flags.bashSearchGate ?? e.bashSearchGate,
    noDigest: flags.noDigest ?? e.noDigest,
    trustWorkspace: flags.trustWorkspace ?? e.trustWorkspace,
    model: flags.model ?? e.model,
    agenticSmallModel: checkedFlag(flags.agenticSmallModel, '--agentic-small-model', modelSpec) ?? e.agenticSmallModel,
    sessionDb: flags.sessionDb ?? e.sessionDb,
    watchdog: flags.watchdog ?? e.watchdog,
    ask: flags.ask ?? e.ask,
    listen: flags.listen ?? e.watchListen,
    ripgrep: e.ripgrep,
    envDisable: e.disableTools ?? [],
    envEnable: e.enableTools ?? [],
  };
}

/**
 * A flag checked by its variable's rule, where nothing later resolves it (--model is resolved by
 * the model step; --agentic-small-model only when a wrapper first runs, too late to be a usage error).
 */
function checkedFlag<T>(value: string | undefined, flag: string, parse: (v: string) => T): T | undefined {
  if (value === undefined) return undefined;
  try {
    return parse(value);
  } catch (err) {
    throw new SettingsError(`${flag}: ${(err as Error).message}`);
  }
}

export function parseMode(value: string, where: string): PermissionMode {
  if ((PERMISSION_MODES as readonly string[]).includes(value)) return value as PermissionMode;
  throw new SettingsError(`${where}: ${unknownName('permission mode', shown(value), PERMISSION_MODES)}`);
}

export function parseLogLevel(value: string, where: string): LogLevel {
  if ((LOG_LEVELS as readonly string[]).includes(value)) return value as LogLevel;
  throw new SettingsError(`${where}: ${unknownName('log level', shown(value), LOG_LEVELS)}`);
}

export function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** One layer of tool toggles, each list with the flag or variable it came from. */
export interface ToggleLayer {
  disable: { from: string; names: readonly string[] };
  enable: { from: string; names: readonly string[] };
}

/**
 * Fold tool toggles from lowest to highest layer (recipe, environment, flags):
 * a disable adds, an enable removes, and the higher layer wins a conflict. An
 * enabled tool the dialect did not choose is registered too (catalog.ts). Every
 * name must be a built-in tool's (its canonical or a face name, folded to the
 * canonical one), and naming a tool in both lists of one layer is a mistake worth
 * stopping for; both errors name the list's source. (A recipe's own lists are
 * checked by its schema first, with their position.)
 */
export function foldToolToggles(layers: readonly ToggleLayer[]): { disabled: string[]; enabled: string[] } {
  const disabled = new Set<string>();
  const enabled = new Set<string>();
  for (const { disable, enable } of layers) {
    for (const list of [disable, enable]) {
      const unknown = list.names.find((n) => !isBuiltinToolName(n));
      if (unknown !== undefined)
        throw new SettingsError(`${list.from}: ${unknownName('tool', shown(unknown), BUILTIN_TOOL_AND_FACE_NAMES)}`);
    }
    const off = disable.names.map(canonicalToolName);
    const on = enable.names.map(canonicalToolName);
    const both = off.filter((t) => on.includes(t));
    if (both.length > 0) {
      throw new SettingsError(`${disable.from} and ${enable.from}: ${both.join(', ')} is both disabled and enabled; keep it in one`);
    }
    for (const t of off) {
      disabled.add(t);
      enabled.delete(t);
    }
    for (const t of on) {
      disabled.delete(t);
      enabled.add(t);
    }
  }
  return { disabled: [...disabled], enabled: [...enabled] };
}
