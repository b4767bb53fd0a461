import { LOG_LEVELS, type LogLevel } from '../log.ts';
import { PERMISSION_MODES, type PermissionMode } from '../permissions/gate.ts';
import { unknownName } from '../config/did-you-mean.ts';

/** What a command line can set; each is optional and beats the environment and the recipe. */
export interface FlagSettings {
  recipe?: string | undefined;
  workspace?: string | undefined;
  mode?: PermissionMode | undefined;
  disableTools?: readonly string[] | undefined;
  enableTools?: readonly string[] | undefined;
  /** --allow-tool: when given, only these tools are registered. */
  allowTools?: readonly string[] | undefined;
  /** --deny-tool: never registered (wins over --allow-tool). */
  denyTools?: readonly string[] | undefined;
  /** --bash-search-gate. */
  bashSearchGate?: 'enforce' | 'warn' | 'allow' | undefined;
  /** --task: an investigation preset that leaves bash out (debug, research, review). */
  task?: 'debug' | 'research' | 'review' | undefined;
  logLevel?: LogLevel | undefined;
  /** --no-mcp-digest: the whole digest layer off (MCP and survey tools), and no retrieve_raw. */
  noDigest?: boolean | undefined;
  /** --trust-workspace: start the MCP servers the workspace's .agents/mcp.json declares. */
  trustWorkspace?: boolean | undefined;
}

/** A setting that cannot be used: the command exits 2 with this message. */
export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

/** The environment variables core-agent reads, one per flag. */
export const ENV = {
  recipe: 'CORE_AGENT_RECIPE',
  workspace: 'CORE_AGENT_WORKSPACE',
  mode: 'CORE_AGENT_MODE',
  disableTools: 'CORE_AGENT_DISABLE_TOOLS',
  enableTools: 'CORE_AGENT_ENABLE_TOOLS',
  logLevel: 'CORE_AGENT_LOG_LEVEL',
  bashSearchGate: 'CORE_AGENT_BASH_SEARCH_GATE',
  noDigest: 'CORE_AGENT_NO_MCP_DIGEST',
  trustWorkspace: 'CORE_AGENT_TRUST_WORKSPACE',
} as const;

/** Flags over environment: the recipe (and defaults) are folded in by the runtime. */
export function mergeFlagsWithEnv(
  flags: FlagSettings,
  env: NodeJS.ProcessEnv,
): FlagSettings & { envDisable: string[]; envEnable: string[] } {
  const mode = flags.mode ?? (env[ENV.mode] ? parseMode(env[ENV.mode]!, ENV.mode) : undefined);
  const logLevel = flags.logLevel ?? (env[ENV.logLevel] ? parseLogLevel(env[ENV.logLevel]!, ENV.logLevel) : undefined);
  return {
    ...flags,
    recipe: flags.recipe ?? nonEmpty(env[ENV.recipe]),
    workspace: flags.workspace ?? nonEmpty(env[ENV.workspace]),
    mode,
    logLevel,
    noDigest: flags.noDigest ?? (env[ENV.noDigest] ? parseBool(env[ENV.noDigest]!, ENV.noDigest) : undefined),
    trustWorkspace: flags.trustWorkspace ?? (env[ENV.trustWorkspace] ? parseBool(env[ENV.trustWorkspace]!, ENV.trustWorkspace) : undefined),
    envDisable: splitList(env[ENV.disableTools]),
    envEnable: splitList(env[ENV.enableTools]),
  };
}

function parseBool(value: string, where: string): boolean {
  if (['1', 'true', 'yes'].includes(value)) return true;
  if (['0', 'false', 'no'].includes(value)) return false;
  throw new SettingsError(`${where}: expected true or false, not "${value}"`);
}

export function parseMode(value: string, where: string): PermissionMode {
  if ((PERMISSION_MODES as readonly string[]).includes(value)) return value as PermissionMode;
  throw new SettingsError(`${where}: ${unknownName('permission mode', value, PERMISSION_MODES)}`);
}

export function parseLogLevel(value: string, where: string): LogLevel {
  if ((LOG_LEVELS as readonly string[]).includes(value)) return value as LogLevel;
  throw new SettingsError(`${where}: ${unknownName('log level', value, LOG_LEVELS)}`);
}

export function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v === '' ? undefined : v;
}

/**
 * Fold tool toggles from lowest to highest layer (recipe, environment, flags):
 * a disable adds, an enable removes, and the higher layer wins a conflict.
 * Naming a tool in both lists of one layer is a mistake worth stopping for.
 */
export function foldToolToggles(layers: ReadonlyArray<{ name: string; disable: readonly string[]; enable: readonly string[] }>): string[] {
  const disabled = new Set<string>();
  for (const layer of layers) {
    const both = layer.disable.filter((t) => layer.enable.includes(t));
    if (both.length > 0) throw new SettingsError(`${layer.name}: ${both.join(', ')} is both disabled and enabled`);
    for (const t of layer.disable) disabled.add(t);
    for (const t of layer.enable) disabled.delete(t);
  }
  return [...disabled];
}
