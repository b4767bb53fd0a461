import { DEFAULT_MAX_STEPS } from '../agent/agent.ts';
import { WATCHDOG_MODES } from '../agent/watchdog.ts';
import { unknownName } from '../config/did-you-mean.ts';
import { ASK_MODES } from '../runtime/askers.ts';
import { gateNamespace, parseRule, RULE_SYNTAX } from '../permissions/rules.ts';
import { LATEST } from '../runtime/resume-step.ts';
import { splitList, type FlagSettings } from '../runtime/settings.ts';
import { flagSettings } from './common-options.ts';
import { CHECKPOINT_MODES } from './command-table.ts';
import { FRESH_SESSION_DB_HELP } from './session-db-option.ts';
import { UsageError } from './usage.ts';

export const AGENT_OPTIONS_HELP = `  -m, --model PROVIDER:MODEL  replay:FILE, google:…, vertex:…, openai:…,
                              openai-compatible:…, anthropic:…       [env CORE_AGENT_MODEL]
      --session-db PATH       SQLite event log (default ~/.local/state/core-agent/
                              sessions.db; ":memory:" keeps nothing)  [env CORE_AGENT_SESSION_DB]
${FRESH_SESSION_DB_HELP}
      --resume ID|latest      continue a session, in its workspace and on its model
                              unless -w / --model say otherwise (latest: the newest
                              session of this workspace)
  -C, --continue              the same as --resume latest
      --max-steps N           model calls with tools per turn (default ${DEFAULT_MAX_STEPS})
      --allow-tool a,b        register only these tools (repeatable)
      --deny-tool a,b         never register these (repeatable; wins)
      --allow RULE            run matching calls without asking, as permissions.allow
                              (repeatable): TOOL[:PATTERN], e.g. "bash:git *"
      --deny RULE             refuse matching calls in any mode, as permissions.deny
                              (repeatable; wins), e.g. "call_peer:prod-*"
      --mode MODE | --yolo    permission mode (default ask)
      --watchdog MODE         off | warn | feedback | enforce           [env CORE_AGENT_WATCHDOG]
      --reset-watchdog        with --resume: clear a watchdog halt (an operator's reset)
      --checkpoint auto|operator
                              operator withholds mark_task_done (default auto)
      --ask off|stdin|auto    register ask_user: stdin always asks on stdin, auto asks
                              on a terminal and refuses cleanly headless  [env CORE_AGENT_ASK]`;

type Values = Record<string, string | boolean | string[] | boolean[] | undefined>;

export function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string, command: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag}: ${unknownName('value', value, allowed)}`, command);
}

export function positiveInt(value: string | undefined, fallback: number, flag: string, command: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a positive integer`, command);
  return n;
}

/** The agent options of a command line, checked (usage errors name the flag), as the root takes them. */
export interface AgentFlags {
  flags: FlagSettings;
  checkpoint: 'auto' | 'operator';
  maxSteps: number | undefined;
  resume: string | undefined;
  resetWatchdog: boolean;
  fresh: boolean;
}

export function agentFlags(values: Values, command: string): AgentFlags {
  const str = (k: string) => values[k] as string | undefined;
  const maxSteps = str('max-steps') === undefined ? undefined : positiveInt(str('max-steps'), 0, '--max-steps', command);
  const watchdog = str('watchdog') === undefined ? undefined : oneOf(str('watchdog')!, WATCHDOG_MODES, '--watchdog', command);
  const checkpoint = oneOf(str('checkpoint') ?? 'auto', CHECKPOINT_MODES, '--checkpoint', command);
  const ask = str('ask') === undefined ? undefined : oneOf(str('ask')!, ASK_MODES, '--ask', command);
  if (values.continue && str('resume') !== undefined) throw new UsageError('give --resume ID or --continue, not both', command);
  const resume = values.continue ? LATEST : str('resume');
  if (values['reset-watchdog'] && resume === undefined) throw new UsageError('--reset-watchdog needs --resume ID (or --continue)', command);
  const flags: FlagSettings = {
    ...flagSettings(values),
    allowTools: ((values['allow-tool'] as string[] | undefined) ?? []).flatMap(splitList),
    denyTools: ((values['deny-tool'] as string[] | undefined) ?? []).flatMap(splitList),
    allowRules: ruleFlags(values.allow as string[] | undefined, '--allow', command),
    denyRules: ruleFlags(values.deny as string[] | undefined, '--deny', command),
    model: str('model'),
    sessionDb: str('session-db'),
    watchdog,
    ask,
  };
  return {
    flags,
    checkpoint,
    maxSteps,
    resume,
    resetWatchdog: values['reset-watchdog'] === true,
    fresh: values['fresh-session-db'] === true,
  };
}

/**
 * --allow / --deny: permission rules, as the recipe's permissions.allow/deny hold
 * them. A rule may leave out the `tool.` of a built-in (`call_peer:prod-*` is
 * `tool.call_peer:prod-*`); a rule that does not parse is a usage error naming
 * the flag and the syntax, and never echoes more than a line of it.
 */
function ruleFlags(given: readonly string[] | undefined, flag: string, command: string): string[] {
  return (given ?? []).map((raw) => {
    const rule = raw.trim();
    const full = rule === '*' || rule.startsWith('tool.') || rule.startsWith('mcp.') ? rule : bareRule(rule);
    try {
      parseRule(full);
    } catch {
      const shown = rule.length > 80 ? `${rule.slice(0, 80)}…` : rule;
      throw new UsageError(`${flag} "${shown}" is not a permission rule; expected ${RULE_SYNTAX} (or TOOL[:PATTERN])`, command);
    }
    return full;
  });
}

function bareRule(rule: string): string {
  const colon = rule.indexOf(':');
  const tool = colon === -1 ? rule : rule.slice(0, colon);
  return `${gateNamespace(tool)}${colon === -1 ? '' : rule.slice(colon)}`;
}
